// `clerk realrun`'s command line; the runs themselves are testbed/realrun's.
#include <memory>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "common/finite_range.h"
#include "testbed/realrun/realrun_command.h"

namespace cli {

void add_realrun_command(CLI::App& clerk, Commands& commands) {
  auto request = std::make_shared<testbed::RealrunRequest>();
  testbed::RealrunRequest& o = *request;
  CLI::App* cmd = clerk.add_subcommand("realrun",
                                       "Run scenarios for real (nginx or clerk-serve, real wrk, a memory cgroup) and "
                                       "print them beside the simulator's prediction");
  cmd->add_option("files", o.files, "scenario files; with two, also the effect of going from the first to the second")
      ->required();
  cmd->add_option("--server", o.server, "the real server: nginx (Debian's nginx-light), clerk-serve, or both")
      ->check(CLI::IsMember({"nginx", "clerk-serve", "both"}));
  cmd->add_option("--repeat", o.repeat, "real runs per scenario (medians and spreads are over these)")
      ->check(common::whole_range(1u, 100u));
  cmd->add_option("--duration", o.duration_s, "seconds per run (default: the scenario's), from 0.001 to 100000")
      ->check(duration_check());
  cmd->add_option("--hardware", o.hardware,
                  "hardware profile for the prediction, in place of the one the scenario includes (clerk calibrate's)")
      ->check(file_name_check());
  cmd->add_option("--data", o.data_dir, "where the data set is made (reused while it matches)");
  // Port 0 is refused rather than picked: wrk, the NGINX configuration and
  // the busy-port check all need the port before the server starts.
  cmd->add_option("--port", o.port, "loopback port for the server (1-65535; 0 is refused)")->check(common::whole_range(1, 65535));
  cmd->add_option("--json", o.json_path, "also write every run, both sides, as JSON to this file")
      ->check(file_name_check());  // an empty --json was ignored
  cmd->add_option("--set", o.overrides, "override a scenario key for both sides: --set clients.random.connections=8");
  cmd->add_option("--serve-binary", o.serve_binary, "the clerk-serve to run (default: the one built with clerk)");
  cmd->add_option("--disk", o.disk,
                  "real: the data set on this machine's disk (--data); emulated: the scenario's own disk, "
                  "clerk-disk's FUSE mount answering each read in the disk model's time")
      ->check(CLI::IsMember({"real", "emulated"}));
  cmd->add_option("--disk-binary", o.disk_binary, "the clerk-disk to run (default: the one built with clerk)");
  cmd->add_flag("--check", o.check, "exit 1 if a prediction misses its tolerance");
  cmd->add_flag("-v,--verbose", o.verbose, "progress on stderr; keep each run's directory");
  commands.add(cmd, [request] { return testbed::realrun_command(*request); });
}

}  // namespace cli
