// What every fuzzed input must satisfy, not only "no crash". A breach prints
// what was expected and traps, so libFuzzer keeps the input as a finding.
//   - Loading either succeeds or throws models::ConfigError naming a file,
//     with a message; any other exception is a finding.
//   - A loaded scenario's run length is what a simulation can represent
//     (models/scenario/limits.h).
//   - A run accounts for every request: issued == completed + failed +
//     in flight at the end, for every client group.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace fuzz {

// Prints "fuzz contract: <what>" and traps.
[[noreturn]] void breach(const std::string& what);

// Runs `load`; a ConfigError is checked and gives nullopt, anything else thrown is a breach.
std::optional<models::Scenario> load_checked(const std::function<models::Scenario()>& load);

// A ConfigError (from loading or from building the World) must name a file and say something.
// With CLERK_FUZZ_VERBOSE set, each is printed (to see why an input was refused).
void check_config_error(const std::exception& e, const std::string& file);

// The loaded scenario's duration is finite and within (0, limits::kMaxRunSeconds].
void check_loaded(const models::Scenario& sc);

// issued == completed + failed + in flight, for every client group.
void check_accounting(const models::RunResult& r);

}  // namespace fuzz
