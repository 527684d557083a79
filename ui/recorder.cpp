#include "ui/recorder.h"

#include <algorithm>
#include <utility>

#include "models/hardware/raid10.h"

namespace ui {

namespace {
using models::TaskState;
constexpr TaskState kStates[3] = {TaskState::kRunning, TaskState::kSleeping, TaskState::kDiskWait};

double pool_integral(models::World& world, std::uint32_t w) {
  const models::ThreadPool* pool = std::as_const(world.server()).worker(w).pool();
  return pool ? pool->stats().waiting_integral : 0.0;
}

double percentile(std::vector<float>& v, double p) {
  if (v.empty()) return 0;
  const auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v.end());
  return v[i];
}
}  // namespace

void Recorder::reset(models::World& world) {
  *this = Recorder{};
  workers_ = world.server().workers();
  pools_ = std::as_const(world.server()).worker(0).pool() != nullptr;
  states_.assign(kFineKept * workers_ * 3, 0.0f);
  pool_wait_.assign(kFineKept * workers_, 0.0f);
  pool_busy_.assign(kFineKept * workers_, 0.0f);
  last_busy_integral_.assign(workers_, 0.0);
  last_state_integral_.assign(std::size_t{workers_} * 3, 0.0);
  last_pool_integral_.assign(workers_, 0.0);
  last_t_ = world.engine().now();
  models::Wrk& wrk = world.clients();
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) groups.push_back(GroupSeries{wrk.group_spec(g).name, {}, {}, {}, {}, {}});
  sec_complete_.assign(wrk.groups(), 0);
  sec_latencies_.assign(wrk.groups(), {});
}

void Recorder::sample(models::World& world) {
  const sim::Time now = world.engine().now();
  const double span = sim::to_seconds(now - last_t_);
  if (span <= 0) return;
  const std::size_t base = slot(fine_count_);
  for (std::uint32_t w = 0; w < workers_; ++w) {
    for (int s = 0; s < 3; ++s) {
      const double integral = world.tasks().group_integral(w, kStates[s], now);
      states_[base * workers_ * 3 + w * 3 + s] = static_cast<float>((integral - last_state_integral_[w * 3 + s]) / span);
      last_state_integral_[w * 3 + s] = integral;
    }
    const double pool = pool_integral(world, w);
    pool_wait_[base * workers_ + w] = static_cast<float>((pool - last_pool_integral_[w]) / span);
    last_pool_integral_[w] = pool;
    if (const models::ThreadPool* tp = std::as_const(world.server()).worker(w).pool()) {
      // Pool threads are task group workers + w (one group per worker's pool).
      const double busy = world.tasks().group_integral(workers_ + w, TaskState::kRunning, now) +
                          world.tasks().group_integral(workers_ + w, TaskState::kDiskWait, now);
      pool_busy_[base * workers_ + w] = static_cast<float>((busy - last_busy_integral_[w]) / span / static_cast<double>(tp->threads()));
      last_busy_integral_[w] = busy;
    }
  }
  ++fine_count_;
  last_t_ = now;
  sample_latencies(world);
  if (now % kChartBin == 0) close_second(world);
}

// wrk records a latency and writes the next request at the same instant, so
// a connection's request start moves exactly at each completion, by the
// latency. Scanning every 10 ms sees each completion unless one connection
// finishes two responses within 10 ms; those are counted as unsampled.
void Recorder::sample_latencies(models::World& world) {
  const models::Wrk& wrk = world.clients();
  const auto n = static_cast<std::uint32_t>(wrk.connections_opened());
  conn_start_.resize(n, 0);
  conn_busy_.resize(n, 0);
  const models::Nginx& server = world.server();
  for (std::uint32_t c = 0; c < n; ++c) {
    const sim::Time start = wrk.request_started(c);
    const bool busy = wrk.in_flight(c);
    if (conn_busy_[c] && start != conn_start_[c] && c < server.connection_slots()) {
      const std::uint32_t g = server.conn(c).group;
      if (g < sec_latencies_.size()) sec_latencies_[g].push_back(static_cast<float>(sim::to_seconds(start - conn_start_[c])));
    }
    conn_start_[c] = start;
    conn_busy_[c] = busy;
  }
}

void Recorder::close_second(models::World& world) {
  const sim::Time now = world.engine().now();
  const double out = world.nic().interface_bytes_sent();
  out_gbps.push_back(static_cast<float>((out - sec_out_bytes_) * 8 / 1e9));
  sec_out_bytes_ = out;

  const models::PageCacheStats c = world.cache().stats();
  const std::uint64_t lookups = c.lookups - sec_lookups_;
  cache_hit_ratio.push_back(lookups ? static_cast<float>(c.hits - sec_hits_) / static_cast<float>(lookups) : 0.0f);
  sec_lookups_ = c.lookups;
  sec_hits_ = c.hits;

  const models::DiskStats d = world.disk().stats();
  disk_queue_depth.push_back(static_cast<float>((d.queue_depth_integral - sec_disk_integral_) / d.drives));
  sec_disk_integral_ = d.queue_depth_integral;

  double pool = 0, dwait = 0;
  for (std::uint32_t w = 0; w < workers_; ++w) {
    pool += pool_integral(world, w);
    dwait += world.tasks().group_integral(w, TaskState::kDiskWait, now);
  }
  pool_waiting_total.push_back(static_cast<float>(pool - sec_pool_integral_));
  workers_disk_wait.push_back(static_cast<float>(dwait - sec_dwait_integral_));
  sec_pool_integral_ = pool;
  sec_dwait_integral_ = dwait;

  models::Wrk& wrk = world.clients();
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    const std::uint64_t complete = wrk.group_complete(g);
    const auto done = static_cast<float>(complete - sec_complete_[g]);
    sec_complete_[g] = complete;
    std::vector<float>& lat = sec_latencies_[g];
    GroupSeries& s = groups[g];
    s.requests_per_s.push_back(done);
    s.unsampled.push_back(std::max(0.0f, done - static_cast<float>(lat.size())));
    double sum = 0;
    for (float v : lat) sum += v;
    s.latency_mean_s.push_back(lat.empty() ? 0.0f : static_cast<float>(sum / static_cast<double>(lat.size())));
    s.latency_p50_s.push_back(static_cast<float>(percentile(lat, 50)));
    s.latency_p99_s.push_back(static_cast<float>(percentile(lat, 99)));
    lat.clear();
  }
}

}  // namespace ui
