// The figures of one run, in the tools' own terms.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/clients/wrk.h"
#include "models/os/task_states.h"
#include "models/scenario/warmup.h"

namespace models {

// Time in D by cause (WaitCause), as the mean number of a group's tasks
// waiting for it: a fraction of the run per task once divided by the tasks.
using BlockedByCause = std::array<double, kWaitCauses>;

struct WorkerFigures {
  std::uint64_t connections = 0;
  std::uint64_t requests = 0;
  std::uint64_t blocks = 0;  // times the loop went into D state
  double running = 0, sleeping = 0, disk_wait = 0;
  BlockedByCause blocked_by_cause{};
  double cpu_wait = 0;  // part of running: runnable, waiting for a CPU (a scheduler only)
};

// aio_nowait and io_uring (models/server/nowait_probe.h): the RWF_NOWAIT
// probes, those that found the chunk missing (to the pool), those that found
// it resident but whose sendfile() blocked (evicted since: the race); io_uring
// reads, and those not completed inline (io-wq or page callbacks).
struct ReadPathCounts {
  std::uint64_t probes = 0, misses = 0, races = 0;
  std::uint64_t uring_reads = 0, uring_async = 0;
};

struct RunResult {
  std::string scenario;
  std::string file;
  std::uint64_t seed = 0;
  std::string nginx_version;  // the release whose defaults were modelled (nginx_versions.h)
  double duration_s = 0;
  double wall_s = 0;
  std::uint64_t events = 0;
  WarmupReport warmup;  // how the caches converged before the measured window
  std::vector<WrkResult> clients;
  // Every group's responses merged by counts (their histograms added, never
  // their percentiles averaged): the total latency of every completed
  // response, uncorrected, and the censored tail with the requests still in
  // flight at the end counted at their age.
  sim::LatencyStats latency_all, in_flight_age_all;
  std::uint64_t in_flight_all = 0;
  // ifstat: interface bytes per second, one entry per second of the run.
  std::vector<double> nic_out_bytes_per_s;
  std::vector<double> nic_in_bytes_per_s;
  double nic_out_gbps_mean = 0;
  double nic_payload_capacity_gbps = 0;
  // top
  double workers_running = 0, workers_sleeping = 0, workers_disk_wait = 0;
  double pool_running = 0, pool_sleeping = 0, pool_disk_wait = 0;
  BlockedByCause workers_blocked_by_cause{}, pool_blocked_by_cause{};  // per task, fractions of the run
  std::uint32_t logical_cpus = 0;
  double cpu_busy_frac = 0;
  double kernel_cpu_s = 0;         // CPU time of the kernel's own work (reads into the page cache)
  double iowait_frac = 0;
  // The CPU scheduler (kernel.scheduler) and the time runnable tasks waited
  // for a CPU (part of R; always 0 with processor sharing).
  std::string scheduler;
  double workers_cpu_wait = 0, pool_cpu_wait = 0;
  std::vector<WorkerFigures> workers;
  double fairness = 0;             // Jain's index over requests per worker (1: perfectly even)
  double busiest_share = 0;        // the busiest worker's share of all requests
  // The share of requests one blocking read holds up, on average: the sum over
  // workers of (its share of blocks) x (its share of requests). 1/n when
  // both are even over n workers.
  double share_behind_one_block = 0;
  double blocked_wait_s = 0;       // event_loop_blocked: waits behind a loop in D state, summed
  double responses_delayed_share = 0;  // share of responses that waited behind one
  std::vector<double> responses_delayed_share_per_s;  // the same, second by second (NaN: no responses)
  double blocked_before_first_byte_s = 0;  // the part of those waits before each header
  double server_ttfb_s = 0;                // server-side time to first byte, summed over requests
  // thread pools (all workers together)
  bool thread_pool = false;
  // Tasks waiting in a pool's queue, all over one population, the pool (one
  // per worker): the time-averaged number in a pool (mean over the pools),
  // the busiest pool's time average, and the most any one pool held.
  std::uint64_t pool_threads = 0, pool_tasks = 0, pool_overflows = 0, pool_max_waiting = 0;
  double pool_mean_waiting = 0, pool_busiest_mean_waiting = 0;
  std::uint32_t pools = 0;
  // With several named pools ([[nginx.thread_pool]]): each over the workers
  // (one of each per worker). mean_waiting: tasks in its queue, time-averaged,
  // per worker's pool; mean_queue_wait_s: a task's wait for a thread (the
  // queue's integral over its tasks, Little's law); utilization: its threads'
  // busy share. Empty with one pool.
  struct PoolFigures {
    std::string name;
    std::uint32_t threads = 0;
    std::uint64_t tasks = 0, overflows = 0, max_waiting = 0;
    double mean_waiting = 0, mean_queue_wait_s = 0, utilization = 0;
  };
  std::vector<PoolFigures> pool_figures;
  bool aio_nowait = false, io_uring = false;
  ReadPathCounts read_paths;  // all workers together
  // page cache and dentry cache. A lookup is of one cache unit
  // (cache_unit_bytes: memory.cache_unit, 64 KiB unless set; 4 KiB pages when
  // cache_unit = 4k), counted as a hit when found ready without waiting.
  double cache_hit_ratio = 0;
  std::uint64_t cache_unit_bytes = 0;
  // Per request: responses that never waited for the disk (StageTable::
  // without_disk_wait), of the responses whose stages were recorded (0 of 0:
  // the engine records none).
  std::uint64_t requests_without_disk_wait = 0, requests_with_stages = 0;
  std::uint64_t cache_lookups = 0, cache_resident_bytes = 0, cache_capacity_bytes = 0, readahead_windows = 0, bios = 0;
  // O_DIRECT reads (nginx.directio), which pass the page cache by: not lookups.
  // directio: the scenario sets nginx.directio, so the JSON has the section
  // (zeros when no file reached the threshold), as json_skeleton says.
  bool directio = false;
  std::uint64_t direct_reads = 0, direct_bytes = 0;
  std::uint64_t dentry_lookups = 0, dentry_hits = 0, metadata_reads = 0;
  // inode cache lookups after a dentry miss; buffer-cache lookups of
  // directory and inode-table blocks; what the shrinker freed
  std::uint64_t inode_lookups = 0, inode_hits = 0;
  std::uint64_t metadata_block_lookups = 0, metadata_block_hits = 0, metadata_blocks_read = 0;
  std::uint64_t dentries_freed = 0, inodes_freed = 0;
  // disk
  std::uint32_t drives = 0;
  std::uint64_t disk_reads = 0;
  // Means over the drives of each drive's figure (iostat -x's avgqu-sz and
  // %util; one drive: its own), and the busiest drive's %util.
  double disk_read_bytes_per_s = 0, disk_mean_queue_depth = 0, disk_utilization = 0, disk_busiest_utilization = 0;
  // Each drive as `iostat -x` prints it (models/hardware/block_queue.h keeps
  // the counters as /proc/diskstats does), with the request-slot sleeps.
  struct DriveIostat {
    // util: %util as iostat computes it, io_ticks over the window: the time
    // with at least one request in flight (allocated, queued or at the
    // drive), not the requests' summed service time.
    double r_s = 0, rkb_s = 0, rrqm_s = 0, avgrq_kb = 0, avgqu_sz = 0, await_ms = 0, util = 0;
    std::uint64_t slot_waits = 0;
    double slot_wait_ms = 0;  // mean sleep for a slot
    std::uint32_t max_outstanding = 0, max_sleepers = 0;
  };
  std::vector<DriveIostat> drive_iostat;
  // With [disks.NAME]: each disk of the set, [disk] first, from its drives'
  // iostat figures (util: mean over its drives; await: weighted by r/s).
  // Empty with one disk.
  struct DiskFigures {
    std::string name, mount;
    std::uint32_t drives = 0;
    double read_bytes_per_s = 0, utilization = 0, busiest_utilization = 0, avgqu_sz = 0, await_ms = 0;
  };
  std::vector<DiskFigures> disk_figures;
  // The kernel's wait channel of a request-slot sleep: "get_request" (the
  // single-queue layer, 3.13) or "blk_mq_get_tag"; empty without a block layer.
  std::string slot_wait_channel;
  // server
  std::uint64_t server_connections = 0, server_requests = 0, server_responses = 0;
  std::map<std::string, std::uint64_t> server_failed;
  std::vector<std::string> error_log;
  std::uint64_t error_log_lines = 0;
};

}  // namespace models
