// The figures `clerk realrun` compares, in the same terms for a real run
// (wrk's report and /proc) and for the simulator's prediction of it.
#pragma once
#include <string>
#include <vector>

#include "models/scenario/result.h"
#include "testbed/realrun/real_run.h"

namespace testbed {

struct GroupFigures {
  std::string name;
  double requests_per_s = 0;
  double bytes_per_s = 0;
  double latency_mean = 0, latency_p50 = 0, latency_p99 = 0;  // seconds, as wrk reports them
  std::uint64_t errors = 0;
};

struct RunFigures {
  std::vector<GroupFigures> groups;  // in scenario order
  // top's view of the workers' main threads: shares of time, averaged over workers.
  double workers_running = 0, workers_sleeping = 0, workers_disk_wait = 0;
};

RunFigures figures_of(const RealRunResult& real);
RunFigures figures_of(const models::RunResult& simulated);

// One compared quantity: its name, how to read it from RunFigures, how to
// print it, and the tolerance the prediction is held to (0: shown, not judged).
struct Metric {
  std::string group;  // "" for a server-wide figure
  std::string name;   // "requests_per_s", "latency_mean", ...
  std::string label;  // "Requests/sec", "Latency Avg", ...
  double tolerance = 0;
  double (*read)(const RunFigures&, std::size_t group) = nullptr;
  std::size_t group_index = 0;
  std::string unit;   // "", "s", "B/s", "share"
};

// The metrics of a scenario with these groups: per group requests/s (20%),
// throughput, mean latency (20%), p50, p99 (35%); workers' R, S, D shares.
std::vector<Metric> metrics_for(const std::vector<std::string>& groups);

}  // namespace testbed
