// `clerk plot RESULTS --x AXIS --y METRIC [--by AXIS]`: a sweep's results
// drawn by gnuplot as PNG and SVG. Returns 0, 1 (gnuplot failed) or 2 (bad input).
#pragma once
#include <string>
#include <vector>

namespace cli::sweep {

struct PlotArgs {
  std::string results;                // a sweep's .csv or .jsonl rows
  std::string x, y, by;
  std::vector<std::string> where;     // AXIS=VALUE filters
  bool heatmap = false;               // --by as the second axis of a heat map instead of lines
  bool log_x = false, log_y = false;
  std::string out;                    // PREFIX: writes PREFIX.png and PREFIX.svg
  std::string title;
  double confidence = 0.95;
  std::string gnuplot = "gnuplot";
};
int plot_command(const PlotArgs& args);

}  // namespace cli::sweep
