// The figures `clerk realrun` compares, in the same terms for a real run
// (wrk's report and /proc) and for the simulator's prediction of it.
#pragma once
#include <limits>
#include <map>
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

inline constexpr double kNoFigure = std::numeric_limits<double>::quiet_NaN();

struct RunFigures {
  std::vector<GroupFigures> groups;  // in scenario order
  // top's view of the workers' main threads: shares of time, averaged over workers.
  double workers_running = 0, workers_sleeping = 0, workers_disk_wait = 0;
  // Where the workers' threads wait, per task group ("main": the workers'
  // main threads, "pool": their other threads): cause (kBlockedKeys) -> share
  // of each thread's time. A group or cause a side does not report is absent.
  std::map<std::string, std::map<std::string, double>> blocked;
  // iostat -x per drive: the real data device and the disks under it
  // (block_stats.h), or the model's queue per drive ("drive0"...).
  std::vector<realrun::DriveIostat> drives;
  // Where the CPU went (top's and /proc/stat's view): the server's threads
  // (every thread of every worker) and wrk's, each per completed request, and
  // the share of all CPUs that was busy. Real: user+sys of the processes, the
  // "cpu" line of /proc/stat. Simulated: the tasks' time on a CPU (R less the
  // wait for one), and wrk's as what the CPUs did besides the server's
  // threads and the kernel's own work. A side that has no figure leaves NaN.
  double server_cpu_per_request = kNoFigure, clients_cpu_per_request = kNoFigure, machine_busy = kNoFigure;
};

// The causes compared, as the model's `blocked_by_cause` names them; "other"
// is D time of no known cause (the model's kNone).
inline const std::vector<std::string> kBlockedKeys = {"disk_data", "disk_metadata", "cpu_wait", "reclaim",
                                                      "request_slot", "other"};

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
// throughput, mean latency (20%), p50, p99 (35%); workers' R, S, D shares;
// the server's and wrk's CPU per request and the machine's busy share (shown,
// not judged: they say where a miss in the others comes from).
std::vector<Metric> metrics_for(const std::vector<std::string>& groups);

}  // namespace testbed
