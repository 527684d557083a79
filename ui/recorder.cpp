#include "ui/recorder.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ui {

namespace {
using models::TaskState;
constexpr TaskState kStates[3] = {TaskState::kRunning, TaskState::kSleeping, TaskState::kDiskWait};

double pool_integral(models::World& world, std::uint32_t w) {
  const models::ThreadPool* pool = std::as_const(world.server()).worker(w).pool();
  return pool ? pool->stats().waiting_integral : 0.0;
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
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) groups.push_back(GroupSeries{wrk.group_spec(g).name, {}, {}, {}, {}, {}, {}, {}});
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
  if (window_start_s_ < 0 && world.measuring()) window_start_s_ = sim::to_seconds(world.window_start());
  if (now % kChartBin == 0) close_second(world);
}

void Recorder::hold_warmup_second(models::World& world) {
  if (world.measuring()) return;
  held_second_ = static_cast<std::size_t>(world.engine().now() / kChartBin);
  held_.clear();
  for (std::uint32_t g = 0; g < groups.size(); ++g) held_.push_back(world.clients().group_second(g, held_second_));
}

models::SecondFigures Recorder::group_figures(models::World& world, std::uint32_t g, std::size_t second) const {
  const models::Wrk& wrk = world.clients();
  if (!world.measuring()) return wrk.group_second(g, second);  // the warm-up: wrk's figures from t = 0
  const auto first = static_cast<std::size_t>((world.window_start() + kChartBin - 1) / kChartBin);
  if (second >= first) return wrk.group_second(g, second - first);  // the window's own seconds
  // The warm-up's last second, reset by the window's start at its end: as held just before.
  if (held_second_ == second && g < held_.size()) return held_[g];
  return models::SecondFigures{};  // a second the window began inside (a warm-up of a fraction of a second)
}

double Recorder::delayed_figure(models::World& world, std::size_t second) {
  const models::ServerStats& st = world.server().stats();
  const std::uint64_t responses = st.responses - sec_responses_, delayed = st.responses_delayed - sec_delayed_;
  sec_responses_ = st.responses;
  sec_delayed_ = st.responses_delayed;
  const auto first = static_cast<std::size_t>((world.window_start() + kChartBin - 1) / kChartBin);
  if (world.measuring() && second >= first) {
    const std::vector<double>& per_s = world.delayed_share_per_s();
    return second - first < per_s.size() ? per_s[second - first] : std::nan("");
  }
  // The warm-up, which the World does not sample: the same ratio from the server's counters.
  return responses ? static_cast<double>(delayed) / static_cast<double>(responses) : std::nan("");
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

  // The second that just ended, as the model's per-second statistics have it.
  const std::size_t second = out_gbps.size() - 1;
  delayed_share.push_back(static_cast<float>(delayed_figure(world, second)));
  for (std::uint32_t g = 0; g < groups.size(); ++g) {
    const models::SecondFigures f = group_figures(world, g, second);
    GroupSeries& s = groups[g];
    s.requests_per_s.push_back(static_cast<float>(f.responses));
    s.latency_mean_s.push_back(static_cast<float>(f.latency_mean_s));
    s.latency_p50_s.push_back(static_cast<float>(f.latency_p50_s));
    s.latency_p99_s.push_back(static_cast<float>(f.latency_p99_s));
    s.ttfb_p50_s.push_back(static_cast<float>(f.ttfb_p50_s));
    s.ttfb_p99_s.push_back(static_cast<float>(f.ttfb_p99_s));
    s.latency_bins.push_back(f.latency_bins);
  }
}

}  // namespace ui
