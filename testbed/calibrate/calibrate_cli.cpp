#include "testbed/calibrate/calibrate_cli.h"

#include <iostream>

namespace testbed {

struct CalibrateCli::Options {};

CalibrateCli::CalibrateCli(CLI::App& app) : options_(std::make_unique<Options>()) {
  cmd_ = app.add_subcommand("calibrate", "(not built yet)");
}
CalibrateCli::~CalibrateCli() = default;
bool CalibrateCli::chosen() const { return cmd_->parsed(); }
int CalibrateCli::run() {
  std::cerr << "clerk calibrate: not built yet\n";
  return 1;
}

}  // namespace testbed
