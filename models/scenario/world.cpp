#include "models/scenario/world.h"

#include <algorithm>
#include <cmath>

#include "models/scenario/config_error.h"
#include "models/scenario/dataset_fit.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/run_figures.h"
#include "models/scenario/stream_ids.h"
#include "models/scenario/world_files.h"

namespace models {

namespace {
constexpr sim::Time kSecond = sim::seconds(1);
}  // namespace

Scenario with_traces(Scenario sc, const sim::RandomStreams& streams) {
  const WrkGroupSpec* planned = nullptr;  // the last trace group: the data set is made with its log
  for (WrkGroupSpec& g : sc.clients) {
    if (!g.trace.enabled()) continue;
    planned = &g;
    sim::RandomStream size_rng = streams.stream(kStreamSizes);
    const std::vector<std::uint64_t> sizes = draw_file_sizes(sc.filesystem, size_rng);
    try {
      TracePlan plan = plan_trace(g.trace, sc.filesystem, sizes,
                                  streams.stream(kTraceSampleStreams, group_stream_index(g.name)));
      sc.filesystem = std::move(plan.filesystem);
      g.trace.files = std::make_shared<const std::unordered_map<std::string, std::uint32_t>>(std::move(plan.files));
      g.trace.new_files = plan.new_files;
      g.trace.padding = plan.padding;
    } catch (const std::runtime_error& e) {
      throw ConfigError(g.trace.key_file, g.trace.key_line, "clients." + g.name + ".trace", e.what());
    }
  }
  // The loader checked the files the scenario names against the disk; the
  // logs' own it could not count (dataset_fit.h).
  if (planned)
    if (const std::string misfit = dataset_misfit(sc); !misfit.empty())
      throw ConfigError(planned->trace.key_file, planned->trace.key_line, "clients." + planned->name + ".trace",
                        "with the files of the access log: " + misfit);
  // A data set made of the log alone has other files than the paths the
  // other keys named.
  for (const std::string& p : sc.preload)
    if (resolve_path(sc.filesystem.tree, p) < 0)
      throw ConfigError(sc.preload_at.file, sc.preload_at.line, "preload",
                        "\"" + p + "\" is no file of the data set made from the access log (dataset = \"log\")");
  for (const WrkGroupSpec& g : sc.clients)
    if (g.fixed_file >= 0 && static_cast<std::uint64_t>(g.fixed_file) >= sc.filesystem.files)
      throw ConfigError(sc.files_at.file, sc.files_at.line, "clients." + g.name + ".path",
                        "names a file the data set made from the access log does not have");
  return sc;
}

World::World(const Scenario& scenario, std::uint64_t seed, double duration_s)
    : World(with_traces(scenario, sim::RandomStreams(seed)), seed, duration_s, Prepared{}) {}

World::World(const Scenario& sc, std::uint64_t seed, double duration_s, Prepared)
    : scenario_(sc), seed_(seed), duration_(sim::from_seconds_nearest(duration_s)), streams_(seed),
      monitor_(sc.warmup, false) {
  const HardwareSpec& hw = sc.hardware;
  const std::uint32_t workers = sc.nginx.worker_processes;
  tasks_ = std::make_unique<TaskStates>(hw.logical_cpus, 2 * workers);
  // The CPUs as the kernel.scheduler key says (models/os/cpu.h's registry).
  cpu_ = make_cpu(engine_, sc.kernel.sched, hw.topology, hw.logical_cpus, *tasks_);
  nic_ = std::make_unique<Nic>(engine_, hw.nic);
  sockets_ = std::make_unique<Sockets>(engine_, *nic_,
                                       TcpSenderSpec{.mss = hw.nic.mss(),
                                                     .initial_window = sc.kernel.initial_cwnd,
                                                     .slow_start_after_idle = sc.kernel.tcp_slow_start_after_idle,
                                                     .rto_min = sim::milliseconds(200),
                                                     .send_buffer = sc.kernel.tcp_wmem_max});
  // The device as [disk] type says (disk_kinds.h's registry).
  // [disk] alone, or with [disks.NAME] a set of disks (world_files.h).
  MachineDisks disks = make_disks(hw, engine_, streams_);
  disk_ = std::move(disks.device);
  disk_set_ = disks.set;
  disk_->set_slot_wait_listener(tasks_.get());  // request-slot sleeps put the submitter in D
  cache_ = std::make_unique<PageCache>(*disk_, PageCacheSpec{hw.page_cache_bytes, hw.cache_unit_bytes, 1024 * 1024});
  cache_->defer_wakeups(engine_);
  if (hw.costs.cache_fill_byte > 0) {
    kernel_work_ = std::make_unique<KernelWork>(
        *cpu_, *tasks_, *cache_, hw.costs, hw.block_irq_cpu < 0 ? kAnyCpu : static_cast<std::uint32_t>(hw.block_irq_cpu));
    cache_->set_fill_sink(kernel_work_.get());
  }
  sim::RandomStream metadata_rng = streams_.stream(kStreamMetadata);
  const std::uint64_t write_seed = metadata_rng.next_u64();
  metadata_ = make_metadata_caches(sc, *disk_, disks.first_capacity, *cache_, metadata_rng, write_seed);
  host_ = std::make_unique<Host>(Host{engine_, *cpu_, *nic_, *sockets_, *cache_, *metadata_.walk, *tasks_, hw.costs, sc.kernel});
  const DiskPlacement placement = disk_placement(sc, disks);
  files_ = make_filesystem(sc, *cache_, disks.first_capacity, metadata_, streams_, &placement);
  tie_inodes_to_pages(metadata_, *files_, *cache_);
  warm_caches(sc, *files_, *metadata_.vfs, *cache_);
  clients_ = std::make_unique<Wrk>(engine_, sc.clients, hw.one_way_latency_s, duration_, streams_,
                                   file_pickers(sc, *files_, streams_), response_bytes(sc, *files_), hw.costs, cpu_.get());
  server_ = std::make_unique<Nginx>(*host_, server_config(sc), *files_, *clients_, streams_.stream(kStreamServer));
  monitor_ = WarmupMonitor(sc.warmup, nothing_to_settle(sc, *files_), data_fits(sc, *files_));
  clients_->start(*server_, /*warm_up=*/!monitor_.over_at_start());
  if (monitor_.over_at_start())
    begin_window();
  else
    engine_.schedule_in(monitor_.interval(), this, kWarmup);
}

void World::run() {
  // The warm-up's probe ends it at one of its intervals.
  while (!measuring_) engine_.run_until(engine_.now() + monitor_.interval());
  engine_.run_until(duration());
}

sim::Time World::duration() const {
  if (measuring_) return window_.at + duration_;
  return sim::from_seconds_nearest(scenario_.warmup.longest_s()) + duration_;
}

WarmupProbe World::probe() const {
  const PageCacheStats c = cache_->stats();
  return WarmupProbe{c.lookups,        c.hits, c.evicted_units, c.resident_units, scenario_.hardware.page_cache_bytes / cache_->unit_bytes(),
                     metadata_.vfs->stats().dentry_lookups, metadata_.vfs->stats().dentry_hits};
}

void World::begin_window() {
  const sim::Time now = engine_.now();
  window_ = models::window_start(parts({}, worker_counts()));
  measuring_ = true;
  tasks_->restart(now);
  disk_->reset_peaks();
  for (std::uint32_t w = 0; w < server_->workers(); ++w)
    for (std::size_t i = 0; i < server_->worker(w).pools(); ++i) server_->worker(w).pool(i).reset_peak();
  ifstat_.restart(nic_->spec(), nic_->payload_sent(), server_->stats().requests);
  delayed_share_.clear();
  last_responses_ = server_->stats().responses;
  last_delayed_ = server_->stats().responses_delayed;
  if (now > 0) clients_->begin_window();
  engine_.schedule_in(kSecond, this, kIfstat);
}

void World::on_event(std::uint64_t arg) {
  if (arg == kWarmup) {
    if (monitor_.sample(engine_.now(), probe()))
      begin_window();
    else
      engine_.schedule_in(monitor_.interval(), this, kWarmup);
    return;
  }
  ifstat_.sample(nic_->spec(), nic_->payload_sent(), server_->stats().requests);
  const ServerStats& s = server_->stats();
  const std::uint64_t responses = s.responses - last_responses_, delayed = s.responses_delayed - last_delayed_;
  delayed_share_.push_back(responses ? static_cast<double>(delayed) / static_cast<double>(responses) : std::nan(""));
  last_responses_ = s.responses;
  last_delayed_ = s.responses_delayed;
  if (engine_.now() + kSecond <= duration()) engine_.schedule_in(kSecond, this, kIfstat);
}

std::vector<WorkerCounts> World::worker_counts() {
  std::vector<WorkerCounts> workers;
  for (std::uint32_t w = 0; w < server_->workers(); ++w) {
    Worker& worker = server_->worker(w);
    std::vector<PoolStats> pools;
    for (std::size_t i = 0; i < worker.pools(); ++i) pools.push_back(worker.pool(i).stats());
    workers.push_back(WorkerCounts{worker.accepted, worker.requests, worker.blocks, pools_together(pools), pools,
                                   ReadPathCounts{worker.nowait_probes, worker.nowait_misses, worker.nowait_races,
                                                  worker.uring_reads, worker.uring_async}});
  }
  return workers;
}

RunParts World::parts(std::vector<WrkResult> clients, std::vector<WorkerCounts> workers) {
  return RunParts{.scenario = scenario_,
                  .seed = seed_,
                  .duration = duration_,
                  .now = engine_.now(),
                  .clients = std::move(clients),
                  .ifstat = ifstat_,
                  .nic = nic_->spec(),
                  .nic_interface_bytes_sent = nic_->interface_bytes_sent(),
                  .tasks = *tasks_,
                  .kernel_cpu_s = kernel_work_ ? kernel_work_->total_s() : 0,
                  .workers = std::move(workers),
                  .cache = *cache_,
                  .vfs = *metadata_.vfs,
                  .walk = *metadata_.walk,
                  .disk = *disk_,
                  .server = server_->stats(),
                  .start = window_,
                  .disks = disk_set_};
}

RunResult World::result(double wall_s) {
  RunResult r = run_figures(parts(clients_->finish(), worker_counts()));
  r.warmup = monitor_.report();
  r.wall_s = wall_s;
  r.responses_delayed_share_per_s = delayed_share_;
  r.events = engine_.events_processed();
  return r;
}

}  // namespace models
