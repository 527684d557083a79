// `clerk realrun`: registers its subcommand on clerk's command line and runs it.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>

namespace testbed {

class RealrunCli {
 public:
  explicit RealrunCli(CLI::App& app);
  ~RealrunCli();
  bool chosen() const;
  int run();  // exit status: 0 ok, 1 failed, 2 bad input

 private:
  struct Options;
  CLI::App* cmd_ = nullptr;
  std::unique_ptr<Options> options_;
};

}  // namespace testbed
