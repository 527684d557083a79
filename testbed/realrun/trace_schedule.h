// A trace group's real load (clients.NAME.trace, models/clients/trace.h):
// the lines the simulation replays, read with the same reader, the same
// window, speed and sampling draws, written as "DUE_S PATH" for
// clerk-replay (testbed/replay/main.cpp), each path the data set's file the
// simulation maps it to (data_set.h: file_path). `planned` is the scenario
// after models::with_traces, whose data set holds the log's paths.
#pragma once
#include <cstdint>
#include <string>

#include "models/scenario/scenario.h"

namespace testbed::realrun {

// Writes the schedule of group `group` of `planned` due before `duration_s`;
// returns the number of lines written.
std::uint64_t write_trace_schedule(const models::Scenario& planned, std::size_t group, double duration_s,
                                   const std::string& path);

}  // namespace testbed::realrun
