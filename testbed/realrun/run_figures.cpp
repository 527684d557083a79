#include "testbed/realrun/run_figures.h"

#include <algorithm>

namespace testbed {
namespace {

// The model's time in D by cause, keyed as its JSON keys them ("other" for kNone).
std::map<std::string, double> blocked_keys(const models::BlockedByCause& b) {
  std::map<std::string, double> out;
  for (std::size_t c = 0; c < models::kWaitCauses; ++c) out[models::wait_cause_key(static_cast<models::WaitCause>(c))] = b[c];
  return out;
}

// The model's CPU time over the measured window: the server's threads' time
// on a CPU (R less the wait for one: the scheduler's run-queue time), and
// the rest of the CPUs' busy time less the kernel's own work (page-cache
// fills' completions), which on a host whose clients are wrk is wrk's.
void cpu_figures(const models::RunResult& sim, RunFigures& f) {
  const double run_s = sim.duration_s;
  std::uint64_t requests = 0;
  bool clients_here = false;
  for (const models::WrkResult& c : sim.clients) {
    requests += c.complete;
    clients_here = clients_here || c.spec.on_server_host;
  }
  if (run_s <= 0 || requests == 0) return;
  const double workers = static_cast<double>(sim.workers.size());
  const double server_s = (workers * (sim.workers_running - sim.workers_cpu_wait) +
                           static_cast<double>(sim.pool_threads) * (sim.pool_running - sim.pool_cpu_wait)) *
                          run_s;
  const double busy_s = sim.cpu_busy_frac * static_cast<double>(sim.logical_cpus) * run_s;
  f.server_cpu_per_request = server_s / static_cast<double>(requests);
  if (clients_here) f.clients_cpu_per_request = std::max(0.0, busy_s - server_s - sim.kernel_cpu_s) / static_cast<double>(requests);
  f.machine_busy = sim.cpu_busy_frac;
}

}  // namespace

RunFigures figures_of(const RealRunResult& real) {
  RunFigures f;
  for (const RealGroupResult& g : real.groups) {
    f.groups.push_back({g.name, g.requests_per_s, g.bytes_per_s, g.latency_mean, g.latency_p50, g.latency_p99,
                        g.errors_connect + g.errors_read + g.errors_write + g.errors_status + g.errors_timeout});
  }
  if (!real.workers.empty()) {
    for (const RealWorker& w : real.workers) {
      f.workers_running += w.running;
      f.workers_sleeping += w.sleeping;
      f.workers_disk_wait += w.disk_wait;
    }
    const double n = static_cast<double>(real.workers.size());
    f.workers_running /= n;
    f.workers_sleeping /= n;
    f.workers_disk_wait /= n;
  }
  for (const realrun::WaitSummary& w : real.waits) f.blocked[w.group] = w.blocked_by_cause;
  f.drives = real.drives;
  std::uint64_t requests = 0;
  for (const RealGroupResult& g : real.groups) requests += g.requests;
  if (requests > 0) {
    f.server_cpu_per_request = real.server_cpu_s / static_cast<double>(requests);
    f.clients_cpu_per_request = real.clients_cpu_s / static_cast<double>(requests);
  }
  f.machine_busy = real.machine_busy;
  return f;
}

RunFigures figures_of(const models::RunResult& sim) {
  RunFigures f;
  for (const models::WrkResult& c : sim.clients) {
    std::uint64_t errors = c.errors.connect + c.errors.read + c.errors.write + c.errors.status + c.errors.timeout;
    f.groups.push_back({c.spec.name, c.runtime_s > 0 ? static_cast<double>(c.complete) / c.runtime_s : 0,
                        c.runtime_s > 0 ? static_cast<double>(c.bytes) / c.runtime_s : 0, c.latency_mean,
                        c.latency_p50, c.latency_p99, errors});
  }
  f.workers_running = sim.workers_running;
  f.workers_sleeping = sim.workers_sleeping;
  f.workers_disk_wait = sim.workers_disk_wait;
  // Waiting for a CPU: the scheduler's run-queue time (0 with processor sharing).
  f.blocked["main"] = blocked_keys(sim.workers_blocked_by_cause);
  f.blocked["main"]["cpu_wait"] = sim.workers_cpu_wait;
  if (sim.thread_pool) {
    f.blocked["pool"] = blocked_keys(sim.pool_blocked_by_cause);
    f.blocked["pool"]["cpu_wait"] = sim.pool_cpu_wait;
  }
  cpu_figures(sim, f);
  // The model's queue keeps /proc/diskstats' counters: avgqu-sz is its mean
  // in flight, max_outstanding its most in flight.
  for (std::size_t i = 0; i < sim.drive_iostat.size(); ++i) {
    const models::RunResult::DriveIostat& m = sim.drive_iostat[i];
    realrun::DriveIostat x;
    x.device = "drive" + std::to_string(i);
    x.r_s = m.r_s;
    x.rkb_s = m.rkb_s;
    x.rrqm_s = m.rrqm_s;
    x.avgrq_kb = m.avgrq_kb;
    x.avgqu_sz = m.avgqu_sz;
    x.await_ms = m.await_ms;
    x.util = m.util;
    x.max_inflight = m.max_outstanding;
    x.mean_inflight = m.avgqu_sz;
    f.drives.push_back(std::move(x));
  }
  return f;
}

std::vector<Metric> metrics_for(const std::vector<std::string>& groups) {
  std::vector<Metric> m;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const std::string& g = groups[i];
    // The issue's bar: requests/s and mean latency within 20%, p99 within 35%.
    m.push_back({g, "requests_per_s", "Requests/sec", 0.20,
                 [](const RunFigures& f, std::size_t k) { return f.groups[k].requests_per_s; }, i, ""});
    m.push_back({g, "bytes_per_s", "Transfer/sec", 0,
                 [](const RunFigures& f, std::size_t k) { return f.groups[k].bytes_per_s; }, i, "B/s"});
    m.push_back({g, "latency_mean", "Latency Avg", 0.20,
                 [](const RunFigures& f, std::size_t k) { return f.groups[k].latency_mean; }, i, "s"});
    m.push_back({g, "latency_p50", "Latency 50%", 0,
                 [](const RunFigures& f, std::size_t k) { return f.groups[k].latency_p50; }, i, "s"});
    m.push_back({g, "latency_p99", "Latency 99%", 0.35,
                 [](const RunFigures& f, std::size_t k) { return f.groups[k].latency_p99; }, i, "s"});
  }
  m.push_back({"", "workers_running", "workers R", 0, [](const RunFigures& f, std::size_t) { return f.workers_running; }, 0, "share"});
  m.push_back({"", "workers_sleeping", "workers S", 0, [](const RunFigures& f, std::size_t) { return f.workers_sleeping; }, 0, "share"});
  m.push_back({"", "workers_disk_wait", "workers D", 0, [](const RunFigures& f, std::size_t) { return f.workers_disk_wait; }, 0, "share"});
  m.push_back({"", "server_cpu_per_request", "server CPU/req", 0,
               [](const RunFigures& f, std::size_t) { return f.server_cpu_per_request; }, 0, "s"});
  m.push_back({"", "clients_cpu_per_request", "wrk CPU/req", 0,
               [](const RunFigures& f, std::size_t) { return f.clients_cpu_per_request; }, 0, "s"});
  m.push_back({"", "machine_busy", "machine busy", 0, [](const RunFigures& f, std::size_t) { return f.machine_busy; }, 0, "share"});
  return m;
}

}  // namespace testbed
