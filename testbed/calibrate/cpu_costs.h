// CPU time per operation of NGINX's worker and of wrk, measured on loopback
// (the method of scenarios/hardware/nginx-2015-raid10.toml's [cpu] section):
//   - keep-alive requests of a 2-byte cached file: per-request cost
//   - keep-alive requests of a multi-MiB cached file: per-byte cost (minus the per-request part)
//   - one request per connection (Connection: close): per-connection cost (minus the per-request part)
// each figure the median of several runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "testbed/calibrate/wrk_runner.h"

namespace testbed::calibrate {

struct CpuPlan {
  int runs = 3;               // median of this many runs per experiment
  double seconds = 5;         // each wrk run
  int connections = 10;       // per worker
  // NGINX workers and wrk threads: 0 for one per logical CPU, so that every
  // CPU is busy as in a loaded server with its clients on the same host.
  // Loopback's receive work runs in softirq on whichever CPU and task is
  // there: with one worker and one wrk on two CPUs it splits between them
  // differently than when both sides compete for every CPU.
  int workers = 0;
  std::uint64_t big_file_bytes = 4 << 20;
};

// Per-operation figures of one experiment, the median over its runs.
struct PerOp {
  double server_s = 0;      // worker CPU per request
  double client_s = 0;      // wrk CPU per request
  std::uint64_t requests = 0;  // of the median run (by server figure), for the comments
  double seconds = 0;
};

struct CpuRaw {
  PerOp small;  // keep-alive, 2-byte file
  PerOp big;    // keep-alive, big_file_bytes
  PerOp close;  // Connection: close, 2-byte file
  std::uint64_t big_file_bytes = 0;
};

struct CpuCostsResult {
  double request = 0, sendfile_byte = 0, accept = 0;
  double client_request = 0, client_byte = 0, client_connect = 0;
  std::vector<std::string> warnings;  // e.g. a difference that came out negative
};

// Median of each runs' per-request figures.
PerOp median_per_op(const std::vector<WrkRun>& runs);
// The subtraction that turns the three experiments into the model's costs.
CpuCostsResult derive_cpu_costs(const CpuRaw& raw);
// Runs the experiments (nginx and wrk), printing progress to stdout.
CpuRaw measure_cpu(const CpuPlan& plan, std::string* nginx_version);

}  // namespace testbed::calibrate
