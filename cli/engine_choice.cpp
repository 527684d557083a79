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
#include "common/child_process.h"
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

// One run in a clerk-simgrid child: the scenario's file (as the file says:
// the helper reads it again) with this seed and duration; its JSON back.
nlohmann::ordered_json helper_json(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  const common::TempDir dir("/tmp/clerk-simgrid-");
  const std::string json = dir.file("run.json");
  common::SpawnSpec spec;
  spec.argv = {CLERK_SIMGRID_HELPER, "run", sc.file, "--engine", "simgrid", "-q", "--json", json,
               "--seed", std::to_string(seed), "--duration", fmt::format("{}", duration_s)};
  spec.output = dir.file("output.txt");
  spec.who = "clerk";
  std::fflush(nullptr);
  const common::CommandResult r = common::run_command(spec, INFINITY);
  if (!r.ok())
    throw std::runtime_error("the SimGrid run of " + sc.file + " failed (clerk-simgrid " +
                             common::describe_status(r.status) + "): " + r.output);
  return nlohmann::ordered_json::parse(common::read_text(json));
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
