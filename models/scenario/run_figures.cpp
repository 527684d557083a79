#include "models/scenario/run_figures.h"

#include "models/server/pool_choice.h"

#include <algorithm>

#include "models/hardware/elevator.h"
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

DiskStats since(DiskStats d, const DiskStats& b) {
  d.reads -= b.reads;
  d.read_bytes -= b.read_bytes;
  d.busy_s -= b.busy_s;
  d.queue_depth_integral -= b.queue_depth_integral;
  d.merges -= b.merges;
  d.await_sum_s -= b.await_sum_s;
  d.slot_waits -= b.slot_waits;
  d.slot_wait_s -= b.slot_wait_s;
  return d;  // the maxima were reset at the window's start
}

VfsCacheStats since(VfsCacheStats v, const VfsCacheStats& b) {
  // dentries, inodes and the LRU lengths are levels, not counts: they stay.
  v.dentry_lookups -= b.dentry_lookups;
  v.dentry_hits -= b.dentry_hits;
  v.inode_lookups -= b.inode_lookups;
  v.inode_hits -= b.inode_hits;
  v.dentries_scanned -= b.dentries_scanned;
  v.dentries_freed -= b.dentries_freed;
  v.inodes_scanned -= b.inodes_scanned;
  v.inodes_freed -= b.inodes_freed;
  v.shrinker_batches -= b.shrinker_batches;
  return v;
}

MetadataBlockStats since(MetadataBlockStats m, const MetadataBlockStats& b) {
  m.lookups -= b.lookups;
  m.hits -= b.hits;
  m.blocks_read -= b.blocks_read;
  return m;
}

ServerStats since(ServerStats s, const ServerStats& b) {
  // `connections` stays, as a worker's `accepted` does: the load's connections, open since the warm-up.
  s.requests -= b.requests;
  s.responses -= b.responses;
  for (const auto& [reason, n] : b.failed) s.failed[reason] -= n;
  std::erase_if(s.failed, [](const auto& kv) { return kv.second == 0; });
  s.responses_delayed -= b.responses_delayed;
  s.blocked_wait_s -= b.blocked_wait_s;
  s.blocked_before_first_byte_s -= b.blocked_before_first_byte_s;
  s.ttfb_s -= b.ttfb_s;
  s.log.erase(s.log.begin(), s.log.begin() + static_cast<std::ptrdiff_t>(std::min(b.log.size(), s.log.size())));
  s.log_lines -= b.log_lines;
  return s;
}

PoolStats since(PoolStats p, const PoolStats& b) {
  p.tasks -= b.tasks;
  p.overflows -= b.overflows;
  p.waiting_integral -= b.waiting_integral;
  p.busy_integral -= b.busy_integral;
  return p;
}

WorkerCounts since(WorkerCounts w, const WorkerCounts& b) {
  // `accepted` stays: the connections a worker holds were accepted when the load began.
  w.requests -= b.requests;
  w.blocks -= b.blocks;
  w.pool = since(w.pool, b.pool);
  for (std::size_t i = 0; i < w.pools.size() && i < b.pools.size(); ++i) w.pools[i] = since(w.pools[i], b.pools[i]);
  w.read_paths.probes -= b.read_paths.probes;
  w.read_paths.misses -= b.read_paths.misses;
  w.read_paths.races -= b.read_paths.races;
  w.read_paths.uring_reads -= b.read_paths.uring_reads;
  w.read_paths.uring_async -= b.read_paths.uring_async;
  return w;
}

// Each named pool over the workers (one of each per worker), with several pools.
void pool_figures(const RunParts& p, double run_s, RunResult& r) {
  const std::vector<ThreadPoolConfig> pools = all_thread_pools(p.scenario.nginx);
  if (pools.size() < 2 || p.scenario.nginx.aio->io_uring) return;  // a ring has its one pool
  const auto n = static_cast<double>(p.workers.size());
  for (std::size_t i = 0; i < pools.size(); ++i) {
    RunResult::PoolFigures f;
    f.name = pools[i].name;
    f.threads = pools[i].threads;
    double waiting = 0, busy = 0;
    for (const WorkerCounts& w : p.workers) {
      if (i >= w.pools.size()) continue;
      const PoolStats& s = w.pools[i];
      f.tasks += s.tasks;
      f.overflows += s.overflows;
      f.max_waiting = std::max(f.max_waiting, s.max_waiting);
      waiting += s.waiting_integral;
      busy += s.busy_integral;
    }
    // Little's law: the summed time tasks waited is the queue length's integral.
    f.mean_queue_wait_s = f.tasks ? waiting / static_cast<double>(f.tasks) : 0;
    f.mean_waiting = run_s > 0 && n > 0 ? waiting / run_s / n : 0;
    f.utilization = run_s > 0 && n > 0 ? busy / run_s / n / pools[i].threads : 0;
    r.pool_figures.push_back(f);
  }
}

// Each disk of a set ([disk], then [disks.NAME]): its drives' iostat figures together.
void disk_figures(const RunParts& p, RunResult& r) {
  if (!p.disks) return;
  std::size_t drive = 0;
  for (std::size_t m = 0; m < p.disks->members(); ++m) {
    RunResult::DiskFigures f;
    f.name = m == 0 ? "disk" : p.disks->name(m);  // a key of the JSON (no dot)
    f.mount = m == 0 ? p.scenario.hardware.disk_mount : p.scenario.hardware.disks[m - 1].mount;
    const std::size_t drives = p.disks->member(m).drive_stats().size();
    f.drives = static_cast<std::uint32_t>(drives);
    double requests = 0;
    for (std::size_t d = drive; d < drive + drives && d < r.drive_iostat.size(); ++d) {
      const RunResult::DriveIostat& x = r.drive_iostat[d];
      f.read_bytes_per_s += x.rkb_s * 1024;
      f.utilization += x.util / static_cast<double>(drives);
      f.busiest_utilization = std::max(f.busiest_utilization, x.util);
      f.avgqu_sz += x.avgqu_sz;
      f.await_ms += x.await_ms * x.r_s;
      requests += x.r_s;
    }
    f.await_ms = requests > 0 ? f.await_ms / requests : 0;
    drive += drives;
    r.disk_figures.push_back(f);
  }
}
}  // namespace

std::string slot_wait_channel(const Scenario& sc) {
  if (!sc.hardware.block_queue) return "";
  const ElevatorChoice* e = find_elevator(sc.hardware.block.scheduler);
  return e ? (e->blk_mq ? "blk_mq_get_tag" : "get_request") : "";
}

PoolStats pools_together(const std::vector<PoolStats>& pools) {
  PoolStats out;
  for (const PoolStats& s : pools) {
    out.tasks += s.tasks;
    out.overflows += s.overflows;
    out.max_waiting = std::max(out.max_waiting, s.max_waiting);
    out.waiting_integral += s.waiting_integral;
    out.busy_integral += s.busy_integral;
  }
  return out;
}

WindowStart window_start(const RunParts& p) {
  WindowStart w;
  w.at = p.now;
  w.nic_interface_bytes_sent = p.nic_interface_bytes_sent;
  w.kernel_cpu_s = p.kernel_cpu_s;
  w.workers = p.workers;
  w.cache = p.cache.stats();
  w.vfs = p.vfs.stats();
  w.blocks = p.cache.block_stats();
  w.metadata_reads = p.walk.metadata_reads();
  w.disk = p.disk.stats();
  w.drives = p.disk.drive_stats();
  w.server = p.server;
  return w;
}

RunResult run_figures(RunParts p) {
  const Scenario& sc = p.scenario;
  const TaskStates& tasks = p.tasks;
  const WindowStart& base = p.start;
  const sim::Time from = base.at, now = p.now;
  const double run_s = sim::to_seconds(now - from);
  if (!base.workers.empty())
    for (std::size_t w = 0; w < p.workers.size(); ++w) p.workers[w] = since(p.workers[w], base.workers[w]);
  RunResult r;
  r.scenario = sc.name;
  r.file = sc.file;
  r.seed = p.seed;
  r.nginx_version = sc.nginx.version;
  r.duration_s = sim::to_seconds(p.duration);
  r.clients = std::move(p.clients);
  for (const WrkResult& c : r.clients) {
    r.latency_all.merge(c.raw);
    r.in_flight_age_all.merge(c.in_flight_age);
    r.in_flight_all += c.in_flight;
    if (!c.stages.recorded) continue;
    r.requests_with_stages += c.stages.requests;
    r.requests_without_disk_wait += c.stages.without_disk_wait;
  }

  r.nic_out_bytes_per_s = p.ifstat.out_bytes_per_s();
  r.nic_in_bytes_per_s = p.ifstat.in_bytes_per_s();
  r.nic_out_gbps_mean = run_s > 0 ? (p.nic_interface_bytes_sent - base.nic_interface_bytes_sent) * 8 / run_s / 1e9 : 0;
  r.nic_payload_capacity_gbps = p.nic.payload_Bps() * 8 / 1e9;

  const std::uint32_t n = sc.nginx.worker_processes;
  r.logical_cpus = sc.hardware.logical_cpus;
  r.cpu_busy_frac = tasks.busy_cpus_mean(from, now) / r.logical_cpus;
  r.kernel_cpu_s = p.kernel_cpu_s - base.kernel_cpu_s;
  r.iowait_frac = tasks.iowait_fraction(from, now);
  r.scheduler = sc.kernel.sched.policy;
  for (std::uint32_t w = 0; w < n; ++w) {
    WorkerFigures f;
    f.connections = p.workers[w].accepted;
    f.requests = p.workers[w].requests;
    f.blocks = p.workers[w].blocks;
    f.running = tasks.group_mean(w, TaskState::kRunning, from, now);
    f.sleeping = tasks.group_mean(w, TaskState::kSleeping, from, now);
    f.disk_wait = tasks.group_mean(w, TaskState::kDiskWait, from, now);
    for (std::size_t c = 0; c < kWaitCauses; ++c) {
      f.blocked_by_cause[c] = tasks.group_cause_mean(w, static_cast<WaitCause>(c), from, now);
      r.workers_blocked_by_cause[c] += f.blocked_by_cause[c] / n;
    }
    f.cpu_wait = tasks.group_cpu_wait_mean(w, from, now);
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
  r.aio_nowait = sc.nginx.aio_nowait;
  r.io_uring = sc.nginx.aio->io_uring;
  for (std::uint32_t w = 0; w < n; ++w) {
    const ReadPathCounts& c = p.workers[w].read_paths;
    r.read_paths.probes += c.probes;
    r.read_paths.misses += c.misses;
    r.read_paths.races += c.races;
    r.read_paths.uring_reads += c.uring_reads;
    r.read_paths.uring_async += c.uring_async;
  }
  // io_uring's io-wq workers (or its page callbacks) run as a pool (nowait_probe.h).
  r.thread_pool = sc.nginx.aio->thread_pool || r.io_uring;
  if (r.thread_pool) {
    double per_worker = 0;  // every pool's threads run in every worker
    for (const ThreadPoolConfig& c : all_thread_pools(sc.nginx)) per_worker += c.threads;
    if (r.io_uring) per_worker = sc.nginx.io_uring.pool_threads;  // the ring's io-wq or wait entries
    const double threads = per_worker * n;
    r.pool_threads = static_cast<std::uint64_t>(threads);
    double waiting = 0, busiest = 0;
    r.pools = n;
    for (std::uint32_t w = 0; w < n; ++w) {
      const PoolStats& pool = p.workers[w].pool;
      r.pool_tasks += pool.tasks;
      r.pool_overflows += pool.overflows;
      r.pool_max_waiting = std::max(r.pool_max_waiting, pool.max_waiting);
      waiting += pool.waiting_integral;
      busiest = std::max(busiest, pool.waiting_integral);
      r.pool_running += tasks.group_mean(n + w, TaskState::kRunning, from, now) / threads;
      r.pool_sleeping += tasks.group_mean(n + w, TaskState::kSleeping, from, now) / threads;
      r.pool_disk_wait += tasks.group_mean(n + w, TaskState::kDiskWait, from, now) / threads;
      for (std::size_t c = 0; c < kWaitCauses; ++c)
        r.pool_blocked_by_cause[c] += tasks.group_cause_mean(n + w, static_cast<WaitCause>(c), from, now) / threads;
      r.pool_cpu_wait += tasks.group_cpu_wait_mean(n + w, from, now) / threads;
    }
    // Per pool, as max_waiting is: the integral summed over the n pools is n pools' worth.
    r.pool_mean_waiting = run_s > 0 ? waiting / run_s / n : 0;
    r.pool_busiest_mean_waiting = run_s > 0 ? busiest / run_s : 0;
    pool_figures(p, run_s, r);
  }

  const PageCacheStats c = p.cache.stats();
  r.cache_lookups = c.lookups - base.cache.lookups;
  const std::uint64_t hits = c.hits - base.cache.hits;
  r.cache_hit_ratio = r.cache_lookups ? static_cast<double>(hits) / static_cast<double>(r.cache_lookups) : 0;
  r.cache_resident_bytes = c.resident_units * p.cache.unit_bytes();
  r.cache_capacity_bytes = sc.hardware.page_cache_bytes;
  r.cache_unit_bytes = p.cache.unit_bytes();
  r.readahead_windows = c.readahead_windows - base.cache.readahead_windows;
  r.bios = c.bios - base.cache.bios;
  r.directio = sc.nginx.directio > 0;
  r.direct_reads = c.direct_reads - base.cache.direct_reads;
  r.direct_bytes = c.direct_bytes - base.cache.direct_bytes;
  const VfsCacheStats v = since(p.vfs.stats(), base.vfs);
  r.dentry_lookups = v.dentry_lookups;
  r.dentry_hits = v.dentry_hits;
  r.inode_lookups = v.inode_lookups;
  r.inode_hits = v.inode_hits;
  r.dentries_freed = v.dentries_freed;
  r.inodes_freed = v.inodes_freed;
  const MetadataBlockStats b = since(p.cache.block_stats(), base.blocks);
  r.metadata_block_lookups = b.lookups;
  r.metadata_block_hits = b.hits;
  r.metadata_blocks_read = b.blocks_read;
  r.metadata_reads = p.walk.metadata_reads() - base.metadata_reads;

  const DiskStats d = since(p.disk.stats(), base.disk);
  r.drives = d.drives;
  r.disk_reads = d.reads;
  r.disk_read_bytes_per_s = run_s > 0 ? static_cast<double>(d.read_bytes) / run_s : 0;
  r.disk_mean_queue_depth = run_s > 0 ? d.queue_depth_integral / run_s / d.drives : 0;
  r.disk_utilization = run_s > 0 ? d.busy_s / run_s / d.drives : 0;
  const std::vector<DiskStats> drives = p.disk.drive_stats();
  for (std::size_t i = 0; i < drives.size(); ++i)
    r.drive_iostat.push_back(iostat_of(i < base.drives.size() ? since(drives[i], base.drives[i]) : drives[i], run_s));
  for (const RunResult::DriveIostat& x : r.drive_iostat) r.disk_busiest_utilization = std::max(r.disk_busiest_utilization, x.util);
  disk_figures(p, r);
  r.slot_wait_channel = slot_wait_channel(sc);

  const ServerStats s = since(p.server, base.server);
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
