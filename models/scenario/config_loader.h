// Loads a scenario from TOML.
//
// A file may `include` others (a string or a list of strings, relative to the
// including file, or "@hardware/NAME" from the hardware presets), at the top
// or inside a table; their keys are the defaults the including file (or
// table) overrides, table by table (layered_toml.h). Each value keeps the file and line it came
// from, so every error names them. Unknown keys, wrong types, out-of-range
// values, unreadable files and include cycles are all ConfigErrors.
#pragma once
#include <string>
#include <vector>

#include "models/scenario/config_error.h"
#include "models/scenario/key_reference.h"
#include "models/scenario/scenario.h"

namespace models {

// `overrides`: "dotted.key=VALUE" assignments applied over the file, as
// `clerk run --set` and sweeps use them.
// `hardware`: a profile read in place of the hardware profile(s) the
// scenario includes (see LayeredToml).
// The files it read are the scenario's `files`.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {},
                       const std::string& hardware = "");

// A scenario given as text, with no includes, recording in `uses` every key
// the loader reads, as it declares it (key_reference.h builds the key
// reference from such runs).
Scenario load_scenario_recording(const std::string& text, const std::string& name, std::vector<KeyUse>& uses);

// Edit distance, for "did you mean" suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace models
