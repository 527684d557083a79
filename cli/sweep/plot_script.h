// The gnuplot script for a plot: lines (one per --by value) with shaded
// confidence bands, or a heat map of the means over two axes; drawn once as
// PNG (cairo) and once as SVG.
#pragma once
#include <string>
#include <vector>

#include "cli/sweep/plot_data.h"

namespace cli::sweep {

struct PlotLook {
  std::string x_key, y_key, by_key;
  std::string title;
  bool heatmap = false;
  bool log_x = false, log_y = false;
  double confidence = 0.95;
};

// A figure with no point gnuplot can place (every mean missing, or none
// above 0 on a logarithmic y axis, or no x above 0 on a logarithmic x
// axis) is drawn empty, saying so: gnuplot stops on it ("all points y value
// undefined"), after a what-if's runs. clerk plot refuses it before.
std::string gnuplot_script(const PlotData& d, const PlotLook& look, const std::string& png, const std::string& svg);

// Whether one of the points can be placed as `look` asks (see above).
bool has_drawable_point(const PlotData& d, const PlotLook& look);

// gnuplot holds a value of magnitude VERYLARGE (DBL_MAX / 2, its syscfg.h)
// or more as undefined, and an axis reaching it as invalid: x or y values
// of +-9e307 failed ("x range is invalid", "all points y value undefined"),
// +-8e307 drew. 1e307 leaves room for the margins and tics it adds.
inline constexpr double kMaxDrawn = 1e307;

// Bar charts side by side (clerk compare): each panel one figure of every
// category (a scenario), as clustered bars (one per series: a client group)
// or stacked ones (shares that add up: R/S/D, blocked time by cause).
struct BarPanel {
  std::string title;                       // says the unit: "requests/s", "p99 latency (s)"
  std::vector<std::string> series;         // the legend
  std::vector<std::vector<double>> values; // [category][series]; NaN: none
  bool stacked = false;
  bool log_y = false;
};
struct BarChart {
  std::string title;
  std::vector<std::string> categories;
  std::vector<BarPanel> panels;  // laid out two a row
};
std::string bar_chart_script(const BarChart& chart, const std::string& png, const std::string& svg);

}  // namespace cli::sweep
