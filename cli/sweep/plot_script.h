// The gnuplot script for a plot: lines (one per --by value) with shaded
// confidence bands, or a heat map of the means over two axes; drawn once as
// PNG (cairo) and once as SVG.
#pragma once
#include <string>

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

}  // namespace cli::sweep
