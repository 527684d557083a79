// The figures of a finished run (RunResult), gathered the same way by both
// engines from the models' own counters: the engines differ in how the run
// went, never in what is reported of it.
#pragma once
#include <cstdint>
#include <vector>

#include "models/clients/wrk_result.h"
#include "models/hardware/block_device.h"
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
  PoolStats pool;  // with aio threads
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
};

// Every figure but the two an engine alone knows: wall_s and events.
RunResult run_figures(RunParts parts);

}  // namespace models
