// One way to run a scenario: on a chosen engine, from a Scenario to its
// RunResult. Every command (run, validate, compare, sweep), realrun's
// prediction and the benchmark run scenarios through here; no caller builds
// a World or branches on the engine itself. (clerk-ui steps a World second
// by second instead, to draw it: it does not run scenarios whole.)
//
// The engines:
//  - native: models::World on sim::Engine, in this process, any number of
//    times;
//  - simgrid: the reference engine (engines/simgrid). SimGrid allows one
//    engine per process, and loading it costs every clerk command about
//    25 ms, so how a program runs it is its own choice, made once at start
//    (use_simgrid; cli/engine_choice.cpp makes clerk's): clerk hands a run
//    over to clerk-simgrid, clerk-simgrid runs one in process and each of
//    several in a child process. A program that makes no choice cannot run
//    SimGrid, and cannot_run says so.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace models {
class World;
}

namespace engines {

enum class Engine { kNative, kSimGrid };

// The option's values, in the order --help lists them.
inline constexpr std::string_view kEngineNames[] = {"native", "simgrid"};
// "native" or "simgrid"; throws std::invalid_argument listing the choices.
Engine parse_engine(std::string_view name);
std::string_view engine_name(Engine engine);

// For the native engine only, what the benchmark measures between the
// steps: after the World is built, and after it ran (before its result is
// collected).
struct NativeHooks {
  std::function<void()> built;
  std::function<void(models::World&)> ran;
};

struct RunRequest {
  std::uint64_t seed = 0;
  double duration_s = 0;
  Engine engine = Engine::kNative;
  NativeHooks hooks;
};

// The scenario's seed and duration on `engine`.
RunRequest as_written(const models::Scenario& sc, Engine engine = Engine::kNative);

// What the engine cannot express in this scenario, one line each naming the
// scenario key; empty when it can run it.
std::vector<std::string> cannot_run(const models::Scenario& sc, Engine engine);

// Both runs below first check that the run fits the machine
// (models::check_fits_machine: a ConfigError naming sc.file, exit 2), so
// that no command builds a World that would grow until the kernel kills it.
//
// Runs the scenario once; wall_s covers building the engine's world and
// running it. On SimGrid, in clerk, this hands the whole command over to
// clerk-simgrid and does not return (see above); in clerk-simgrid, it may be
// called once per process: several runs take run_scenario_json.
models::RunResult run_scenario(const models::Scenario& sc, const RunRequest& request);

// The run's figures as models::to_json(result, true) (with wall_s), any
// number of times in a process: on SimGrid each run has a process of its own.
nlohmann::ordered_json run_scenario_json(const models::Scenario& sc, const RunRequest& request);

// How this program runs SimGrid (see above). Each field is a plain function:
// set once, at start, before any run.
struct SimGridBackend {
  std::vector<std::string> (*cannot_run)(const models::Scenario&);
  models::RunResult (*run)(const models::Scenario&, std::uint64_t seed, double duration_s);
  nlohmann::ordered_json (*run_json)(const models::Scenario&, std::uint64_t seed, double duration_s);
};
void use_simgrid(const SimGridBackend& backend);

}  // namespace engines
