// `clerk calibrate`'s command line; the measurements are testbed/calibrate's.
#include <memory>

#include "cli/commands.h"
#include "testbed/calibrate/calibrate_command.h"

namespace cli {

void add_calibrate_command(CLI::App& clerk, Commands& commands) {
  auto request = std::make_shared<testbed::CalibrateRequest>();
  testbed::CalibrateRequest& o = *request;
  CLI::App* cmd = clerk.add_subcommand(
      "calibrate", "Measure this machine (nginx + wrk CPU costs, loopback, fio on the data disk) into a hardware profile");
  cmd->add_option("--out", o.out, "profile to write (relative to the current directory)")->capture_default_str();
  cmd->add_option("--data", o.data, "directory on the data disk for fio's test file")->capture_default_str();
  cmd->add_flag("--quick", o.quick, "short measurements (about a minute in all), as CI runs it");
  cmd->add_flag("--keep", o.keep, "keep fio's test file in --data for the next run");
  cmd->add_flag("--pacing", o.pacing,
                "only measure what TCP's own pacing costs on loopback (cubic against bbr, per socket), print it, "
                "write nothing; the machine must be quiet");
  commands.add(cmd, [request] { return testbed::calibrate_command(*request); });
}

}  // namespace cli
