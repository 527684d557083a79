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

// `jobs` threads (0: one per core). `emit` is called on this thread, once
// per run, in `runs` order. An exception in a run (or in `emit`) stops the
// sweep and is rethrown here after the threads have finished.
void run_all(const Plan& plan, const std::vector<RunRef>& runs, unsigned jobs, const std::function<void(const Row&)>& emit);

}  // namespace cli::sweep
