// Which engine runs a scenario: "native" (models::World, the default) or
// "simgrid" (the reference engine in engines/simgrid, built when SimGrid
// 3.32 is installed). The only place the command line meets SimGrid.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace cli {

// Features of the scenario the engine cannot run, one line each (empty: it can).
std::vector<std::string> engine_cannot_run(const std::string& engine, const models::Scenario& sc);

// Runs the scenario on the SimGrid engine in this process (once per process).
models::RunResult run_on_simgrid(const models::Scenario& sc, std::uint64_t seed, double duration_s);

// The JSON of a SimGrid run (models::to_json, with wall_s), run in a child
// process so that it can be called once per scenario.
nlohmann::ordered_json simgrid_json(const models::Scenario& sc);

}  // namespace cli
