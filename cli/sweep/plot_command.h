// `clerk plot RESULTS --x AXIS --y METRIC [--by AXIS]`: a sweep's results
// drawn by gnuplot as PNG and SVG. Returns 0, 2 (bad input, or the
// machine failed gnuplot: not installed, killed, out of memory, a file it
// could not write) or 3 (gnuplot refused clerk's script: a bug).
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.h"

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
// compare and whatif): in a private temporary folder, then both pictures
// written whole together with the command's other outputs `with` (its
// --json), all or none (common::OutputSet: nothing half-written, nothing
// written alone, when gnuplot fails, a file cannot be written or a signal
// comes). Returns
// 0, 2 (the machine's doing: gnuplot vanished since check_gnuplot found it,
// was killed, ran out of memory, or could not write its pictures; its own
// words are shown), 3 (gnuplot refused the script: a bug in clerk) or 128 +
// a signal; throws SweepError when the files could not be written (checked
// before gnuplot runs).
int draw_figure(const FigureScript& script, const std::string& prefix, const std::string& gnuplot = "gnuplot",
                common::OutputSet with = {});
// Why a gnuplot run that left no whole pictures failed for the machine's
// reasons, from its exit status, its words and whether both pictures are
// whole; "" when nothing says so (then clerk's script is suspected, unless
// the folder cannot be written).
std::string gnuplot_machine_failure(int exit_status, std::string_view said, bool pictures_whole);
// Throws SweepError (naming `option`) when `gnuplot` cannot be found: checked
// before any run, so that a figure asked for is never found impossible after
// minutes of runs.
void check_gnuplot(const std::string& option, const std::string& gnuplot = "gnuplot");
// Throws SweepError (naming `option`) when PREFIX names a folder ("dir/", an
// existing folder): the files would be the hidden "dir/.png"; or a special
// file (/dev/stdout, /dev/null) or a name in /dev: the files would be
// created in /dev (/dev/stdout.png).
void check_figure_prefix(const std::string& prefix, const std::string& option);

}  // namespace cli::sweep
