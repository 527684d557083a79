// A scenario assembled on SimGrid: the counterpart of models::World. The
// machines are SimGrid resources (sg_platform.h); workers, pool threads,
// NIC senders, disk reads and client sockets are actors; the page cache,
// path lookup, file layout and task states are the native models' own
// classes, fed with SimGrid's clock. One clock actor stops the run at its
// duration and takes ifstat's and wrk's periodic samples.
//
// SimGrid allows one engine per process, and it cannot be restarted: build
// and run one SgWorld per process (sg_run.h does it in a child process).
#pragma once
#include <cstdint>
#include <memory>
#include <simgrid/s4u/Engine.hpp>
#include <vector>

#include "engines/simgrid/sg_clients.h"
#include "engines/simgrid/sg_host.h"
#include "engines/simgrid/sg_nic.h"
#include "engines/simgrid/sg_platform.h"
#include "engines/simgrid/sg_server.h"
#include "models/scenario/world_files.h"
#include "models/os/filesystem.h"
#include "models/scenario/ifstat.h"
#include "models/scenario/result.h"
#include "models/scenario/run_figures.h"
#include "models/scenario/warmup.h"
#include "models/scenario/scenario.h"

namespace sgengine {

class SgWorld {
 public:
  SgWorld(const models::Scenario& scenario, std::uint64_t seed, double duration_s);
  ~SgWorld();
  SgWorld(const SgWorld&) = delete;
  SgWorld& operator=(const SgWorld&) = delete;

  void run();
  models::RunResult result(double wall_s);

 private:
  void clock();  // actor body: periodic samples, then the end of the run
  void sample();
  void begin_window(sim::Time now);
  models::WarmupProbe probe() const;
  std::vector<models::WorkerCounts> worker_counts();
  models::RunParts parts(std::vector<models::WrkResult> clients, sim::Time now);
  models::RunResult figures();

  models::Scenario scenario_;
  std::uint64_t seed_;
  sim::Time duration_;
  simgrid::s4u::Engine engine_;
  sim::RandomStreams streams_;
  Platform platform_;
  std::unique_ptr<SgNic> nic_;
  std::unique_ptr<models::BlockDevice> disk_;
  std::unique_ptr<models::PageCache> cache_;
  models::MetadataCaches metadata_;
  std::unique_ptr<models::TaskStates> tasks_;
  std::unique_ptr<SgHost> host_;
  std::unique_ptr<models::Filesystem> files_;
  std::unique_ptr<SgClients> clients_;
  std::unique_ptr<SgServer> server_;
  models::Ifstat ifstat_;
  models::WarmupMonitor monitor_;
  models::WindowStart window_;
  sim::Time end_ = 0;  // the measured window's end, once it has begun
  models::RunResult final_;
};

}  // namespace sgengine
