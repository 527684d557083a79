#include "testbed/realrun/realrun_cli.h"

#include <iostream>

namespace testbed {

struct RealrunCli::Options {};

RealrunCli::RealrunCli(CLI::App& app) : options_(std::make_unique<Options>()) {
  cmd_ = app.add_subcommand("realrun", "(not built yet)");
}
RealrunCli::~RealrunCli() = default;
bool RealrunCli::chosen() const { return cmd_->parsed(); }
int RealrunCli::run() {
  std::cerr << "clerk realrun: not built yet\n";
  return 1;
}

}  // namespace testbed
