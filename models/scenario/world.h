// A scenario assembled and running: the engine and every model in it.
// Front ends (clerk run, the visualizer, sweeps) own a World, advance it, and
// read its parts; `result()` gathers the figures of a finished run.
//
// A run is the scenario's warm-up (warmup.h), then the measured window of
// `duration_s`; the load runs through both. The figures cover the window.
#pragma once
#include <memory>
#include <vector>

#include "models/clients/wrk.h"
#include "models/hardware/block_device.h"
#include "models/os/filesystem.h"
#include "models/os/kernel_work.h"
#include "models/os/host.h"
#include "models/scenario/ifstat.h"
#include "models/scenario/result.h"
#include "models/scenario/run_figures.h"
#include "models/scenario/scenario.h"
#include "models/scenario/warmup.h"
#include "models/scenario/world_files.h"
#include "models/server/nginx.h"

namespace models {

// Each trace group's log read once (trace.h): its paths' files, and the data
// set grown or replaced to hold them. A log that cannot be read, or of which
// no line parses, is a ConfigError at the group's trace key. World's
// constructor does it; clerk realrun too, to write the same data set and
// replay the same lines for real.
Scenario with_traces(Scenario sc, const sim::RandomStreams& streams);

class World final : public sim::EventTarget {
 public:
  World(const Scenario& scenario, std::uint64_t seed, double duration_s);
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  void run_until(sim::Time t) { engine_.run_until(t); }
  // The warm-up, then the measured window.
  void run();
  // The end of the run: the window's end once the warm-up is over, before
  // that the latest it can be (the warm-up's cap, then the window).
  sim::Time duration() const;
  bool measuring() const { return measuring_; }
  sim::Time window_start() const { return window_.at; }
  // The counters when the measured window began (zeros before it).
  const WindowStart& window() const { return window_; }
  const WarmupReport& warmup() const { return monitor_.report(); }
  RunResult result(double wall_s);

  sim::Engine& engine() { return engine_; }
  Nginx& server() { return *server_; }
  PageCache& cache() { return *cache_; }
  BlockDevice& disk() { return *disk_; }
  Nic& nic() { return *nic_; }
  TaskStates& tasks() { return *tasks_; }
  Cpu& cpu() { return *cpu_; }
  const VfsCache& vfs() const { return *metadata_.vfs; }
  const PathWalk& walk() const { return *metadata_.walk; }
  Wrk& clients() { return *clients_; }
  const Scenario& scenario() const { return scenario_; }
  std::uint64_t seed() const { return seed_; }

  void on_event(std::uint64_t arg) override;  // the once-a-second sampler, the warm-up's probe
  // Second by second (element i: [i, i+1) s): the share of the responses the
  // server finished that waited behind a loop blocked on another request
  // (Cloudflare's event_loop_blocked); NaN for a second without responses.
  const std::vector<double>& delayed_share_per_s() const { return delayed_share_; }

 private:
  enum Event : std::uint64_t { kIfstat = 0, kWarmup = 1 };
  struct Prepared {};  // the scenario's trace groups are planned (world.cpp with_traces)
  World(const Scenario& scenario, std::uint64_t seed, double duration_s, Prepared);
  void begin_window();
  RunParts parts(std::vector<WrkResult> clients, std::vector<WorkerCounts> workers);
  std::vector<WorkerCounts> worker_counts();
  WarmupProbe probe() const;

  Scenario scenario_;
  std::uint64_t seed_;
  sim::Time duration_;
  sim::Engine engine_;
  sim::RandomStreams streams_;
  std::unique_ptr<Cpu> cpu_;
  std::unique_ptr<Nic> nic_;
  std::unique_ptr<Sockets> sockets_;
  std::unique_ptr<BlockDevice> disk_;
  const DiskSet* disk_set_ = nullptr;  // disk_ when the machine has [disks.NAME]
  std::unique_ptr<PageCache> cache_;
  std::unique_ptr<KernelWork> kernel_work_;
  MetadataCaches metadata_;
  std::unique_ptr<TaskStates> tasks_;
  std::unique_ptr<Host> host_;
  std::unique_ptr<Filesystem> files_;
  std::unique_ptr<Nginx> server_;
  std::unique_ptr<Wrk> clients_;
  Ifstat ifstat_;
  std::vector<double> delayed_share_;
  std::uint64_t last_responses_ = 0, last_delayed_ = 0;
  WarmupMonitor monitor_;
  WindowStart window_;
  bool measuring_ = false;
};

}  // namespace models
