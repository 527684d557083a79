// `clerk plot RESULTS --x AXIS --y METRIC [--by AXIS]`: a sweep's results
// drawn by gnuplot as PNG and SVG. Returns 0, 1 (gnuplot failed) or 2 (bad input).
#pragma once
#include <functional>
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

// A figure's gnuplot script, given the names of the PNG and SVG it draws.
using FigureScript = std::function<std::string(const std::string& png, const std::string& svg)>;
// Draws `script` with gnuplot into PREFIX.png and PREFIX.svg (clerk plot,
// compare and whatif): in a private temporary folder, then each file written
// whole (nothing half-written when gnuplot fails or a signal comes). Returns
// 0, 1 (gnuplot failed or is missing) or 128 + a signal; throws SweepError
// when the files could not be written (checked before gnuplot runs).
int draw_figure(const FigureScript& script, const std::string& prefix, const std::string& gnuplot = "gnuplot");
// Throws SweepError (naming `option`) when PREFIX names a folder ("dir/", an
// existing folder): the files would be the hidden "dir/.png".
void check_figure_prefix(const std::string& prefix, const std::string& option);

}  // namespace cli::sweep
