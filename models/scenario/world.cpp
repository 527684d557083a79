#include "models/scenario/world.h"

#include <algorithm>

#include "models/hardware/no_disk.h"
#include "sim/fairness.h"
#include "models/server/http_response.h"

namespace models {

namespace {
// Stream ids for the random streams (stable: adding one never shifts another).
constexpr std::uint64_t kStreamServer = 1;
constexpr std::uint64_t kStreamPlacement = 2;
constexpr std::uint64_t kStreamMetadata = 3;
constexpr std::uint64_t kStreamDisk = 5;
constexpr std::uint64_t kStreamSizes = 6;
// What the server receives: a request segment per request, and a bare ACK
// for every two full segments it sends (delayed ACK), each with Ethernet,
// IPv4 and TCP headers with timestamps.
constexpr double kFrameHeaders = 66;
constexpr sim::Time kSecond = sim::seconds(1);
}  // namespace

World::World(const Scenario& sc, std::uint64_t seed, double duration_s)
    : scenario_(sc), seed_(seed), duration_(sim::from_seconds_ceil(duration_s)), streams_(seed) {
  const HardwareSpec& hw = sc.hardware;
  cpu_ = std::make_unique<sim::FairShare>(engine_, static_cast<double>(hw.logical_cpus), 1.0);
  nic_ = std::make_unique<Nic>(engine_, hw.nic);
  if (hw.disk == DiskKind::kRaid10) {
    Raid10Spec raid = hw.raid;
    raid.member = hw.hdd;
    disk_ = std::make_unique<Raid10>(engine_, raid);
  } else if (hw.disk == DiskKind::kSsd) {
    disk_ = std::make_unique<Ssd>(engine_, hw.ssd, streams_.stream(kStreamDisk));
  } else if (hw.disk == DiskKind::kNone) {
    disk_ = std::make_unique<NoDisk>();
  } else if (hw.disk == DiskKind::kSimple) {
    disk_ = std::make_unique<SimpleDisk>(engine_, hw.simple);
  } else {
    disk_ = std::make_unique<Hdd>(engine_, hw.hdd);
  }
  cache_ = std::make_unique<PageCache>(*disk_, PageCacheSpec{hw.page_cache_bytes, hw.cache_unit_bytes, 1024 * 1024});
  if (hw.costs.cache_fill_byte > 0) {
    kernel_work_ = std::make_unique<KernelWork>(*cpu_, hw.costs.cache_fill_byte);
    cache_->set_fill_sink(kernel_work_.get());
  }
  dentries_ = std::make_unique<DentryCache>(hw.dentry_cache_entries);
  walk_ = std::make_unique<PathWalk>(*disk_, *dentries_, streams_.stream(kStreamMetadata).next_u64());
  const std::uint32_t workers = sc.nginx.worker_processes;
  tasks_ = std::make_unique<TaskStates>(hw.logical_cpus, 2 * workers);
  host_ = std::make_unique<Host>(Host{engine_, *cpu_, *nic_, *cache_, *walk_, *tasks_, hw.costs, sc.kernel});
  files_ = std::make_unique<Filesystem>(sc.filesystem, *cache_, disk_->capacity(), streams_.stream(kStreamPlacement),
                                        streams_.stream(kStreamSizes));
  // Evicting a file's inode drops its pages (Linux: truncate_inode_pages()
  // when an inode is evicted).
  dentries_->on_evict([this](std::uint64_t key) {
    const std::int64_t file = files_->file_of_key(key);
    if (file >= 0) cache_->drop_file(static_cast<std::uint32_t>(file));
  });
  if (sc.metadata_cached || hw.disk == DiskKind::kNone) {
    // Last files first, so that a dentry cache too small for every path
    // holds the paths of the first files, whose data is preloaded below.
    std::uint64_t keys[8];
    for (std::uint32_t f = files_->files(); f-- > 0;) {
      const std::uint32_t n = files_->components(f, keys);
      for (std::uint32_t i = 0; i < n; ++i) dentries_->insert(keys[i]);
    }
  }
  // Cache the first files (the file order is unrelated to placement and to
  // which files clients ask for), or all of them when there is no disk.
  const double cached = hw.disk == DiskKind::kNone ? 1.0 : sc.preload_fraction;
  const auto preloaded = static_cast<std::uint32_t>(cached * files_->files());
  for (std::uint32_t f = 0; f < preloaded; ++f) cache_->preload(f);
  for (const std::string& p : sc.preload) cache_->preload(static_cast<std::uint32_t>(files_->file_of(p)));
  // What a client reads for each file: NGINX's header and the file.
  std::vector<std::uint64_t> response_bytes(files_->files());
  for (std::uint32_t f = 0; f < files_->files(); ++f)
    response_bytes[f] = files_->file_size(f) + nginx_header_bytes(sc.nginx.version, files_->file_size(f));
  clients_ = std::make_unique<Wrk>(engine_, sc.clients, hw.one_way_latency_s, duration_, streams_, files_->files(),
                                   std::move(response_bytes), hw.costs, cpu_.get());
  NginxConfig nginx = sc.nginx;
  for (const WrkGroupSpec& g : sc.clients) nginx.placement.push_back(g.placement);
  server_ = std::make_unique<Nginx>(*host_, nginx, *files_, *clients_, streams_.stream(kStreamServer));
  clients_->start(*server_);
  engine_.schedule_in(kSecond, this, 0);
}

void World::on_event(std::uint64_t) {
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
  if (engine_.now() + kSecond <= duration_) engine_.schedule_in(kSecond, this, 0);
}

RunResult World::result(double wall_s) {
  const sim::Time now = engine_.now();
  const double run_s = sim::to_seconds(now);
  RunResult r;
  r.scenario = scenario_.name;
  r.file = scenario_.file;
  r.seed = seed_;
  r.duration_s = sim::to_seconds(duration_);
  r.wall_s = wall_s;
  r.events = engine_.events_processed();
  r.clients = clients_->finish();

  r.nic_out_bytes_per_s = out_bytes_per_s_;
  r.nic_in_bytes_per_s = in_bytes_per_s_;
  r.nic_out_gbps_mean = run_s > 0 ? nic_->interface_bytes_sent() * 8 / run_s / 1e9 : 0;
  r.nic_payload_capacity_gbps = nic_->spec().payload_Bps() * 8 / 1e9;

  const std::uint32_t n = scenario_.nginx.worker_processes;
  r.logical_cpus = scenario_.hardware.logical_cpus;
  r.cpu_busy_frac = tasks_->busy_cpus_mean(0, now) / r.logical_cpus;
  r.kernel_cpu_s = kernel_work_ ? kernel_work_->total_s() : 0;
  r.iowait_frac = tasks_->iowait_fraction(0, now);
  for (std::uint32_t w = 0; w < n; ++w) {
    WorkerFigures f;
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
  r.thread_pool = scenario_.nginx.aio == AioMode::kThreads;
  if (r.thread_pool) {
    const double threads = static_cast<double>(scenario_.nginx.thread_pool.threads) * n;
    r.pool_threads = static_cast<std::uint64_t>(threads);
    double waiting = 0;
    for (std::uint32_t w = 0; w < n; ++w) {
      const PoolStats p = server_->worker(w).pool()->stats();
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

  const PageCacheStats c = cache_->stats();
  r.cache_lookups = c.lookups;
  r.cache_hit_ratio = c.lookups ? static_cast<double>(c.hits) / static_cast<double>(c.lookups) : 0;
  r.cache_resident_bytes = c.resident_units * cache_->unit_bytes();
  r.cache_capacity_bytes = scenario_.hardware.page_cache_bytes;
  r.readahead_windows = c.readahead_windows;
  r.bios = c.bios;
  r.dentry_lookups = dentries_->lookups();
  r.dentry_hits = dentries_->hits();
  r.metadata_reads = walk_->metadata_reads();

  const DiskStats d = disk_->stats();
  r.drives = d.drives;
  r.disk_reads = d.reads;
  r.disk_read_bytes_per_s = run_s > 0 ? static_cast<double>(d.read_bytes) / run_s : 0;
  r.disk_mean_queue_depth = run_s > 0 ? d.queue_depth_integral / run_s / d.drives : 0;
  r.disk_utilization = run_s > 0 ? d.busy_s / run_s / d.drives : 0;

  const ServerStats& s = server_->stats();
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
