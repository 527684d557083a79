// Which engine runs a scenario: "native" (models::World, the default) or
// "simgrid" (the reference engine in engines/simgrid). The only place the
// command line meets SimGrid.
//
// SimGrid, and the ns-3 libraries Debian's build brings with it, take about
// 25 ms and 20 MB to load, which every clerk command would pay. So clerk
// does not link them: a SimGrid run is done by clerk-simgrid, the same
// command built with the SimGrid engine (cli/CMakeLists.txt), which clerk
// runs in its place. SimGrid allows one engine per process anyway.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace cli {

// main() hands over its arguments, for passing a run on to clerk-simgrid.
void remember_command_line(int argc, char** argv);

// Features of the scenario the engine cannot run, one line each (empty: it can).
std::vector<std::string> engine_cannot_run(const std::string& engine, const models::Scenario& sc);

// Runs the scenario on the SimGrid engine: in this process in clerk-simgrid;
// in clerk, by becoming clerk-simgrid with the same arguments (no return).
models::RunResult run_on_simgrid(const models::Scenario& sc, std::uint64_t seed, double duration_s);

// The JSON of a SimGrid run of the scenario's file with its own seed and
// duration (models::to_json, with wall_s), from a process of its own.
nlohmann::ordered_json simgrid_json(const models::Scenario& sc);

}  // namespace cli
