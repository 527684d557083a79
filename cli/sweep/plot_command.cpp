#include "cli/sweep/plot_command.h"

#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <sys/wait.h>
#include <vector>

#include "cli/sweep/plot_data.h"
#include "cli/sweep/plot_script.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"
#include "common/child_process.h"
#include "common/stop_signals.h"
#include "common/temp_dir.h"

namespace cli::sweep {

namespace fs = std::filesystem;

namespace {

std::string default_prefix(const PlotArgs& a) {
  const fs::path p(a.results);
  std::string name = p.stem().string() + "-" + a.y + (a.heatmap ? "-heatmap" : "");
  for (char& c : name)
    if (c == '.' || c == '/') c = '-';
  return (p.parent_path() / name).string();
}

// A private folder (mkdtemp: mode 0700, an unpredictable name) in the
// system's temporary folder, where gnuplot reads its script and draws; it is
// removed with everything in it when the plot ends, however it ends.
common::TempDir work_folder() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  try {
    return common::TempDir((base / "clerk-plot-").string());
  } catch (const std::runtime_error& e) {
    throw SweepError("clerk plot", "", e.what());
  }
}

// SIGINT, SIGTERM and SIGHUP (a closed terminal), while a plot is drawn, are
// noted instead of ending clerk at once (common/stop_signals.h): gnuplot (in
// its own process group, which a terminal's hangup does not reach) is stopped
// and reaped and the work folder removed first; then the signal ends clerk as
// it would have.

constexpr const char* kInstallGnuplot =
    "gnuplot is not installed or not in PATH (Debian: gnuplot-nox; scripts/setup installs it)";

// A program named by a relative path is found from clerk's folder, not gnuplot's.
std::string program_path(const std::string& program) {
  if (program.find('/') == std::string::npos) return program;
  std::error_code ec;
  const fs::path abs = fs::absolute(program, ec);
  return ec ? program : abs.string();
}

// Runs gnuplot on plot.gp in `folder` (no shell in between), in its own
// process group (a terminal's ^C reaches clerk, which stops it); returns its
// exit status, 127 when it cannot be started, -1 when it died or was stopped.
int run_gnuplot(const std::string& program, const std::string& folder) {
  const std::string path = common::find_program(program_path(program));
  if (path.empty()) return 127;
  common::SpawnSpec spec;
  spec.argv = {path, "plot.gp"};
  spec.keep_output = true;  // gnuplot's own complaints reach the user
  spec.cwd = folder;
  spec.who = "clerk plot";
  common::ChildProcess gnuplot = common::ChildProcess::spawn(spec);
  while (!gnuplot.wait_for(0.05)) {
    if (common::stop_signal_noted()) {
      gnuplot.stop(SIGTERM, 5);
      return -1;
    }
  }
  const int status = gnuplot.exit()->status;
  return !gnuplot.exit()->lost && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A heat map has x values times --by values cells (gather caps the lines).
constexpr std::size_t kMaxHeatmapCells = 1'000'000;

void check_size(const PlotArgs& args, const PlotData& data) {
  if (args.heatmap && data.series.size() * data.x_labels.size() > kMaxHeatmapCells)
    throw SweepError("--heatmap", "", "would have " + std::to_string(data.series.size() * data.x_labels.size()) +
                                          " cells, more than " + std::to_string(kMaxHeatmapCells));
}

// A figure with no point to draw (every mean missing or infinite, or none
// above 0 on a logarithmic y axis) is refused before gnuplot runs.
void check_drawable(const PlotArgs& args, const PlotData& data) {
  for (const PlotSeries& series : data.series)
    for (const PlotCell& c : series.cells)
      if (std::isfinite(c.y.mean) && (!args.log_y || c.y.mean > 0)) return;
  throw SweepError(args.results, "", "has no value of " + args.y + " to draw" +
                                         (args.log_y ? " on a logarithmic axis (every one is missing, infinite or at most 0; "
                                                       "drop --logy)"
                                                     : " (every one is missing or infinite)"));
}

PlotData read_data(const PlotArgs& args) {
  if (args.heatmap && args.by.empty()) throw SweepError("--heatmap", "", "needs --by: the heat map's second axis");
  if (!(args.confidence > 0 && args.confidence < 1)) throw SweepError("--confidence", "", "must be between 0 and 1");
  const RowFile file = read_rows(args.results);
  if (!file.has_columns) throw SweepError(args.results, "", "has no rows");
  PlotData data = gather(file, {args.x, args.y, args.by, args.where, args.confidence});
  check_size(args, data);
  check_drawable(args, data);
  return data;
}

// gnuplot draws in the work folder; only complete pictures are written to
// the outputs, through write_atomically like every result file.
int draw(const FigureScript& script, const std::string& gnuplot, const std::string& png, const std::string& svg) {
  const common::TempDir work = work_folder();
  write_atomically(work.file("plot.gp"), script("plot.png", "plot.svg"));
  const int status = run_gnuplot(gnuplot, work.path());
  if (common::stop_signal_noted()) return -1;
  if (status == 127) {  // found before the runs, gone since
    std::cerr << "clerk: gnuplot could not be started: " << kInstallGnuplot << "\n";
    return 2;
  }
  if (status < 0) {  // killed (the out-of-memory killer, a user): the machine's doing, not the script's
    std::cerr << "clerk: gnuplot was stopped before it drew the figure\n";
    return 2;
  }
  if (status != 0 || !fs::exists(work.file("plot.png")) || !fs::exists(work.file("plot.svg"))) {
    // clerk's script is made to draw any data it is given (missing points
    // and all): gnuplot refusing it is a bug in clerk.
    std::cerr << "clerk: internal error: gnuplot could not draw clerk's figure (exit status " << status
              << "); please report this bug with the command line\n";
    return 3;
  }
  const std::string png_bytes = read_limited(work.file("plot.png")), svg_bytes = read_limited(work.file("plot.svg"));
  if (common::stop_signal_noted()) return -1;
  write_atomically(png, png_bytes);
  write_atomically(svg, svg_bytes);
  return 0;
}

int plot(const PlotArgs& args) {
  // The input first (a bad results file is the first thing to say), then the
  // outputs (never the input itself), then gnuplot: all before drawing.
  if (!args.out.empty()) check_figure_prefix(args.out, "-o");
  const PlotData data = read_data(args);
  const std::string prefix = args.out.empty() ? default_prefix(args) : args.out;
  for (const char* ext : {".png", ".svg"}) check_writable(prefix + ext, {args.results});
  check_gnuplot("clerk plot", args.gnuplot);
  const PlotLook look{args.x, args.y, args.by, args.title, args.heatmap, args.log_x, args.log_y, args.confidence};
  return draw_figure([&](const std::string& png, const std::string& svg) { return gnuplot_script(data, look, png, svg); },
                     prefix, args.gnuplot);
}

}  // namespace

// gnuplot draws in the work folder; only complete pictures are written to
// the outputs, through write_atomically like every result file.
int draw_figure(const FigureScript& script, const std::string& prefix, const std::string& gnuplot) {
  const std::string png = prefix + ".png", svg = prefix + ".svg";
  check_writable(png);  // before gnuplot runs
  check_writable(svg);
  int status = 0;
  {
    const common::DeferredStopSignals guard;
    status = draw(script, gnuplot, png, svg);
  }
  if (const int sig = common::take_stop_signal()) {
    std::cerr << "clerk: plot stopped by signal " << sig << "\n";
    raise(sig);  // the handlers are back: ends clerk as the signal would have
    return 128 + sig;
  }
  if (status == 0) std::cerr << "plot: " << png << " and " << svg << "\n";
  return status;
}

void check_gnuplot(const std::string& option, const std::string& gnuplot) {
  if (common::find_program(program_path(gnuplot)).empty())
    throw SweepError(option, "", std::string("needs gnuplot to draw: ") + kInstallGnuplot);
}

// -o is a prefix: "dir/" or an existing folder would write "dir/.png".
void check_figure_prefix(const std::string& out, const std::string& option) {
  std::error_code ec;
  if (out.empty() || fs::path(out).filename().empty() || fs::is_directory(out, ec))
    throw SweepError(option, "'" + out + "'", "names a folder, not a file: give a name, like " +
                                                (!out.empty() && out.back() == '/' ? out : out + "/") + "plot");
}


int plot_command(const PlotArgs& args) {
  try {
    return plot(args);
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clerk: internal error in plot: " << e.what() << "; please report this bug with the command line\n";
    return 3;
  }
}

}  // namespace cli::sweep
