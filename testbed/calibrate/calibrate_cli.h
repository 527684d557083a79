// `clerk calibrate`: registers its subcommand on clerk's command line and runs it.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>

namespace testbed {

class CalibrateCli {
 public:
  explicit CalibrateCli(CLI::App& app);
  ~CalibrateCli();
  bool chosen() const;
  int run();  // exit status: 0 ok, 1 failed, 2 bad input

 private:
  struct Options;
  CLI::App* cmd_ = nullptr;
  std::unique_ptr<Options> options_;
};

}  // namespace testbed
