// The SimGrid reference engine's entry points: the same scenario, the same
// RunResult (so the same reports and JSON) as models::World, computed by
// SimGrid 3.32 through its S4U interface.
//
// SimGrid allows one engine per process and cannot be reset once a run has
// started, so `run` may be called once per process; `run_in_child` forks a
// process for each run and can be called any number of times.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engines/run_scenario.h"
#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace sgengine {

// What this scenario asks for that the SimGrid engine cannot express, one
// entry per feature, naming the scenario key; empty when it can run it.
std::vector<std::string> unsupported(const models::Scenario& scenario);

// Runs the scenario in this process; wall_s covers building and running.
models::RunResult run(const models::Scenario& scenario, std::uint64_t seed, double duration_s);

// Runs it in a child process (common/child_process.h) and returns
// models::to_json of its result (with wall_s). Throws std::runtime_error
// when the child fails, with the child's own error when it said one.
nlohmann::ordered_json run_in_child(const models::Scenario& scenario, std::uint64_t seed, double duration_s);

// The three above, for engines::use_simgrid in a program that links SimGrid.
engines::SimGridBackend in_process_backend();

}  // namespace sgengine
