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
#include <csignal>
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

  // SIGINT's disposition from before SimGrid's engine. The engine takes
  // SIGINT for itself as it starts (EngineImpl::initialize,
  // src/kernel/EngineImpl.cpp: std::signal(SIGINT, inthandler)): Ctrl-C then
  // listed every actor and exited 1 (probe 5, finding 8), and a job started
  // with SIGINT ignored lost that. The native engine leaves SIGINT alone (its
  // default ends the run, 130 in the shell); so does this world, by putting
  // the disposition back as soon as the engine exists, before the world is
  // built (a Ctrl-C while building a large world once reached SimGrid's
  // handler), and again when the world goes.
  class KeptSigint {
   public:
    KeptSigint() { ::sigaction(SIGINT, nullptr, &before_); }
    ~KeptSigint() { restore(); }
    KeptSigint(const KeptSigint&) = delete;
    KeptSigint& operator=(const KeptSigint&) = delete;
    void restore() const { ::sigaction(SIGINT, &before_, nullptr); }

   private:
    struct sigaction before_ {};
  };

  // A world given up before its run ended (a scenario refused while the
  // world is built, like a preload larger than the cache, after the NIC's
  // and the disk's actors exist) leaves actors to SimGrid's shutdown: the
  // engine's destructor, then its atexit handler, each wrote "Process called
  // exit when leaving - Skipping cleanups" (EngineImpl::shutdown), around
  // clerk's own error message (probe 5). Skipping that cleanup is right (the
  // process ends with the error; the exit status is clerk's); the warning is
  // noise, so SimGrid's engine warnings are silenced then, and only then: a
  // run that ended leaves no actor. Destroyed before engine_ (declared after).
  class QuietAbandon {
   public:
    explicit QuietAbandon(const simgrid::s4u::Engine& engine) : engine_(engine) {}
    ~QuietAbandon();
    QuietAbandon(const QuietAbandon&) = delete;
    QuietAbandon& operator=(const QuietAbandon&) = delete;

   private:
    const simgrid::s4u::Engine& engine_;
  };

  models::Scenario scenario_;
  std::uint64_t seed_;
  sim::Time duration_;
  KeptSigint sigint_;  // before engine_: saved before SimGrid replaces it
  simgrid::s4u::Engine engine_;
  QuietAbandon quiet_{engine_};  // after engine_: destroyed before it
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
