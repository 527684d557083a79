#include "engines/simgrid/sg_run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>

#include "common/child_process.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "common/stoppable_child.h"
#include "common/temp_dir.h"
#include "common/text_file.h"
#include "engines/simgrid/sg_world.h"
#include "models/scenario/limits.h"
#include "models/scenario/result_json.h"

namespace sgengine {

models::RunResult run(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  // SimGrid's clock is a double in seconds: a run longer than the models'
  // nanosecond clock can hold would end at a time no sim::Time represents.
  models::limits::check_run_duration(duration_s, "duration");
  const auto t0 = std::chrono::steady_clock::now();
  const auto world = std::make_unique<SgWorld>(sc, seed, duration_s);
  world->run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return world->result(wall);
}

namespace {

// What the child of run_in_child runs, and where it leaves the outcome.
struct ChildRun {
  const models::Scenario* scenario;
  std::uint64_t seed;
  double duration_s;
  std::string result_file;  // models::to_json of the result
  std::string error_file;   // what it threw
};

// In the child (this process has one thread: SimGrid's actors are not threads
// of ours): the run, its JSON written whole, or the error.
int run_and_write(void* arg) {
  const ChildRun& r = *static_cast<const ChildRun*>(arg);
  try {
    common::write_file_atomically(r.result_file, common::json_text(models::to_json(run(*r.scenario, r.seed, r.duration_s), true)));
    return 0;
  } catch (const std::exception& e) {
    try {
      common::write_file_atomically(r.error_file, e.what());
    } catch (...) {
    }
    return 4;
  }
}

}  // namespace

namespace {

// The run of run_in_child, in a folder of its own; nothing when a stop
// signal came first (the child is then killed, and the folder goes as this
// returns).
std::optional<nlohmann::ordered_json> run_child(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  const common::TempDir dir(common::temp_prefix("clerk-simgrid-"));
  ChildRun r{&sc, seed, duration_s, dir.file("result.json"), dir.file("error.txt")};
  std::fflush(nullptr);  // nothing buffered may be written twice
  common::SpawnSpec spec;
  spec.who = "clerk (SimGrid run)";
  common::ChildProcess child = common::ChildProcess::run_in_child(spec, run_and_write, &r);
  if (!common::wait_unless_stopped(child)) return std::nullopt;
  const common::ChildExit& end = *child.exit();
  if (end.ok()) return nlohmann::ordered_json::parse(common::read_text(r.result_file));
  if (const std::string why = common::read_text(r.error_file); !why.empty())
    throw std::runtime_error("simgrid engine: " + why);
  throw std::runtime_error("simgrid engine: the run's process " +
                           (end.lost ? std::string("was reaped elsewhere") : common::describe_status(end.status)));
}

}  // namespace

// SIGINT, SIGTERM and SIGHUP are noted while the child runs
// (common/stoppable_child.h): it is stopped and its folder removed before the
// signal ends the process (probe 4, finding 7: the folder was left).
nlohmann::ordered_json run_in_child(const models::Scenario& sc, std::uint64_t seed, double duration_s) {
  return common::run_deferring_stop_signals("the SimGrid run of " + common::shown_text(sc.file),
                                            "simgrid engine: the run",
                                            [&] { return run_child(sc, seed, duration_s); });
}

engines::SimGridBackend in_process_backend() { return {unsupported, run, run_in_child}; }

}  // namespace sgengine
