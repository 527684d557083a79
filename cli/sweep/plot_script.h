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

std::string gnuplot_script(const PlotData& d, const PlotLook& look, const std::string& png, const std::string& svg);

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
