#include "engines/simgrid/sg_world.h"

#include <algorithm>
#include <simgrid/s4u/Actor.hpp>
#include <stdexcept>
#include <xbt/log.h>

#include "engines/simgrid/sg_disks.h"
#include "engines/simgrid/sg_worker.h"
#include "models/scenario/run_figures.h"
#include "models/scenario/stream_ids.h"
#include "models/scenario/world_files.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

namespace {
constexpr sim::Time kSecond = sim::seconds(1);
constexpr sim::Time kWrkRecord = sim::milliseconds(100);  // wrk's RECORD_INTERVAL_MS
}  // namespace

SgWorld::SgWorld(const models::Scenario& sc, std::uint64_t seed, double duration_s)
    : scenario_(sc),
      seed_(seed),
      duration_(sim::from_seconds_nearest(duration_s)),
      engine_("clerk"),
      streams_(seed),
      monitor_(sc.warmup, false) {
  sigint_.restore();
  configure_engine();
  const models::HardwareSpec& hw = sc.hardware;
  platform_ = build_platform(hw);
  nic_ = std::make_unique<SgNic>(platform_, hw.nic);
  disk_ = make_sg_disk(platform_, hw, streams_);  // as [disk] type says (sg_disks.h)
  cache_ = std::make_unique<models::PageCache>(
      *disk_, models::PageCacheSpec{hw.page_cache_bytes, hw.cache_unit_bytes, 1024 * 1024});
  sim::RandomStream metadata_rng = streams_.stream(models::kStreamMetadata);
  const std::uint64_t write_seed = metadata_rng.next_u64();
  metadata_ = models::make_metadata_caches(sc, *disk_, disk_->capacity(), *cache_, metadata_rng, write_seed);
  const std::uint32_t workers = sc.nginx.worker_processes;
  tasks_ = std::make_unique<models::TaskStates>(hw.logical_cpus, 2 * workers);
  disk_->set_slot_wait_listener(tasks_.get());  // request-slot sleeps put the submitter in D
  host_ = std::make_unique<SgHost>(SgHost{platform_, *nic_, *cache_, *metadata_.walk, *tasks_, hw.costs, sc.kernel});
  files_ = models::make_filesystem(sc, *cache_, disk_->capacity(), metadata_, streams_);
  models::tie_inodes_to_pages(metadata_, *files_, *cache_);
  models::warm_caches(sc, *files_, *metadata_.vfs, *cache_);
  clients_ = std::make_unique<SgClients>(platform_, sc.clients, hw.one_way_latency_s, duration_, streams_,
                                         models::file_pickers(sc, *files_, streams_),
                                         models::response_bytes(sc, *files_), hw.costs);
  server_ = std::make_unique<SgServer>(*host_, models::server_config(sc), *files_, *clients_,
                                       streams_.stream(models::kStreamServer));
  monitor_ = models::WarmupMonitor(sc.warmup, models::nothing_to_settle(sc, *files_),
                                   models::data_fits(sc, *files_));
  clients_->start(*server_);
  // The one actor that is not a daemon: when it returns, SimGrid ends the run.
  sg4::Actor::create("clock", platform_.clients, [this] { clock(); });
}

SgWorld::~SgWorld() = default;

SgWorld::QuietAbandon::~QuietAbandon() {
  if (engine_.get_actor_count() > 0) xbt_log_control_set("ker_engine.thresh:error");
}

void SgWorld::run() { engine_.run(); }

void SgWorld::clock() {
  // The same order of work at one instant as models::World's events: the
  // warm-up's probe, then ifstat's sample, then wrk's record_rate().
  constexpr sim::Time kNever = INT64_MAX;
  sim::Time next_tick = kWrkRecord;
  sim::Time next_sample = kNever, next_probe = kNever;
  end_ = kNever;
  if (monitor_.over_at_start()) {
    begin_window(0);
    next_sample = kSecond;
  } else {
    next_probe = monitor_.interval();
  }
  for (;;) {
    const sim::Time next = std::min({next_tick, next_sample, next_probe, end_});
    sg4::this_actor::sleep_until(sim::to_seconds(next));
    ++resumptions();
    if (next == end_) clients_->stop();
    if (next == next_probe) {
      if (monitor_.sample(next, probe())) {
        begin_window(next);
        next_probe = kNever;
        next_sample = next + kSecond;
      } else {
        next_probe += monitor_.interval();
      }
    }
    if (next == next_sample) {
      sample();
      next_sample += kSecond;
    }
    if (next == next_tick) {
      clients_->tick();
      next_tick += kWrkRecord;
    }
    if (next == end_) {
      // Take the figures now, while every actor and transfer still exists.
      final_ = figures();
      return;
    }
  }
}

models::WarmupProbe SgWorld::probe() const {
  const models::PageCacheStats c = cache_->stats();
  return models::WarmupProbe{c.lookups,          c.hits,
                             c.evicted_units,    c.resident_units,
                             scenario_.hardware.page_cache_bytes / cache_->unit_bytes(),
                             metadata_.vfs->stats().dentry_lookups, metadata_.vfs->stats().dentry_hits};
}

// As models::World::begin_window().
void SgWorld::begin_window(sim::Time now) {
  window_ = models::window_start(parts({}, now));
  tasks_->restart(now);
  disk_->reset_peaks();
  for (std::uint32_t w = 0; w < server_->workers(); ++w)
    if (SgPool* pool = server_->worker(w).pool()) pool->reset_peak();
  ifstat_.restart(nic_->spec(), nic_->payload_sent(), server_->stats().requests);
  if (now > 0) clients_->begin_window();
  end_ = now + duration_;
}

void SgWorld::sample() { ifstat_.sample(nic_->spec(), nic_->payload_sent(), server_->stats().requests); }

models::RunResult SgWorld::result(double wall_s) {
  models::RunResult r = final_;
  r.wall_s = wall_s;
  return r;
}

std::vector<models::WorkerCounts> SgWorld::worker_counts() {
  std::vector<models::WorkerCounts> workers;
  for (std::uint32_t w = 0; w < server_->workers(); ++w) {
    SgWorker& worker = server_->worker(w);
    // One pool at most: several are refused (sg_support.cpp).
    std::vector<models::PoolStats> pools;
    if (worker.pool()) pools.push_back(worker.pool()->stats());
    workers.push_back(models::WorkerCounts{worker.accepted, worker.requests, worker.blocks,
                                           models::pools_together(pools), pools, models::ReadPathCounts{}});
  }
  return workers;
}

models::RunResult SgWorld::figures() {
  // Taken by the clock actor at the run's end, while every actor still exists.
  models::RunResult r = models::run_figures(parts(clients_->finish(), end_));
  r.warmup = monitor_.report();
  r.events = resumptions();
  return r;
}

models::RunParts SgWorld::parts(std::vector<models::WrkResult> clients, sim::Time now) {
  return models::RunParts{.scenario = scenario_,
                       .seed = seed_,
                       .duration = duration_,
                       .now = now,
                       .clients = std::move(clients),
                       .ifstat = ifstat_,
                       .nic = nic_->spec(),
                       .nic_interface_bytes_sent = nic_->interface_bytes_sent(),
                       .tasks = *tasks_,
                       .kernel_cpu_s = 0,  // refused by name (sg_support.cpp)
                       .workers = worker_counts(),
                       .cache = *cache_,
                       .vfs = *metadata_.vfs,
                       .walk = *metadata_.walk,
                       .disk = *disk_,
                       .server = server_->stats(),
                       .start = window_};
}

}  // namespace sgengine
