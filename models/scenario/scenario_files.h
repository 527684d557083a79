// Which files under a scenarios folder are runs, and which are parts of runs.
//
// A folder of scenarios holds more than scenarios: hardware profiles and
// shared parts (common.toml) that others `include`, and sweep specs that
// name a scenario to vary. Each can be loaded or read on its own, but only a
// run is meant to be opened: the rule is the loader's, so that every front
// end (clerk-ui's picker, tests that open every scenario) lists the same files.
//
// The rule, from the file's own text (not what it includes, so that a run
// that includes another run is still told apart from a part):
//   - in a folder named `hardware`: a hardware profile;
//   - a top-level [sweep] table: a sweep spec (clerk sweep reads it);
//   - a top-level `name`: a run, named as clerk run and validate print it;
//   - otherwise a part, there to be included.
#pragma once
#include <string>
#include <vector>

namespace models {

enum class ScenarioFileRole { kRun, kPart, kSweep, kHardwareProfile };

// The role of one file. Throws ConfigError when the file cannot be read or
// parsed (loading it would fail the same way).
ScenarioFileRole scenario_file_role(const std::string& path);

// Every *.toml under `dir` (recursively) whose role is kRun, sorted. A file
// that cannot be read or parsed is listed too: opening it shows the
// loader's error, which is more use than a file that silently disappears.
std::vector<std::string> runnable_scenarios(const std::string& dir);

}  // namespace models
