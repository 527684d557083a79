#include "cli/command.h"

namespace cli {

void Commands::add(CLI::App* subcommand, std::function<int()> run) { entries_.push_back({subcommand, std::move(run)}); }

int Commands::run_chosen() const {
  for (const Entry& e : entries_)
    if (e.subcommand->parsed()) return e.run();
  return 2;
}

}  // namespace cli
