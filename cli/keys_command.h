// `clerk keys [TABLE] [--markdown]`: the scenario key reference
// (models/scenario/key_reference.h), generated from the loader's own
// declarations. --markdown prints docs/scenario-keys.md.
#pragma once
#include <string>

namespace cli {

struct KeysArgs {
  std::string table;  // empty: every table
  bool markdown = false;
};
int keys_command(const KeysArgs& args);

}  // namespace cli
