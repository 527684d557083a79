#include "engines/simgrid/sg_world.h"

#include <algorithm>
#include <simgrid/s4u/Actor.hpp>
#include <stdexcept>

#include "engines/simgrid/sg_hdd.h"
#include "engines/simgrid/sg_raid10.h"
#include "engines/simgrid/sg_simple_disk.h"
#include "engines/simgrid/sg_worker.h"
#include "models/hardware/no_disk.h"
#include "models/server/http_response.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

namespace {
// The stream ids models::World uses, so that both engines place the files
// and draw the server's choices from the same numbers.
constexpr std::uint64_t kStreamServer = 1;
constexpr std::uint64_t kStreamPlacement = 2;
constexpr std::uint64_t kStreamMetadata = 3;
constexpr std::uint64_t kStreamSizes = 6;
// What the server receives (ifstat's "in"): a request segment per request
// and a bare ACK per two full segments sent, with Ethernet/IPv4/TCP headers.
constexpr double kFrameHeaders = 66;
constexpr sim::Time kSecond = sim::seconds(1);
constexpr sim::Time kWrkRecord = sim::milliseconds(100);  // wrk's RECORD_INTERVAL_MS
}  // namespace

SgWorld::SgWorld(const models::Scenario& sc, std::uint64_t seed, double duration_s)
    : scenario_(sc),
      seed_(seed),
      duration_(sim::from_seconds_ceil(duration_s)),
      engine_("clerk"),
      streams_(seed) {
  configure_engine();
  const models::HardwareSpec& hw = sc.hardware;
  platform_ = build_platform(hw);
  nic_ = std::make_unique<SgNic>(platform_, hw.nic);
  switch (hw.disk) {
    case models::DiskKind::kNone:
      disk_ = std::make_unique<models::NoDisk>();
      break;
    case models::DiskKind::kSimple:
      disk_ = std::make_unique<SgSimpleDisk>(platform_.server, platform_.disks.at(0), hw.simple);
      break;
    case models::DiskKind::kHdd:
      disk_ = std::make_unique<SgHdd>(platform_.server, hw.hdd);
      break;
    case models::DiskKind::kRaid10: {
      models::Raid10Spec raid = hw.raid;
      raid.member = hw.hdd;
      disk_ = std::make_unique<SgRaid10>(platform_.server, raid);
      break;
    }
    default:
      throw std::logic_error("SimGrid engine: disk type not set up (sg_run.cpp unsupported() should refuse it)");
  }
  cache_ = std::make_unique<models::PageCache>(
      *disk_, models::PageCacheSpec{hw.page_cache_bytes, hw.cache_unit_bytes, 1024 * 1024});
  dentries_ = std::make_unique<models::DentryCache>(hw.dentry_cache_entries);
  walk_ = std::make_unique<models::PathWalk>(*disk_, *dentries_, streams_.stream(kStreamMetadata).next_u64());
  const std::uint32_t workers = sc.nginx.worker_processes;
  tasks_ = std::make_unique<models::TaskStates>(hw.logical_cpus, 2 * workers);
  host_ = std::make_unique<SgHost>(SgHost{platform_, *nic_, *cache_, *walk_, *tasks_, hw.costs, sc.kernel});
  files_ = std::make_unique<models::Filesystem>(sc.filesystem, *cache_, disk_->capacity(),
                                                streams_.stream(kStreamPlacement), streams_.stream(kStreamSizes));
  // Evicting a file's inode drops its pages (truncate_inode_pages()).
  dentries_->on_evict([this](std::uint64_t key) {
    const std::int64_t file = files_->file_of_key(key);
    if (file >= 0) cache_->drop_file(static_cast<std::uint32_t>(file));
  });
  if (sc.metadata_cached || hw.disk == models::DiskKind::kNone) {
    // Last files first, as models::World does.
    std::uint64_t keys[8];
    for (std::uint32_t f = files_->files(); f-- > 0;) {
      const std::uint32_t n = files_->components(f, keys);
      for (std::uint32_t i = 0; i < n; ++i) dentries_->insert(keys[i]);
    }
  }
  // The first files (or all of them when there is no disk), then the named ones.
  const double cached = hw.disk == models::DiskKind::kNone ? 1.0 : sc.preload_fraction;
  const auto preloaded = static_cast<std::uint32_t>(cached * files_->files());
  for (std::uint32_t f = 0; f < preloaded; ++f) cache_->preload(f);
  for (const std::string& p : sc.preload) cache_->preload(static_cast<std::uint32_t>(files_->file_of(p)));
  // What a client reads for each file: NGINX's header and the file.
  std::vector<std::uint64_t> response_bytes(files_->files());
  for (std::uint32_t f = 0; f < files_->files(); ++f)
    response_bytes[f] = files_->file_size(f) + models::nginx_header_bytes(sc.nginx.version, files_->file_size(f));
  clients_ = std::make_unique<SgClients>(platform_, sc.clients, hw.one_way_latency_s, duration_, streams_,
                                         files_->files(), std::move(response_bytes), hw.costs);
  server_ = std::make_unique<SgServer>(*host_, sc.nginx, *files_, *clients_, streams_.stream(kStreamServer));
  clients_->start(*server_);
  // The one actor that is not a daemon: when it returns, SimGrid ends the run.
  sg4::Actor::create("clock", platform_.clients, [this] { clock(); });
}

SgWorld::~SgWorld() = default;

void SgWorld::run() { engine_.run(); }

void SgWorld::clock() {
  sim::Time next_tick = kWrkRecord;
  sim::Time next_sample = kSecond;
  for (;;) {
    const sim::Time next = std::min({next_tick, next_sample, duration_});
    sg4::this_actor::sleep_until(sim::to_seconds(next));
    ++resumptions();
    if (next == duration_) clients_->stop();
    if (next == next_sample) {
      sample();
      next_sample += kSecond;
    }
    if (next == next_tick) {
      clients_->tick();
      next_tick += kWrkRecord;
    }
    if (next == duration_) {
      // Take the figures now, while every actor and transfer still exists.
      final_ = figures();
      return;
    }
  }
}

void SgWorld::sample() {
  // ifstat's line for the second that just ended.
  const double payload = nic_->payload_sent();
  const double out = payload * nic_->spec().interface_bytes_per_payload_byte();
  const auto requests = static_cast<double>(server_->stats().requests);
  const double acks = (payload - last_payload_) / (2.0 * nic_->spec().mss());
  const double in = (requests - last_requests_) * (64 + kFrameHeaders) + acks * kFrameHeaders;
  out_bytes_per_s_.push_back(out - last_out_);
  in_bytes_per_s_.push_back(in);
  last_out_ = out;
  last_payload_ = payload;
  last_requests_ = requests;
}

models::RunResult SgWorld::result(double wall_s) {
  models::RunResult r = final_;
  r.wall_s = wall_s;
  return r;
}

models::RunResult SgWorld::figures() {
  using models::TaskState;
  const sim::Time now = duration_;
  const double run_s = sim::to_seconds(now);
  models::RunResult r;
  r.scenario = scenario_.name;
  r.file = scenario_.file;
  r.seed = seed_;
  r.duration_s = sim::to_seconds(duration_);
  r.events = resumptions();
  r.clients = clients_->finish();

  r.nic_out_bytes_per_s = out_bytes_per_s_;
  r.nic_in_bytes_per_s = in_bytes_per_s_;
  r.nic_out_gbps_mean = run_s > 0 ? nic_->interface_bytes_sent() * 8 / run_s / 1e9 : 0;
  r.nic_payload_capacity_gbps = nic_->spec().payload_Bps() * 8 / 1e9;

  const std::uint32_t n = scenario_.nginx.worker_processes;
  r.logical_cpus = scenario_.hardware.logical_cpus;
  r.cpu_busy_frac = tasks_->busy_cpus_mean(0, now) / r.logical_cpus;
  r.iowait_frac = tasks_->iowait_fraction(0, now);
  for (std::uint32_t w = 0; w < n; ++w) {
    models::WorkerFigures f;
    f.connections = server_->worker(w).accepted;
    f.requests = server_->worker(w).requests;
    f.blocks = server_->worker(w).blocks;
    f.running = tasks_->group_mean(w, TaskState::kRunning, 0, now);
    f.sleeping = tasks_->group_mean(w, TaskState::kSleeping, 0, now);
    f.disk_wait = tasks_->group_mean(w, TaskState::kDiskWait, 0, now);
    r.workers_running += f.running / n;
    r.workers_sleeping += f.sleeping / n;
    r.workers_disk_wait += f.disk_wait / n;
    r.workers.push_back(f);
  }
  {
    // Jain's fairness index (sum x)^2 / (n sum x^2) over requests per worker.
    double sum = 0, sum_sq = 0, top = 0, blocks = 0;
    for (const models::WorkerFigures& f : r.workers) {
      const auto x = static_cast<double>(f.requests);
      sum += x;
      sum_sq += x * x;
      top = std::max(top, x);
      blocks += static_cast<double>(f.blocks);
    }
    r.fairness = sum_sq > 0 ? sum * sum / (static_cast<double>(n) * sum_sq) : 1.0;
    r.busiest_share = sum > 0 ? top / sum : 0.0;
    if (sum > 0 && blocks > 0)
      for (const models::WorkerFigures& f : r.workers)
        r.share_behind_one_block += static_cast<double>(f.blocks) / blocks * static_cast<double>(f.requests) / sum;
  }
  r.thread_pool = scenario_.nginx.aio == models::AioMode::kThreads;
  if (r.thread_pool) {
    const double threads = static_cast<double>(scenario_.nginx.thread_pool.threads) * n;
    r.pool_threads = static_cast<std::uint64_t>(threads);
    double waiting = 0;
    for (std::uint32_t w = 0; w < n; ++w) {
      const models::PoolStats p = server_->worker(w).pool()->stats();
      r.pool_tasks += p.tasks;
      r.pool_overflows += p.overflows;
      r.pool_max_waiting = std::max(r.pool_max_waiting, p.max_waiting);
      waiting += p.waiting_integral;
      r.pool_running += tasks_->group_mean(n + w, TaskState::kRunning, 0, now) / threads;
      r.pool_sleeping += tasks_->group_mean(n + w, TaskState::kSleeping, 0, now) / threads;
      r.pool_disk_wait += tasks_->group_mean(n + w, TaskState::kDiskWait, 0, now) / threads;
    }
    r.pool_mean_waiting = run_s > 0 ? waiting / run_s : 0;
  }

  const models::PageCacheStats c = cache_->stats();
  r.cache_lookups = c.lookups;
  r.cache_hit_ratio = c.lookups ? static_cast<double>(c.hits) / static_cast<double>(c.lookups) : 0;
  r.cache_resident_bytes = c.resident_units * cache_->unit_bytes();
  r.cache_capacity_bytes = scenario_.hardware.page_cache_bytes;
  r.readahead_windows = c.readahead_windows;
  r.bios = c.bios;
  r.dentry_lookups = dentries_->lookups();
  r.dentry_hits = dentries_->hits();
  r.metadata_reads = walk_->metadata_reads();

  const models::DiskStats d = disk_->stats();
  r.drives = d.drives;
  r.disk_reads = d.reads;
  r.disk_read_bytes_per_s = run_s > 0 ? static_cast<double>(d.read_bytes) / run_s : 0;
  r.disk_mean_queue_depth = run_s > 0 ? d.queue_depth_integral / run_s / d.drives : 0;
  r.disk_utilization = run_s > 0 ? d.busy_s / run_s / d.drives : 0;

  const models::ServerStats& s = server_->stats();
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

}  // namespace sgengine
