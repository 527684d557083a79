// `clerk keys [TABLE] [--markdown]`: the scenario key reference
// (models/scenario/key_reference.h), generated from the loader's own
// declarations. --markdown prints docs/scenario-keys.md.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace cli {

class KeysCli {
 public:
  explicit KeysCli(CLI::App& app);
  bool chosen() const { return command_->parsed(); }
  int run() const;

 private:
  CLI::App* command_;
  std::string table_;
  bool markdown_ = false;
};

}  // namespace cli
