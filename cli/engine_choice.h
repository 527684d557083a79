// How this program runs the SimGrid engine (engines/run_scenario.h), and
// the --engine option. The only place the command line meets SimGrid.
//
// SimGrid, and the ns-3 libraries Debian's build brings with it, take about
// 25 ms and 20 MB to load, which every clerk command would pay. So clerk
// does not link them: a SimGrid run is done by clerk-simgrid, the same
// command built with the SimGrid engine (cli/CMakeLists.txt). This file is
// compiled once per program, and chooses:
//  - clerk-simgrid: SimGrid in this process (sgengine::in_process_backend);
//  - clerk: a run is handed over to clerk-simgrid with the same arguments
//    (exec: no return), several runs (validate) each go to a clerk-simgrid
//    child with the scenario's file, seed and duration;
//  - a build without SimGrid: none (engines::cannot_run says so).
#pragma once
#include <CLI/CLI.hpp>

#include "engines/run_scenario.h"

namespace cli {

// main() calls it first, with its arguments.
void choose_engines(int argc, char** argv);

// --engine native|simgrid, parsed once into `engine` (default native).
CLI::Option* add_engine_option(CLI::App* command, engines::Engine& engine);

}  // namespace cli
