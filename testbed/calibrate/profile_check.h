// Loads a hardware profile the way `clerk run` does: through a scenario that
// includes it (a profile alone has no server, data set or clients).
#pragma once
#include <string>

#include "models/scenario/scenario.h"

namespace testbed::calibrate {

// Writes a minimal scenario including `profile` into `scratch_dir` and loads
// it with models::load_scenario; throws models::ConfigError if the profile
// does not load.
models::Scenario load_profile(const std::string& profile, const std::string& scratch_dir);

}  // namespace testbed::calibrate
