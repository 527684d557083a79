// The clerk command's subcommands. Each returns the process exit status:
// 0 success, 1 a figure outside its tolerance, 2 bad input (a ConfigError:
// the file, line and key; an option out of range; a run that would not fit
// the machine), 3 an internal error (cli::guarded in cli/option_checks.h asks
// for a bug report).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/run_scenario.h"

namespace cli {

struct RunArgs {
  std::string file;
  std::optional<std::uint64_t> seed;
  std::optional<double> duration_s;
  std::vector<std::string> overrides;
  std::string hardware;  // a profile read in place of the one the scenario includes
  std::string json_path;
  bool no_timing = false;
  bool quiet = false;
  engines::Engine engine = engines::Engine::kNative;
};
int run_command(const RunArgs& args);

struct ValidateArgs {
  std::vector<std::string> files;  // empty: every scenario with [expect] under the scenarios folder
  std::string scenarios_dir;
  std::string json_path;
  engines::Engine engine = engines::Engine::kNative;
};
int validate_command(const ValidateArgs& args);

struct CompareArgs {
  std::vector<std::string> files;
  std::optional<std::uint64_t> seed;
  std::optional<double> duration_s;
};
int compare_command(const CompareArgs& args);

}  // namespace cli
