// The simulator's prediction of one real run: the same scenario on the same
// (calibrated) hardware profile, for the run's measured duration, with the
// run's recorded connection placement replayed.
#pragma once
#include <cstdint>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"
#include "testbed/realrun/real_run.h"

namespace testbed {

// The scenario as the real run was made: its cache limit, its duration, and
// where its connections landed (when the placement was recorded whole).
models::Scenario as_run(const models::Scenario& scenario, const RealRunResult& real, std::uint64_t cache_limit_bytes);

models::RunResult predict(const models::Scenario& scenario, const RealRunResult& real, std::uint64_t seed,
                          std::uint64_t cache_limit_bytes);

}  // namespace testbed
