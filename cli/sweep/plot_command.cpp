#include "cli/sweep/plot_command.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <spawn.h>
#include <sys/wait.h>
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

// Runs gnuplot on a script file (no shell in between); returns its exit status.
int run_gnuplot(const std::string& program, const std::string& script_path) {
  std::vector<char*> argv = {const_cast<char*>(program.c_str()), const_cast<char*>(script_path.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return 127;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int plot_command(const PlotArgs& args) {
  PlotData data;
  try {
    if (args.heatmap && args.by.empty()) throw SweepError("--heatmap", "", "needs --by: the heat map's second axis");
    if (!(args.confidence > 0 && args.confidence < 1)) throw SweepError("--confidence", "", "must be between 0 and 1");
    const RowFile file = read_rows(args.results);
    if (!file.has_columns) throw SweepError(args.results, "", "has no rows");
    data = gather(file, {args.x, args.y, args.by, args.where, args.confidence});
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
  const std::string prefix = args.out.empty() ? default_prefix(args) : args.out;
  const std::string png = prefix + ".png", svg = prefix + ".svg";
  const PlotLook look{args.x, args.y, args.by, args.title, args.heatmap, args.log_x, args.log_y, args.confidence};
  // gnuplot draws into temporary names; only complete pictures are renamed into place.
  const std::string script = prefix + ".gp.tmp";
  try {
    write_atomically(script, gnuplot_script(data, look, png + ".tmp", svg + ".tmp"));
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
  const int status = run_gnuplot(args.gnuplot, script);
  std::error_code ec;
  fs::remove(script, ec);
  if (status != 0 || !fs::exists(png + ".tmp") || !fs::exists(svg + ".tmp")) {
    fs::remove(png + ".tmp", ec);
    fs::remove(svg + ".tmp", ec);
    std::cerr << "clerk: gnuplot failed (exit status " << status << ")"
              << (status == 127 ? ": is gnuplot installed? (Debian: gnuplot-nox; scripts/setup installs it)" : "")
              << "\n";
    return 1;
  }
  fs::rename(png + ".tmp", png, ec);
  if (!ec) fs::rename(svg + ".tmp", svg, ec);
  if (ec) {
    std::cerr << "clerk: cannot write " << prefix << ".png/.svg: " << ec.message() << "\n";
    return 1;
  }
  std::cerr << "plot: " << png << " and " << svg << "\n";
  return 0;
}

}  // namespace cli::sweep
