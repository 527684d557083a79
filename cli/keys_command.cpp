#include "cli/keys_command.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "models/scenario/key_reference.h"

namespace cli {

KeysCli::KeysCli(CLI::App& app) {
  command_ = app.add_subcommand("keys", "List every scenario key: type, range, default, unit, what it models");
  command_->add_option("table", table_, "one table, like nginx, disk or clients.NAME ('top' for the top level)");
  command_->add_flag("--markdown", markdown_, "print the whole reference as Markdown (docs/scenario-keys.md)");
}

int KeysCli::run() const {
  const models::KeyReference ref = models::build_key_reference();
  if (!ref.problems.empty()) {
    // The loader and its documentation disagree: a defect of clerk, not of the input.
    for (const std::string& p : ref.problems) std::cerr << "clerk keys: " << p << "\n";
    return 3;
  }
  if (markdown_) {
    if (!table_.empty()) {
      std::cerr << "clerk keys: --markdown prints every table; leave out '" << table_ << "'\n";
      return 2;
    }
    std::cout << models::key_reference_markdown(ref);
    return 0;
  }
  std::string out;
  if (!models::key_reference_text(ref, table_, out)) {
    std::cerr << "clerk keys: no table '" << table_ << "'; the tables are: top";
    std::vector<std::string> tables;
    for (const models::KeyEntry& e : ref.entries)
      if (!e.use.table.empty() && std::find(tables.begin(), tables.end(), e.use.table) == tables.end())
        tables.push_back(e.use.table);
    for (const std::string& t : tables) std::cerr << ", " << t;
    std::cerr << "\n";
    return 2;
  }
  std::cout << out;
  return 0;
}

}  // namespace cli
