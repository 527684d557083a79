#include "cli/keys_command.h"
#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include "common/shown_text.h"
#include "models/scenario/key_reference.h"

namespace cli {

int keys_command(const KeysArgs& args) {
  const models::KeyReference ref = models::build_key_reference();
  if (!ref.problems.empty()) {
    // The loader and its documentation disagree: a defect of clerk, not of the input.
    for (const std::string& p : ref.problems) std::cerr << "clerk keys: " << p << "\n";
    return 3;
  }
  if (args.markdown) {
    if (!args.table.empty()) {
      std::cerr << "clerk keys: --markdown prints every table; leave out '" << common::shown_text(args.table) << "'\n";
      return 2;
    }
    std::cout << models::key_reference_markdown(ref);
    return 0;
  }
  std::string out;
  if (!models::key_reference_text(ref, args.table, out)) {
    std::cerr << "clerk keys: no table '" << common::shown_text(args.table) << "'; the tables are: top";
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

void add_keys_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<KeysArgs>();
  CLI::App* cmd = clerk.add_subcommand("keys", "List every scenario key: type, range, default, unit, what it models");
  cmd->add_option("table", args->table, "one table, like nginx, disk or clients.NAME ('top' for the top level)");
  cmd->add_flag("--markdown", args->markdown, "print the whole reference as Markdown (docs/scenario-keys.md)");
  commands.add(cmd, [args] { return keys_command(*args); });
}

}  // namespace cli
