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
//     (at worst rate x duration, 8 bytes each);
//   - a fixed allowance for the program, the scenario and its tables.
// Sweeps can call it per scenario.
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
};

ResourceEstimate estimate_resources(const Scenario& sc, double duration_s);

// The memory a run may use: half of the machine's physical memory
// (sysconf _SC_PHYS_PAGES x _SC_PAGE_SIZE), leaving the rest to the system
// and to the other runs of a sweep. 0 when it cannot be read.
double memory_budget_bytes();

// Throws ConfigError(`where`, 0, "", ...) with the estimate when the run
// would use more than memory_budget_bytes().
void check_fits_machine(const Scenario& sc, double duration_s, const std::string& where);

}  // namespace models
