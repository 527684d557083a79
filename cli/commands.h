// The clerk command's subcommands, each registered by its add_*_command
// (the shape is in cli/command.h; main.cpp lists them), and the commands
// that run them. Each returns the process exit status:
// 0 success, 1 a figure outside its tolerance, 2 bad input (a ConfigError:
// the file, line and key; an option out of range; a run that would not fit
// the machine), 3 an internal error (common::guarded in common/guarded.h asks
// for a bug report).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
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
void add_run_command(CLI::App& clerk, Commands& commands);

struct ValidateArgs {
  std::vector<std::string> files;  // empty: every scenario with [expect] under the scenarios folder
  std::string scenarios_dir;
  std::string json_path;
  engines::Engine engine = engines::Engine::kNative;
};
int validate_command(const ValidateArgs& args);
void add_validate_command(CLI::App& clerk, Commands& commands);

struct CompareArgs {
  std::vector<std::string> files;
  std::optional<std::uint64_t> seed;  // empty: the first scenario's, for every one
  std::optional<double> duration_s;
  std::vector<std::string> overrides;
  std::string json_path;
  std::string figure;                 // PREFIX: PREFIX.png and PREFIX.svg
};
int compare_command(const CompareArgs& args);
void add_compare_command(CLI::App& clerk, Commands& commands);

// `sweep`, `sweep merge` and `plot` (cli/sweep/sweep_cli.cpp).
void add_sweep_commands(CLI::App& clerk, Commands& commands);
// `realrun`: real servers and real wrk beside the prediction (testbed/realrun).
void add_realrun_command(CLI::App& clerk, Commands& commands);
// `calibrate`: measure this machine into a hardware profile (testbed/calibrate).
void add_calibrate_command(CLI::App& clerk, Commands& commands);
// `keys`: the scenario key reference (cli/keys_command.h).
void add_keys_command(CLI::App& clerk, Commands& commands);
// `new`: a starter scenario (cli/new_command.h).
void add_new_command(CLI::App& clerk, Commands& commands);
// `import`: a scenario from an nginx.conf (cli/import_command.h).
void add_import_command(CLI::App& clerk, Commands& commands);
// `gen-log`: a sample access log for trace replay (cli/gen_log_command.cpp).
void add_gen_log_command(CLI::App& clerk, Commands& commands);
// `whatif`: common questions answered with sweeps (cli/whatif/).
void add_whatif_command(CLI::App& clerk, Commands& commands);
// `lesson`: a guided lesson in the terminal, its check and its handout (cli/lesson_command.cpp).
void add_lesson_command(CLI::App& clerk, Commands& commands);

}  // namespace cli
