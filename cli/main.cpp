// clerk: a simulator of event-loop blocking in NGINX-style servers.
#include <CLI/CLI.hpp>

#include "common/guarded.h"
#include "common/shown_text.h"
#include "common/standard_output.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/engine_choice.h"

namespace {

// What is said when the report cannot be written (common/standard_output.h).
constexpr const char* kReportLost = "clerk: cannot write the report to standard output";
// The same, after a command that succeeded: it wrote its files before its
// report, so they are there (probe 7: a `clerk new` retried after this was
// told its file exists, with no word that it had been written).
constexpr const char* kReportLostFilesWritten =
    "clerk: cannot write the report to standard output (the files the command writes, if any, are written whole)";

// Every subcommand, in --help's order: one row each (cli/command.h).
constexpr cli::Registration kSubcommands[] = {
    cli::add_run_command,        // run one scenario
    cli::add_validate_command,   // scenarios against their documented figures
    cli::add_compare_command,    // scenarios side by side
    cli::add_sweep_commands,     // sweep, sweep merge, plot
    cli::add_whatif_command,     // common questions as sweeps, with a recommendation
    cli::add_realrun_command,    // a real server and real wrk beside the prediction
    cli::add_calibrate_command,  // measure this machine into a hardware profile
    cli::add_keys_command,       // the scenario key reference
    cli::add_new_command,        // a starter scenario
    cli::add_import_command,     // a scenario from an nginx.conf
    cli::add_gen_log_command,    // a sample access log for trace replay
    cli::add_lesson_command,     // a guided lesson: predict, run, observe, explain
};

}  // namespace

// A reader of standard output that has gone (clerk keys | head -1): clerk
// keeps SIGPIPE's default, the Unix convention (ls | head), and so ends at
// its next write to standard output, quietly (no message; the shell says
// 141), never running on for a reader that left. Each command writes its
// files (--json, figures, a sweep's rows and summary) before its report on
// standard output (tests/output_hostile_test.sh), so they are never lost
// with the report.
int main(int argc, char** argv) {
  cli::choose_engines(argc, argv);  // how this program runs SimGrid (cli/engine_choice.h)
  CLI::App app{"clerk: simulate NGINX workers, disks, page cache, thread pools, NIC and wrk clients"};
  app.require_subcommand(1);
  // CLI11's messages quote the command line ("The following argument was not
  // expected: ARG", a value not in a list or out of range): shown escaped.
  app.failure_message(
      [](const CLI::App* a, const CLI::Error& e) { return common::shown_lines(CLI::FailureMessage::simple(a, e)); });
  cli::Commands commands;
  for (const cli::Registration add : kSubcommands) add(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return common::flush_standard_output(app.exit(e), kReportLost);  // help onto a full disk is no success
  } catch (const CLI::CallForAllHelp& e) {
    return common::flush_standard_output(app.exit(e), kReportLost);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  const int status = common::guarded([&] { return commands.run_chosen(); });
  return common::flush_standard_output(status, status == 0 ? kReportLostFilesWritten : kReportLost);
}
