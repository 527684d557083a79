#include "cli/sweep/plot_command.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "cli/sweep/plot_data.h"
#include "cli/sweep/plot_script.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"

extern char** environ;

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
class WorkFolder {
 public:
  WorkFolder() {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "clerk-plot-XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (!mkdtemp(name.data()))
      throw SweepError("clerk plot", "", "cannot create a temporary folder in " + base.string() + ": " + std::strerror(errno));
    path_ = name.data();
  }
  ~WorkFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// SIGINT, SIGTERM and SIGHUP (a closed terminal), while a plot is drawn, are
// noted instead of ending clerk at once: gnuplot (in its own process group,
// which a terminal's hangup does not reach) is stopped and reaped and the
// work folder removed first; then the signal ends clerk as it would have.
std::atomic<int> g_signal{0};
extern "C" void note_signal(int sig) { g_signal = sig; }
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kStopCount = std::size(kStopSignals);

class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR
    for (std::size_t i = 0; i < kStopCount; ++i) {
      sigaction(kStopSignals[i], &sa, &old_[i]);
      if (old_[i].sa_handler == SIG_IGN) sigaction(kStopSignals[i], &old_[i], nullptr);  // nohup and background jobs
    }
  }
  ~SignalGuard() {
    for (std::size_t i = 0; i < kStopCount; ++i) sigaction(kStopSignals[i], &old_[i], nullptr);
  }
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

 private:
  struct sigaction old_[kStopCount] {};
};

// Posix spawn attributes and file actions, destroyed when done.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  explicit SpawnSetup(const std::string& folder) {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_setpgroup(&attr, 0);  // its own group: a terminal's ^C reaches clerk, which stops it
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (const int sig : kStopSignals) sigaddset(&defaults, sig);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// A program named by a relative path is found from clerk's folder, not gnuplot's.
std::string program_path(const std::string& program) {
  if (program.find('/') == std::string::npos) return program;
  std::error_code ec;
  const fs::path abs = fs::absolute(program, ec);
  return ec ? program : abs.string();
}

// Stops gnuplot's whole group and reaps it.
void stop(pid_t pid) {
  kill(-pid, SIGTERM);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// Runs gnuplot on plot.gp in `folder` (no shell in between); returns its exit
// status, 127 when it cannot be started, -1 when it died or was stopped.
int run_gnuplot(const std::string& program, const std::string& folder) {
  std::string path = program_path(program);
  std::string script = "plot.gp";
  std::vector<char*> argv = {path.data(), script.data(), nullptr};
  SpawnSetup setup(folder);
  pid_t pid = 0;
  if (posix_spawnp(&pid, path.c_str(), &setup.actions, &setup.attr, argv.data(), environ) != 0) return 127;
  int status = 0;
  for (;;) {
    if (g_signal) {
      stop(pid);
      return -1;
    }
    const pid_t r = waitpid(pid, &status, 0);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A heat map has x values times --by values cells (gather caps the lines).
constexpr std::size_t kMaxHeatmapCells = 1'000'000;

void check_size(const PlotArgs& args, const PlotData& data) {
  if (args.heatmap && data.series.size() * data.x_labels.size() > kMaxHeatmapCells)
    throw SweepError("--heatmap", "", "would have " + std::to_string(data.series.size() * data.x_labels.size()) +
                                          " cells, more than " + std::to_string(kMaxHeatmapCells));
}

// -o is a prefix: "dir/" or an existing folder would write "dir/.png".
void check_prefix(const std::string& out) {
  std::error_code ec;
  if (fs::path(out).filename().empty() || fs::is_directory(out, ec))
    throw SweepError("-o", "'" + out + "'", "names a folder, not a file: give a name, like " +
                                                (out.back() == '/' ? out : out + "/") + "plot");
}

PlotData read_data(const PlotArgs& args) {
  if (args.heatmap && args.by.empty()) throw SweepError("--heatmap", "", "needs --by: the heat map's second axis");
  if (!(args.confidence > 0 && args.confidence < 1)) throw SweepError("--confidence", "", "must be between 0 and 1");
  const RowFile file = read_rows(args.results);
  if (!file.has_columns) throw SweepError(args.results, "", "has no rows");
  PlotData data = gather(file, {args.x, args.y, args.by, args.where, args.confidence});
  check_size(args, data);
  return data;
}

// gnuplot draws in the work folder; only complete pictures are written to
// the outputs, through write_atomically like every result file.
int draw(const PlotArgs& args, const PlotData& data, const std::string& png, const std::string& svg) {
  const PlotLook look{args.x, args.y, args.by, args.title, args.heatmap, args.log_x, args.log_y, args.confidence};
  const WorkFolder work;
  write_atomically(work.file("plot.gp"), gnuplot_script(data, look, "plot.png", "plot.svg"));
  const int status = run_gnuplot(args.gnuplot, work.path());
  if (g_signal) return -1;
  if (status != 0 || !fs::exists(work.file("plot.png")) || !fs::exists(work.file("plot.svg"))) {
    std::cerr << "clerk: gnuplot failed (exit status " << status << ")"
              << (status == 127 ? ": is gnuplot installed? (Debian: gnuplot-nox; scripts/setup installs it)" : "")
              << "\n";
    return 1;
  }
  const std::string png_bytes = read_limited(work.file("plot.png")), svg_bytes = read_limited(work.file("plot.svg"));
  if (g_signal) return -1;
  write_atomically(png, png_bytes);
  write_atomically(svg, svg_bytes);
  return 0;
}

int plot(const PlotArgs& args) {
  if (!args.out.empty()) check_prefix(args.out);
  const PlotData data = read_data(args);
  const std::string prefix = args.out.empty() ? default_prefix(args) : args.out;
  const std::string png = prefix + ".png", svg = prefix + ".svg";
  check_writable(png);  // before gnuplot runs
  check_writable(svg);
  g_signal = 0;
  int status = 0;
  {
    const SignalGuard guard;
    status = draw(args, data, png, svg);
  }
  if (const int sig = g_signal.exchange(0)) {
    std::cerr << "clerk: plot stopped by signal " << sig << "\n";
    raise(sig);  // the handlers are back: ends clerk as the signal would have
    return 128 + sig;
  }
  if (status == 0) std::cerr << "plot: " << png << " and " << svg << "\n";
  return status;
}

}  // namespace

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
