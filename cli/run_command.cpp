#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/engine_choice.h"
#include "cli/option_checks.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "engines/run_scenario.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/limits.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/report.h"
#include "models/scenario/result_json.h"

namespace cli {

namespace {

// The files a run reads: those the loader lists (the scenario, every file
// it includes, each replayed access log) and --hardware.
std::vector<std::string> run_inputs(const RunArgs& args, const models::Scenario& sc) {
  std::vector<std::string> files = sc.files;
  files.push_back(models::hardware_profile_file(args.hardware));
  return files;
}

}  // namespace

int run_command(const RunArgs& args) {
  models::Scenario sc;
  try {
    sc = models::load_scenario(args.file, args.overrides, args.hardware);
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
  if (!args.json_path.empty()) {  // before the run, not after it
    common::check_output_path(args.json_path);
    common::check_not_an_input(args.json_path, run_inputs(args, sc));
  }
  const std::uint64_t seed = args.seed.value_or(sc.seed);
  const double duration = models::limits::check_run_duration(args.duration_s.value_or(sc.duration_s), "--duration");
  models::check_fits_machine(sc, duration, args.file);  // throws ConfigError: exit 2 (common::guarded)
  const std::vector<std::string> cannot = engines::cannot_run(sc, args.engine);
  if (!cannot.empty()) {
    std::cerr << "clerk: " << common::shown_text(args.file) << ": the " << engines::engine_name(args.engine)
              << " engine cannot run this scenario:\n";
    for (const std::string& why : cannot) std::cerr << "  - " << common::shown_text(why) << "\n";
    return 2;
  }
  const models::RunResult result = engines::run_scenario(sc, {seed, duration, args.engine, {}});
  const double wall = result.wall_s;
  if (!args.json_path.empty())
    common::write_file_atomically(args.json_path, common::json_text(models::to_json(result, !args.no_timing), 2) + "\n");
  // Group and scenario names are the file's (any character the loader
  // takes, ESC and U+202E too): the report is shown escaped, lines kept.
  if (!args.quiet) std::cout << common::shown_lines(models::text_report(result));
  if (!args.no_timing)
    std::cerr << fmt::format("clerk: {:g} s simulated in {:.3f} s wall, {} events\n", result.duration_s, wall,
                             result.events);
  return 0;
}

void add_run_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<RunArgs>();
  RunArgs& a = *args;
  CLI::App* cmd = clerk.add_subcommand("run", "Run one scenario and print wrk's, ifstat's and top's view of it");
  cmd->add_option("file", a.file, "scenario file (TOML)")->required();
  cmd->add_option("--seed", a.seed, "random seed (default: the scenario's)")->check(seed_check());
  cmd->add_option("--duration", a.duration_s, "simulated seconds (default: the scenario's)")->check(duration_check());
  cmd->add_option("--set", a.overrides, "override a scenario key: --set nginx.aio=threads (repeatable)");
  cmd->add_option("--hardware", a.hardware, "a hardware profile to use in place of the one the scenario includes: a file, or a preset by name "
                  "(local, edge-sata-ssd, ...)")
      ->check(file_name_check());
  cmd->add_option("--json", a.json_path, "also write the figures as JSON to this file")->check(file_name_check());
  cmd->add_flag("--no-timing", a.no_timing, "leave wall-clock figures out, so output depends only on the inputs");
  cmd->add_flag("-q,--quiet", a.quiet, "print no report");
  add_engine_option(cmd, a.engine);
  commands.add(cmd, [args] { return run_command(*args); });
}

}  // namespace cli
