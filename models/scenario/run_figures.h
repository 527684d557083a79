// The figures of a finished run (RunResult), gathered the same way by both
// engines from the models' own counters: the engines differ in how the run
// went, never in what is reported of it.
#pragma once
#include <cstdint>
#include <vector>

#include "models/clients/wrk_result.h"
#include "models/hardware/block_device.h"
#include "models/hardware/disk_set.h"
#include "models/os/vfs_cache.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"
#include "models/os/task_states.h"
#include "models/scenario/ifstat.h"
#include "models/scenario/result.h"
#include "models/scenario/scenario.h"
#include "models/server/pool_task.h"
#include "models/server/server_stats.h"

namespace models {

// What one worker process counted.
struct WorkerCounts {
  std::uint64_t accepted = 0;
  std::uint64_t requests = 0;
  std::uint64_t blocks = 0;
  PoolStats pool;  // with aio threads: its pools' together (max_waiting: the most in one)
  std::vector<PoolStats> pools;  // each pool (all_thread_pools' order, pool_choice.h)
  ReadPathCounts read_paths;  // with aio_nowait or io_uring
};

// A worker's pools' figures together (tasks, overflows and integrals summed).
PoolStats pools_together(const std::vector<PoolStats>& pools);

// The counters when the measured window began (the end of the warm-up;
// all zero without one): the figures cover only what came after. The time
// averages (task states, iowait) restart then instead (TaskStates::restart),
// and so do the maxima (reset_peaks). Connections accepted per worker are
// the exception: they are the load's connections, open since the warm-up.
struct WindowStart {
  sim::Time at = 0;
  double nic_interface_bytes_sent = 0;
  double kernel_cpu_s = 0;
  std::vector<WorkerCounts> workers;  // empty: zeros
  PageCacheStats cache;
  VfsCacheStats vfs;
  MetadataBlockStats blocks;
  std::uint64_t metadata_reads = 0;
  DiskStats disk;
  std::vector<DiskStats> drives;  // empty: zeros
  ServerStats server;
};

// The parts of a run that the figures come from, at its end (`now`).
struct RunParts {
  const Scenario& scenario;
  std::uint64_t seed;
  sim::Time duration;
  sim::Time now;
  std::vector<WrkResult> clients;
  const Ifstat& ifstat;
  const NicSpec& nic;
  double nic_interface_bytes_sent;
  const TaskStates& tasks;
  double kernel_cpu_s;
  std::vector<WorkerCounts> workers;
  const PageCache& cache;
  const VfsCache& vfs;
  const PathWalk& walk;
  const BlockDevice& disk;
  const ServerStats& server;
  const WindowStart& start;
  // With [disks.NAME]: the set `disk` is, for figures per disk (null: one disk).
  const DiskSet* disks = nullptr;
};

// The counters of `parts` now, as the start of a window (parts.clients unused).
WindowStart window_start(const RunParts& parts);

// Every figure but the two an engine alone knows: wall_s and events.
RunResult run_figures(RunParts parts);

// The kernel function a request waits in for a free slot of the block
// queue (server.disk.slot_wait_channel): blk_mq_get_tag with a blk-mq
// scheduler, get_request with a legacy one; empty without the block queue.
std::string slot_wait_channel(const Scenario& sc);

}  // namespace models
