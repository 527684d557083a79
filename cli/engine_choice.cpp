#include "cli/engine_choice.h"

#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <iterator>
#include <stdexcept>
#include <unistd.h>

#if defined(CLERK_HAVE_SIMGRID) || defined(CLERK_SIMGRID_HELPER)
#include "engines/simgrid/sg_run.h"
#endif
#if defined(CLERK_SIMGRID_HELPER)
#include <exception>
#include <filesystem>
#include <optional>

#include "common/child_process.h"
#include "common/shown_text.h"
#include "common/stoppable_child.h"
#include "common/temp_dir.h"
#include "common/text_file.h"
#endif

namespace cli {

CLI::Option* add_engine_option(CLI::App* command, engines::Engine& engine) {
  std::vector<std::string> names(std::begin(engines::kEngineNames), std::end(engines::kEngineNames));
  return command
      ->add_option_function<std::string>(
          "--engine", [&engine](const std::string& name) { engine = engines::parse_engine(name); },
          "native (default) or simgrid, the reference engine")
      ->check(CLI::IsMember(names));
}

#if defined(CLERK_HAVE_SIMGRID)

void choose_engines(int, char**) { engines::use_simgrid(sgengine::in_process_backend()); }

#elif defined(CLERK_SIMGRID_HELPER)

namespace {

std::vector<std::string> command_line;

// The whole command goes to clerk-simgrid: this process becomes it.
models::RunResult hand_over(const models::Scenario&, std::uint64_t, double) {
  std::vector<std::string> args = command_line;
  args.at(0) = CLERK_SIMGRID_HELPER;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(CLERK_SIMGRID_HELPER, argv.data());
  throw std::runtime_error(std::string("cannot run ") + CLERK_SIMGRID_HELPER);
}

// The run of helper_json, in a folder of its own; nothing when a stop signal
// came first (the child is then killed, and the folder goes as this returns).
std::optional<nlohmann::ordered_json> run_helper(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  const common::TempDir dir(common::temp_prefix("clerk-simgrid-"));
  const std::string json = dir.file("run.json");
  common::SpawnSpec spec;
  spec.argv = {CLERK_SIMGRID_HELPER, "run", sc.file, "--engine", "simgrid", "-q", "--json", json,
               "--seed", std::to_string(seed), "--duration", fmt::format("{}", duration_s)};
  spec.output = dir.file("output.txt");
  spec.who = "clerk";
  std::fflush(nullptr);
  common::ChildProcess child = common::ChildProcess::spawn(spec);
  if (!common::wait_unless_stopped(child)) return std::nullopt;
  const common::ChildExit& end = *child.exit();
  if (!end.ok())
    throw std::runtime_error("the SimGrid run of " + sc.file + " failed (clerk-simgrid " +
                             common::describe_status(end.status) + "): " + common::read_text(spec.output));
  return nlohmann::ordered_json::parse(common::read_text(json));
}

// One run in a clerk-simgrid child: the scenario's file (as the file says:
// the helper reads it again) with this seed and duration; its JSON back.
// SIGINT, SIGTERM and SIGHUP are noted meanwhile (common/stoppable_child.h):
// the child is stopped and the temporary folder removed before the signal
// ends clerk (probe 4, finding 7: the folder was left).
nlohmann::ordered_json helper_json(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  return common::run_deferring_stop_signals("the SimGrid run of " + common::shown_text(sc.file),
                                            "the SimGrid run of " + sc.file,
                                            [&] { return run_helper(sc, seed, duration_s); });
}

}  // namespace

void choose_engines(int argc, char** argv) {
  command_line.assign(argv, argv + argc);
  engines::use_simgrid({sgengine::unsupported, hand_over, helper_json});
}

#else

void choose_engines(int, char**) {}

#endif

}  // namespace cli
