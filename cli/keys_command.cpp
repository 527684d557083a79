#include "cli/keys_command.h"
#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/shown_text.h"
#include "models/scenario/key_reference.h"

namespace cli {

namespace {

std::vector<std::string> dotted_parts(const std::string& dotted) {
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t dot = dotted.find('.', at);
    parts.push_back(dotted.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
    if (dot == std::string::npos) return parts;
    at = dot + 1;
  }
}

// The reference's tables, in its order ("" for the top level left out).
std::vector<std::string> tables_of(const models::KeyReference& ref) {
  std::vector<std::string> tables;
  for (const models::KeyEntry& e : ref.entries)
    if (!e.use.table.empty() && std::find(tables.begin(), tables.end(), e.use.table) == tables.end())
      tables.push_back(e.use.table);
  return tables;
}

// The reference's table that a scenario's table is one of: "clients.hot" is
// a [clients.NAME], "clients.hot.rtt" a [clients.NAME.rtt], and a
// [disks.NAME] has [disk]'s keys ("disks.d0.member" those of
// [disk.member]), as the loader checks them. "" when none.
std::string pattern_of(const models::KeyReference& ref, const std::string& table) {
  std::vector<std::string> parts = dotted_parts(table);
  if (parts.size() >= 2 && parts[0] == "disks" && !parts[1].empty()) {
    parts.erase(parts.begin());
    parts[0] = "disk";
  }
  for (const std::string& t : tables_of(ref)) {
    const std::vector<std::string> want = dotted_parts(t);
    if (want.size() != parts.size()) continue;
    bool same = true;
    for (std::size_t i = 0; same && i < want.size(); ++i)
      same = want[i] == parts[i] || (want[i] == "NAME" && !parts[i].empty());
    if (same) return t;
  }
  return "";
}

}  // namespace

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
  if (models::key_reference_text(ref, args.table, out)) {
    std::cout << out;
    return 0;
  }
  // A table as a scenario names it ("clients.hot"): the reference's table
  // of that kind, said so in a first line (probe 6: "no table").
  if (const std::string pattern = pattern_of(ref, args.table);
      !pattern.empty() && models::key_reference_text(ref, pattern, out)) {
    std::cout << "[" << common::shown_text(args.table) << "] takes the keys of [" << pattern << "]:\n" << out;
    return 0;
  }
  std::cerr << "clerk keys: no table '" << common::shown_text(args.table) << "'; the tables are: top";
  for (const std::string& t : tables_of(ref)) std::cerr << ", " << t;
  std::cerr << "\n";
  return 2;
}

void add_keys_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<KeysArgs>();
  CLI::App* cmd = clerk.add_subcommand("keys", "List every scenario key: type, range, default, unit, what it models");
  cmd->add_option("table", args->table, "one table, like nginx, disk or clients.NAME ('top' for the top level)");
  cmd->add_flag("--markdown", args->markdown, "print the whole reference as Markdown (docs/scenario-keys.md)");
  commands.add(cmd, [args] { return keys_command(*args); });
}

}  // namespace cli
