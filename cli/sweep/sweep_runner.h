// Runs a sweep's runs on several threads. Each run is its own World (worlds
// share nothing), and rows come back to the calling thread in the order of
// the run list, whatever order the threads finish in, so the files a sweep
// writes do not depend on -j or on timing.
#pragma once
#include <functional>

#include "cli/sweep/sweep_plan.h"
#include "cli/sweep/sweep_rows.h"

namespace cli::sweep {

// One run: the point's scenario, the seed, the metrics of its JSON.
Row run_one(const Plan& plan, const RunRef& run);

// The runs that share the machine at once must fit it together: with
// `jobs` threads, the `jobs` largest of `runs` (Plan::point_bytes) within
// models::memory_budget_bytes(). Throws SweepError(where, "-j N", ...) with
// the -j that fits. `jobs` as run_all takes it (0: one per core).
void check_jobs_fit(const Plan& plan, const std::vector<RunRef>& runs, unsigned jobs, const std::string& where);

// `jobs` threads (0: one per core). `emit` is called on this thread, once
// per run, in `runs` order. An exception in a run (or in `emit`) stops the
// sweep and is rethrown here after the threads have finished.
void run_all(const Plan& plan, const std::vector<RunRef>& runs, unsigned jobs, const std::function<void(const Row&)>& emit);

}  // namespace cli::sweep
