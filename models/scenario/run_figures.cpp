#include "models/scenario/run_figures.h"

#include <algorithm>

#include "sim/fairness.h"

namespace models {

namespace {
// iostat -x over the whole run: rates per second, await per request.
RunResult::DriveIostat iostat_of(const DiskStats& m, double run_s) {
  RunResult::DriveIostat x;
  if (run_s <= 0) return x;
  const double reads = static_cast<double>(m.reads);
  x.r_s = reads / run_s;
  x.rkb_s = static_cast<double>(m.read_bytes) / 1024 / run_s;
  x.rrqm_s = static_cast<double>(m.merges) / run_s;
  x.avgrq_kb = m.reads ? static_cast<double>(m.read_bytes) / 1024 / reads : 0;
  x.avgqu_sz = m.queue_depth_integral / run_s;
  x.await_ms = m.reads ? m.await_sum_s / reads * 1e3 : 0;
  x.util = m.busy_s / run_s;
  x.slot_waits = m.slot_waits;
  x.slot_wait_ms = m.slot_waits ? m.slot_wait_s / static_cast<double>(m.slot_waits) * 1e3 : 0;
  x.max_outstanding = m.max_outstanding;
  x.max_sleepers = m.max_sleepers;
  return x;
}
}  // namespace

RunResult run_figures(RunParts p) {
  const Scenario& sc = p.scenario;
  const TaskStates& tasks = p.tasks;
  const sim::Time now = p.now;
  const double run_s = sim::to_seconds(now);
  RunResult r;
  r.scenario = sc.name;
  r.file = sc.file;
  r.seed = p.seed;
  r.duration_s = sim::to_seconds(p.duration);
  r.clients = std::move(p.clients);

  r.nic_out_bytes_per_s = p.ifstat.out_bytes_per_s();
  r.nic_in_bytes_per_s = p.ifstat.in_bytes_per_s();
  r.nic_out_gbps_mean = run_s > 0 ? p.nic_interface_bytes_sent * 8 / run_s / 1e9 : 0;
  r.nic_payload_capacity_gbps = p.nic.payload_Bps() * 8 / 1e9;

  const std::uint32_t n = sc.nginx.worker_processes;
  r.logical_cpus = sc.hardware.logical_cpus;
  r.cpu_busy_frac = tasks.busy_cpus_mean(0, now) / r.logical_cpus;
  r.kernel_cpu_s = p.kernel_cpu_s;
  r.iowait_frac = tasks.iowait_fraction(0, now);
  r.scheduler = sc.kernel.sched.policy;
  for (std::uint32_t w = 0; w < n; ++w) {
    WorkerFigures f;
    f.connections = p.workers[w].accepted;
    f.requests = p.workers[w].requests;
    f.blocks = p.workers[w].blocks;
    f.running = tasks.group_mean(w, TaskState::kRunning, 0, now);
    f.sleeping = tasks.group_mean(w, TaskState::kSleeping, 0, now);
    f.disk_wait = tasks.group_mean(w, TaskState::kDiskWait, 0, now);
    for (std::size_t c = 0; c < kWaitCauses; ++c) {
      f.blocked_by_cause[c] = tasks.group_cause_mean(w, static_cast<WaitCause>(c), 0, now);
      r.workers_blocked_by_cause[c] += f.blocked_by_cause[c] / n;
    }
    f.cpu_wait = tasks.group_cpu_wait_mean(w, 0, now);
    r.workers_cpu_wait += f.cpu_wait / n;
    r.workers_running += f.running / n;
    r.workers_sleeping += f.sleeping / n;
    r.workers_disk_wait += f.disk_wait / n;
    r.workers.push_back(f);
  }
  {
    // Jain's fairness index over requests per worker.
    double sum = 0, top = 0, blocks = 0;
    std::vector<double> requests;
    for (const WorkerFigures& f : r.workers) {
      const auto x = static_cast<double>(f.requests);
      requests.push_back(x);
      sum += x;
      top = std::max(top, x);
      blocks += static_cast<double>(f.blocks);
    }
    r.fairness = sim::jain_index(requests);
    r.busiest_share = sum > 0 ? top / sum : 0.0;
    if (sum > 0 && blocks > 0)
      for (const WorkerFigures& f : r.workers)
        r.share_behind_one_block += static_cast<double>(f.blocks) / blocks * static_cast<double>(f.requests) / sum;
  }
  r.thread_pool = sc.nginx.aio == AioMode::kThreads;
  if (r.thread_pool) {
    const double threads = static_cast<double>(sc.nginx.thread_pool.threads) * n;
    r.pool_threads = static_cast<std::uint64_t>(threads);
    double waiting = 0;
    for (std::uint32_t w = 0; w < n; ++w) {
      const PoolStats& pool = p.workers[w].pool;
      r.pool_tasks += pool.tasks;
      r.pool_overflows += pool.overflows;
      r.pool_max_waiting = std::max(r.pool_max_waiting, pool.max_waiting);
      waiting += pool.waiting_integral;
      r.pool_running += tasks.group_mean(n + w, TaskState::kRunning, 0, now) / threads;
      r.pool_sleeping += tasks.group_mean(n + w, TaskState::kSleeping, 0, now) / threads;
      r.pool_disk_wait += tasks.group_mean(n + w, TaskState::kDiskWait, 0, now) / threads;
      for (std::size_t c = 0; c < kWaitCauses; ++c)
        r.pool_blocked_by_cause[c] += tasks.group_cause_mean(n + w, static_cast<WaitCause>(c), 0, now) / threads;
      r.pool_cpu_wait += tasks.group_cpu_wait_mean(n + w, 0, now) / threads;
    }
    r.pool_mean_waiting = run_s > 0 ? waiting / run_s : 0;
  }

  const PageCacheStats c = p.cache.stats();
  r.cache_lookups = c.lookups;
  r.cache_hit_ratio = c.lookups ? static_cast<double>(c.hits) / static_cast<double>(c.lookups) : 0;
  r.cache_resident_bytes = c.resident_units * p.cache.unit_bytes();
  r.cache_capacity_bytes = sc.hardware.page_cache_bytes;
  r.readahead_windows = c.readahead_windows;
  r.bios = c.bios;
  const VfsCacheStats v = p.vfs.stats();
  r.dentry_lookups = v.dentry_lookups;
  r.dentry_hits = v.dentry_hits;
  r.inode_lookups = v.inode_lookups;
  r.inode_hits = v.inode_hits;
  r.dentries_freed = v.dentries_freed;
  r.inodes_freed = v.inodes_freed;
  const MetadataBlockStats b = p.cache.block_stats();
  r.metadata_block_lookups = b.lookups;
  r.metadata_block_hits = b.hits;
  r.metadata_blocks_read = b.blocks_read;
  r.metadata_reads = p.walk.metadata_reads();

  const DiskStats d = p.disk.stats();
  r.drives = d.drives;
  r.disk_reads = d.reads;
  r.disk_read_bytes_per_s = run_s > 0 ? static_cast<double>(d.read_bytes) / run_s : 0;
  r.disk_mean_queue_depth = run_s > 0 ? d.queue_depth_integral / run_s / d.drives : 0;
  r.disk_utilization = run_s > 0 ? d.busy_s / run_s / d.drives : 0;
  for (const DiskStats& m : p.disk.drive_stats()) r.drive_iostat.push_back(iostat_of(m, run_s));

  const ServerStats& s = p.server;
  r.server_connections = s.connections;
  r.server_requests = s.requests;
  r.server_responses = s.responses;
  r.server_failed = s.failed;
  r.blocked_wait_s = s.blocked_wait_s;
  r.blocked_before_first_byte_s = s.blocked_before_first_byte_s;
  r.server_ttfb_s = s.ttfb_s;
  r.responses_delayed_share =
      s.responses ? static_cast<double>(s.responses_delayed) / static_cast<double>(s.responses) : 0.0;
  r.error_log = s.log;
  r.error_log_lines = s.log_lines;
  return r;
}

}  // namespace models
