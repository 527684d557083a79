// The command-line faces of sweeps: `clerk sweep`, `clerk sweep merge` and
// `clerk plot`, registered on clerk's CLI11 app by main.cpp.
#pragma once
#include <CLI/CLI.hpp>

#include "cli/sweep/plot_command.h"
#include "cli/sweep/sweep_command.h"

namespace cli::sweep {

class SweepCli {
 public:
  explicit SweepCli(CLI::App& app);
  // True when the parsed command line chose one of these subcommands.
  bool chosen() const;
  int run() const;

 private:
  SweepArgs sweep_;
  MergeArgs merge_;
  PlotArgs plot_;
  CLI::App* sweep_cmd_ = nullptr;
  CLI::App* merge_cmd_ = nullptr;
  CLI::App* plot_cmd_ = nullptr;
};

}  // namespace cli::sweep
