// How a subcommand of clerk is registered: the one shape every subcommand
// has. Each lives in a file of its own in cli/ with a registration function
//
//   void add_NAME_command(CLI::App& clerk, Commands& commands);
//
// that adds its subcommand to clerk's CLI11 app, binds the options to
// arguments its runner owns (a std::shared_ptr captured by the runner),
// and hands the runner to `commands`. A new subcommand is that file, its
// declaration in cli/commands.h and one row in main.cpp's kSubcommands.
// The runner returns the exit status (cli/commands.h); what it throws,
// common::guarded turns into one.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace cli {

class Commands {
 public:
  // `subcommand` (as add_subcommand returned it) runs `run` when the command
  // line chose it. A subcommand with subcommands of its own (sweep merge)
  // registers once and tells them apart in its runner.
  void add(CLI::App* subcommand, std::function<int()> run);
  // The chosen subcommand's exit status; 2 when none was chosen.
  int run_chosen() const;

 private:
  struct Entry {
    CLI::App* subcommand;
    std::function<int()> run;
  };
  std::vector<Entry> entries_;
};

using Registration = void (*)(CLI::App& clerk, Commands& commands);

}  // namespace cli
