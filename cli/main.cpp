// clerk: a simulator of event-loop blocking in NGINX-style servers.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "models/scenario/config_error.h"
#include "cli/engine_choice.h"
#include "cli/keys_command.h"
#include "cli/new_command.h"
#include "cli/sweep/sweep_cli.h"
#include "testbed/calibrate/calibrate_cli.h"
#include "testbed/realrun/realrun_cli.h"

int main(int argc, char** argv) {
  cli::choose_engines(argc, argv);  // how this program runs SimGrid (cli/engine_choice.h)
  CLI::App app{"clerk: simulate NGINX workers, disks, page cache, thread pools, NIC and wrk clients"};
  app.require_subcommand(1);

  cli::RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "Run one scenario and print wrk's, ifstat's and top's view of it");
  run_cmd->add_option("file", run.file, "scenario file (TOML)")->required();
  run_cmd->add_option("--seed", run.seed, "random seed (default: the scenario's)")->check(cli::seed_check());
  run_cmd->add_option("--duration", run.duration_s, "simulated seconds (default: the scenario's)")->check(cli::duration_check());
  run_cmd->add_option("--set", run.overrides, "override a scenario key: --set nginx.aio=threads (repeatable)");
  run_cmd->add_option("--hardware", run.hardware, "a hardware profile to use in place of the one the scenario includes");
  run_cmd->add_option("--json", run.json_path, "also write the figures as JSON to this file")->check(cli::file_name_check());
  run_cmd->add_flag("--no-timing", run.no_timing, "leave wall-clock figures out, so output depends only on the inputs");
  run_cmd->add_flag("-q,--quiet", run.quiet, "print no report");
  cli::add_engine_option(run_cmd, run.engine);

  cli::ValidateArgs validate;
  auto* validate_cmd = app.add_subcommand("validate", "Run every scenario with an [expect] table against its documented figures");
  validate_cmd->add_option("files", validate.files, "scenario files (default: all under scenarios/)");
  validate_cmd->add_option("--scenarios", validate.scenarios_dir, "folder to search for scenarios");
  validate_cmd->add_option("--json", validate.json_path, "write the comparison as JSON to this file")
      ->check(cli::file_name_check());
  cli::add_engine_option(validate_cmd, validate.engine);

  cli::CompareArgs compare;
  auto* compare_cmd = app.add_subcommand("compare", "Run scenarios and print their main figures side by side");
  compare_cmd->add_option("files", compare.files, "scenario files")->required();
  compare_cmd->add_option("--seed", compare.seed, "random seed for every scenario")->check(cli::seed_check());
  compare_cmd->add_option("--duration", compare.duration_s, "simulated seconds")->check(cli::duration_check());

  cli::sweep::SweepCli sweeps(app);  // `sweep`, `sweep merge` and `plot`
  testbed::RealrunCli realrun(app);      // `realrun`: a real server and real wrk beside the prediction
  testbed::CalibrateCli calibrate(app);  // `calibrate`: measure this machine into a hardware profile
  cli::KeysCli keys(app);                // `keys`: the scenario key reference
  cli::NewCli new_scenario(app);         // `new`: a starter scenario

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  const int status = cli::guarded([&] {
    if (*run_cmd) return cli::run_command(run);
    if (*validate_cmd) return cli::validate_command(validate);
    if (*compare_cmd) return cli::compare_command(compare);
    if (sweeps.chosen()) return sweeps.run();
    if (realrun.chosen()) return realrun.run();
    if (calibrate.chosen()) return calibrate.run();
    if (keys.chosen()) return keys.run();
    if (new_scenario.chosen()) return new_scenario.run();
    return 2;
  });
  return cli::flush_standard_output(status);
}
