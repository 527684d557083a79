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
  // Exit status: 0 ok, 1 a measurement failed or was interrupted, 2 bad
  // input, 3 internal error; every exception is caught here.
  int run();

 private:
  struct Options;
  int run_checked();  // run() without its catch-all
  CLI::App* cmd_ = nullptr;
  std::unique_ptr<Options> options_;
};

}  // namespace testbed
