// How much memory a run will take, estimated from the scenario before it
// starts, so that a run that would not fit the machine is refused up front
// (with its estimate) instead of growing until the kernel kills it.
//
// The estimate is an upper bound built from what grows with the inputs:
//   - each connection (wrk's connection and slot, the server's socket and
//     request state, buffers): kBytesPerConnection;
//   - per simulated second and client group, two latency windows (time to
//     first byte and response latency: a 2,402-bin histogram each, counted
//     at 4 bytes a bin), the result's heat-map column (up to 100 counts) and
//     ifstat's two samples;
//   - per client group, wrk's latency histogram: one counter per microsecond
//     up to the timeout, in pages of 64, indexed by a table of 4 bytes a page;
//   - per open-loop group, the requests that fell due and wait to be sent
//     (at worst rate x (the longest warm-up + duration): what the warm-up
//     leaves unsent is still queued in the window; each its entry in
//     wrk_group.h's PendingRequests: about 8.6 bytes, sized from the type);
//   - per file of the data set, its size, offset, page-cache record, inode
//     number and directory extent (Filesystem, PageCache, Ext4Layout);
//   - per thread pool thread, in every worker, the thread and its scheduler
//     records (ngx_thread_pool_init_worker: each worker runs every pool);
//   - with aio = "io_uring", per thread of every worker's ring pool (its
//     io-wq workers or page-callback wait entries, as many as the ring's
//     entries on a kernel with async buffered reads), as a thread pool's;
//   - per drive of [disk] and of every [disks.NAME] (an array's members),
//     its model and queue, and per unit of each (an SSD's parallelism);
//   - per cache unit preloaded (or, with no disk, per unit of the data set),
//     its page-cache entry and slot;
//   - per cache unit the run can read in beyond that: as many as
//     memory.page_cache holds, or the data set if smaller, however short
//     the run (a fast disk fills gigabytes of cache a simulated second);
//   - per window of a trace group's report, four latency windows;
//   - a fixed allowance for the program, the scenario and its tables.
// Each term's bytes are measured (resource_estimate.cpp, the comments by
// the constants). A sweep checks each point, and the points it runs at once
// together (sweep_runner.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace models {

struct ResourceEstimate {
  struct Part {
    std::string what;
    double bytes = 0;
  };
  std::vector<Part> parts;
  double total_bytes() const;
  // "1.2 GiB (connections 400 MiB, per-second series 10 MiB, ...)".
  std::string text() const;
  // The part with the most bytes (parts is never empty).
  const Part& largest() const;
};

ResourceEstimate estimate_resources(const Scenario& sc, double duration_s);

// The memory a run may use: half of the machine's physical memory
// (sysconf _SC_PHYS_PAGES x _SC_PAGE_SIZE), leaving the rest to the system
// and to the other runs of a sweep. 0 when it cannot be read.
double memory_budget_bytes();

// "512 MiB", "1.2 GiB": how the estimates are written.
std::string memory_text(double bytes);

// Throws ConfigError(`where`, 0, "", ...) with the estimate when the run
// would use more than memory_budget_bytes().
void check_fits_machine(const Scenario& sc, double duration_s, const std::string& where);

}  // namespace models
