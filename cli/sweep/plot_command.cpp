#include "cli/sweep/plot_command.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <csignal>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string_view>
#include <sys/wait.h>
#include <vector>

#include "cli/sweep/plot_data.h"
#include "cli/sweep/plot_script.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"
#include "cli/sweep/sweep_spec.h"
#include "common/child_process.h"
#include "common/shown_text.h"
#include "common/stale_state.h"
#include "common/stop_signals.h"
#include "common/stoppable_child.h"
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
// removed with everything in it when the plot ends, however it ends but
// SIGKILL (the out-of-memory killer, `timeout -s KILL`, a batch scheduler),
// which runs no destructor. So its name holds clerk's pid,
// clerk-plot-<pid>-XXXXXX, and each plot first removes the folders of this
// user's plots whose clerk is gone, as realrun does its run folders
// (common/stale_state.h: a live concurrent plot's folder, and a name other
// than exactly clerk-plot-<pid>-XXXXXX, are never touched). gnuplot itself
// dies with clerk (common::SpawnSpec::die_with_parent), so no process is
// killed: one whose command line names a stale folder is the user's own (a
// tail -f on gnuplot's leftovers), and the folder goes without it.
common::TempDir work_folder() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  common::StaleScan stale{"clerk-plot-", {}, {base.string()}};
  stale.only_ours = true;
  stale.kill_processes = false;
  for (const std::string& line : common::remove_stale_state(stale)) std::cerr << "clerk: " << line << "\n";
  try {
    return common::TempDir((base / (common::own_state_name("clerk-plot") + "-")).string());
  } catch (const std::runtime_error& e) {
    throw SweepError("clerk plot", "", e.what());
  }
}

// SIGINT, SIGTERM and SIGHUP (a closed terminal), while a plot is drawn, are
// noted instead of ending clerk at once (common/stop_signals.h): gnuplot (in
// its own process group, which a terminal's hangup does not reach) is stopped
// and reaped and the work folder removed first; then the signal ends clerk as
// it would have.

// SIGPIPE is ignored while a plot is drawn: gnuplot's words go to clerk's
// standard error, and a closed pipe there (clerk plot ... 2>&1 | head -1)
// ended clerk at once, its work folder left behind. Ignored, the write
// fails (EPIPE, a lost message like any other) and the drawing goes on to
// its end and removes the folder; the old disposition is put back after.
// gnuplot itself starts with the default (common::ChildProcess resets it).
class IgnoredSigpipe {
 public:
  IgnoredSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &old_);
  }
  ~IgnoredSigpipe() { ::sigaction(SIGPIPE, &old_, nullptr); }
  IgnoredSigpipe(const IgnoredSigpipe&) = delete;
  IgnoredSigpipe& operator=(const IgnoredSigpipe&) = delete;

 private:
  struct sigaction old_ {};
};

constexpr const char* kInstallGnuplot =
    "gnuplot is not installed or not in PATH (Debian: gnuplot-nox; scripts/setup installs it)";

// A program named by a relative path is found from clerk's folder, not gnuplot's.
std::string program_path(const std::string& program) {
  if (program.find('/') == std::string::npos) return program;
  std::error_code ec;
  const fs::path abs = fs::absolute(program, ec);
  return ec ? program : abs.string();
}

// How a gnuplot run ended.
struct GnuplotRun {
  int status = 0;     // its exit status; 127 when it could not be started; -1 when stopped
  int signal = 0;     // the signal that ended it, if one did
  std::string said;   // its stdout and stderr
  std::string error;  // why it could not be started (fork, its output file), if so
};

// What gnuplot said, at most 64 KiB of it.
std::string read_said(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(64 * 1024, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// Runs gnuplot on plot.gp in `folder` (no shell in between), in its own
// process group (a terminal's ^C reaches clerk, which stops it), its words
// kept in the folder's gnuplot.out (to tell the machine's failures from the
// script's, and shown to the user all the same).
GnuplotRun run_gnuplot(const std::string& program, const common::TempDir& folder) {
  GnuplotRun run;
  const std::string path = common::find_program(program_path(program));
  if (path.empty()) return {127, 0, {}, {}};
  common::SpawnSpec spec;
  spec.argv = {path, "plot.gp"};
  spec.output = folder.file("gnuplot.out");
  spec.cwd = folder.path();
  spec.who = "clerk plot";
  spec.die_with_parent = true;  // (the default) SIGKILL when clerk dies, even by SIGKILL: no orphaned gnuplot
  std::optional<common::ChildProcess> gnuplot;
  try {
    gnuplot.emplace(common::ChildProcess::spawn(spec));
  } catch (const common::ProcessError& e) {  // fork failed, or gnuplot.out could not be made
    return {-1, 0, {}, e.what()};
  }
  if (!common::wait_unless_stopped(*gnuplot, SIGTERM, 5)) return {-1, 0, {}, {}};
  const common::ChildExit& end = *gnuplot->exit();
  run.said = read_said(spec.output);
  if (end.lost) {
    run.status = -1;
  } else if (WIFSIGNALED(end.status)) {
    run.status = -1;
    run.signal = WTERMSIG(end.status);
  } else {
    run.status = WEXITSTATUS(end.status);
  }
  return run;
}

// Whether a picture gnuplot wrote is whole: a PNG ends with its IEND chunk
// (the PNG specification, 11.2.5), gnuplot's SVG with "</svg>".
bool picture_whole(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".png") == 0) {
    static const std::string iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    return bytes.size() >= iend.size() && bytes.compare(bytes.size() - iend.size(), iend.size(), iend) == 0;
  }
  const std::size_t end = bytes.find_last_not_of(" \t\r\n");
  return end != std::string::npos && end >= 5 && bytes.compare(end - 5, 6, "</svg>") == 0;
}

// Whether a small file can still be written in `folder` ("" when it can,
// else why not): a disk that is full or read-only, a quota reached.
std::string folder_write_problem(const common::TempDir& folder) {
  const std::string probe = folder.file("probe");
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) return std::strerror(errno);
  const std::string bytes(4096, 'x');
  errno = 0;
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  std::remove(probe.c_str());
  if (written && closed) return {};
  return err ? std::strerror(err) : "the write failed";
}

}  // namespace

std::string gnuplot_machine_failure(int exit_status, std::string_view said, bool pictures_whole) {
  // gnuplot's os_error() (util.c) ends the error of a failed system call
  // (an output it cannot open, a font it cannot read) with perror's
  // "system error: <what the OS said>"; gp_alloc() (alloc.c) says
  // "out of memory for ..." (its int_error). Either ends gnuplot with
  // status 1, as a script error does: its words tell them apart.
  if (said.find("system error:") != std::string_view::npos)
    return "a system call failed in gnuplot (its words above)";
  if (said.find("out of memory") != std::string_view::npos) return "gnuplot ran out of memory (its words above)";
  // gnuplot does not check its writes: on a full disk or past a file size
  // limit it ends with status 0 and pictures cut short.
  if (exit_status == 0 && !pictures_whole)
    return "gnuplot ended without an error but its pictures are cut short: the temporary folder's disk is full or "
           "a file size limit was reached (gnuplot does not check its writes)";
  return {};
}

namespace {

// A heat map has x values times --by values cells (gather caps the lines).
constexpr std::size_t kMaxHeatmapCells = 1'000'000;

void check_size(const PlotArgs& args, const PlotData& data) {
  if (args.heatmap && data.series.size() * data.x_labels.size() > kMaxHeatmapCells)
    throw SweepError("--heatmap", "", "would have " + std::to_string(data.series.size() * data.x_labels.size()) +
                                          " cells, more than " + std::to_string(kMaxHeatmapCells));
}

// A value beyond kMaxDrawn (plot_script.h), which gnuplot cannot scale, is
// refused naming the option and the value.
void check_magnitude(double v, const std::string& option, const std::string& name, const std::string& results) {
  if (std::isfinite(v) && std::fabs(v) > kMaxDrawn)
    throw SweepError(option, "'" + name + "'",
                     fmt::format("has the value {} in {}, beyond +-{}, the largest gnuplot can place on an axis", v,
                                 common::shown_text(results), kMaxDrawn));
}

PlotLook look_of(const PlotArgs& a) {
  return {a.x, a.y, a.by, a.title, a.heatmap, a.log_x, a.log_y, a.confidence};
}

// A figure gnuplot cannot draw is refused before it runs, naming the
// option: a value it cannot scale, no x above 0 on a logarithmic x axis,
// no mean to draw (every one missing or infinite, or none above 0 on a
// logarithmic y axis).
void check_drawable(const PlotArgs& args, const PlotData& data) {
  if (data.x_numeric && !args.heatmap)
    for (std::size_t i = 0; i < data.x_values.size(); ++i) check_magnitude(data.x_values[i], "--x", args.x, args.results);
  for (const PlotSeries& series : data.series)
    for (const PlotCell& c : series.cells)
      for (double v : {c.y.mean, c.y.low, c.y.high}) check_magnitude(v, "--y", args.y, args.results);
  if (args.log_x && data.x_numeric && !args.heatmap &&
      std::none_of(data.x_values.begin(), data.x_values.end(), [](double x) { return std::isfinite(x) && x > 0; }))
    throw SweepError("--logx", "", "no value of " + common::shown_text(args.x) + " in " + common::shown_text(args.results) +
                                       " is above 0, and a logarithmic axis shows only those (drop --logx)");
  if (has_drawable_point(data, look_of(args))) return;
  throw SweepError(args.results, "", "has no value of " + common::shown_text(args.y) + " to draw" +
                                         (args.log_y ? " on a logarithmic axis (every one is missing, infinite or at most 0; "
                                                       "drop --logy)"
                                                     : " (every one is missing or infinite)"));
}

PlotData read_data(const PlotArgs& args) {
  if (args.heatmap && args.by.empty()) throw SweepError("--heatmap", "", "needs --by: the heat map's second axis");
  check_confidence(args.confidence, "--confidence");
  const RowFile file = read_rows(args.results);
  if (!file.has_columns) throw SweepError(args.results, "", "has no rows");
  PlotData data = gather(file, {args.x, args.y, args.by, args.where, args.confidence});
  check_size(args, data);
  check_drawable(args, data);
  return data;
}

// gnuplot draws in the work folder; only complete pictures are written to
// the outputs, through write_atomically like every result file. Exit 2 for
// the machine's failures (gnuplot gone, killed, out of memory, a file it
// could not write), 3 for gnuplot refusing clerk's script.
int draw(const FigureScript& script, const std::string& gnuplot, const std::string& png, const std::string& svg,
         common::OutputSet with) {
  const common::TempDir work = work_folder();
  write_atomically(work.file("plot.gp"), script("plot.png", "plot.svg"));
  const GnuplotRun run = run_gnuplot(gnuplot, work);
  if (common::stop_signal_noted()) return -1;
  std::cerr << run.said;  // gnuplot's own words reach the user
  if (run.status == 127) {  // found before the runs, gone since
    std::cerr << "clerk: gnuplot could not be started: " << kInstallGnuplot << "\n";
    return 2;
  }
  if (!run.error.empty()) {
    std::cerr << "clerk: gnuplot could not be started: " << run.error << "\n";
    return 2;
  }
  if (run.status < 0) {  // killed (the out-of-memory killer, a user): the machine's doing, not the script's
    std::cerr << "clerk: gnuplot was stopped"
              << (run.signal ? " by signal " + std::to_string(run.signal) + " (" + ::strsignal(run.signal) + ")" : "")
              << " before it drew the figure\n";
    return 2;
  }
  const bool whole = picture_whole(work.file("plot.png")) && picture_whole(work.file("plot.svg"));
  if (run.status == 0 && whole) {
    std::string png_bytes = read_limited(work.file("plot.png")), svg_bytes = read_limited(work.file("plot.svg"));
    if (common::stop_signal_noted()) return -1;
    with.add(png, std::move(png_bytes));
    with.add(svg, std::move(svg_bytes));
    write_together(with);  // both pictures and the command's other outputs, or none
    return 0;
  }
  std::string why = gnuplot_machine_failure(run.status, run.said, whole);
  // Nothing in its words: a folder gnuplot could not write in is the
  // machine's doing all the same.
  if (const std::string full = why.empty() ? folder_write_problem(work) : std::string(); !full.empty())
    why = "the temporary folder " + work.path() + " cannot be written (" + full + ")";
  if (!why.empty()) {
    std::cerr << "clerk: gnuplot could not draw the figure: " << why << "\n";
    return 2;
  }
  // clerk's script is made to draw any data it is given (missing points
  // and all): gnuplot refusing it is a bug in clerk.
  std::cerr << "clerk: internal error: gnuplot could not draw clerk's figure (exit status " << run.status
            << "); please report this bug with the command line\n";
  return 3;
}

int plot(const PlotArgs& args) {
  // The input first (a bad results file is the first thing to say), then the
  // outputs (never the input itself), then gnuplot: all before drawing.
  if (!args.out.empty()) check_figure_prefix(args.out, "-o");
  const PlotData data = read_data(args);
  const std::string prefix = args.out.empty() ? default_prefix(args) : args.out;
  for (const char* ext : {".png", ".svg"}) check_writable(prefix + ext, {args.results});
  check_gnuplot("clerk plot", args.gnuplot);
  const PlotLook look = look_of(args);
  return draw_figure([&](const std::string& png, const std::string& svg) { return gnuplot_script(data, look, png, svg); },
                     prefix, args.gnuplot);
}

}  // namespace

// gnuplot draws in the work folder; only complete pictures are written to
// the outputs, through write_atomically like every result file.
int draw_figure(const FigureScript& script, const std::string& prefix, const std::string& gnuplot,
                common::OutputSet with) {
  const std::string png = prefix + ".png", svg = prefix + ".svg";
  check_writable(png);  // before gnuplot runs
  check_writable(svg);
  int status = 0;
  std::exception_ptr failure;  // said only if no stop signal came: a write stopped by one throws
  {
    const IgnoredSigpipe no_sigpipe;
    const common::DeferredStopSignals guard;
    try {
      status = draw(script, gnuplot, png, svg, std::move(with));
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (const int sig = common::take_stop_signal()) {
    std::cerr << "clerk: plot stopped by signal " << sig << "\n";
    raise(sig);  // the handlers are back: ends clerk as the signal would have
    return 128 + sig;
  }
  if (failure) std::rethrow_exception(failure);
  if (status == 0) std::cerr << "plot: " << common::shown_text(png) << " and " << common::shown_text(svg) << "\n";
  return status;
}

void check_gnuplot(const std::string& option, const std::string& gnuplot) {
  if (common::find_program(program_path(gnuplot)).empty())
    throw SweepError(option, "", std::string("needs gnuplot to draw: ") + kInstallGnuplot);
}

// -o is a prefix: "dir/" or an existing folder would write "dir/.png".
namespace {

// Whether PREFIX's folder is /dev, the devices' folder, once its links are
// resolved: a figure's files are never meant to be created there.
bool in_devices_folder(const std::string& prefix) {
  std::error_code ec;
  const fs::path folder = fs::path(prefix).parent_path();
  const fs::path real = fs::weakly_canonical(fs::absolute(folder.empty() ? fs::path(".") : folder, ec), ec);
  return !ec && real == "/dev";
}

}  // namespace

void check_figure_prefix(const std::string& out, const std::string& option) {
  std::error_code ec;
  if (out.empty() || fs::path(out).filename().empty() || fs::is_directory(out, ec))
    throw SweepError(option, "'" + out + "'", "names a folder, not a file: give a name, like " +
                                                common::shown_text(!out.empty() && out.back() == '/' ? out : out + "/") +
                                                "plot");
  // The figure is two files named after the prefix, OUT.png and OUT.svg
  // (README), never OUT itself: a prefix that is a special file (--figure
  // /dev/stdout, a pipe or a terminal) or is in /dev had them created in
  // /dev (as root: /dev/stdout.png), never where the user meant.
  const fs::file_status st = fs::status(out, ec);
  const bool special = !ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
  const std::string files = "(" + common::shown_text(out + ".png") + " and .svg)";
  if (special)
    throw SweepError(option, "'" + out + "'",
                     "is a special file (a device, a pipe or a terminal): the figure is not written into it but to two "
                     "files named after it " + files + ": give a file name, like ./figure");
  if (in_devices_folder(out))
    throw SweepError(option, "'" + out + "'",
                     "is in /dev: the figure's two files " + files +
                         " are never created among the devices: give a name in another folder, like ./figure");
}


int plot_command(const PlotArgs& args) {
  try {
    return plot(args);
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clerk: internal error in plot: " << common::shown_lines(e.what()) << "; please report this bug with the command line\n";
    return 3;
  }
}

}  // namespace cli::sweep
