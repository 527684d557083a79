// What the visualizer remembers of a run: the model keeps only cumulative
// counters and the present state, so the timeline and the charts are built
// here by sampling read-only accessors at fixed simulated instants.
//
// Two resolutions: fine bins (10 ms) for the timeline, where a blocking read
// of a few milliseconds must show, kept for the last 30 s; and one-second
// series for the charts (ifstat's resolution), kept for the whole run.
// Sampling at fixed simulated instants, never per frame, makes the pictures
// independent of the frame rate and of the playback speed.
//
// Latency (percentiles and the heat map's binned counts), time to first
// byte and the share of responses delayed behind a blocked loop are not
// sampled: they are read, once a second has ended, from the per-second
// statistics the model keeps for `clerk run --json` (every response recorded
// as it completes), so that the charts and the CLI show
// one set of numbers, in closed and open loops alike. A second without a
// completed response is NaN: a gap marked "no responses", never a zero.
//
// A warm-up (warmup.h) runs before the measured window: its seconds are
// recorded too, from the same statistics as they stood during the warm-up
// (wrk's per-second figures from t = 0, the server's delayed share from its
// counters), and the charts shade them as excluded from the run's figures.
// From the window's first whole second on, the client series are the
// window's seconds, as `clerk run --json` indexes them from the window's
// start. The window begins at the end of a warm-up interval, which resets
// wrk's figures: the session hands the recorder the figures of the second
// that ends there just before (hold_warmup_second), so the warm-up's last
// second is not lost.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/world.h"

namespace ui {

constexpr sim::Time kFineBin = sim::milliseconds(10);
constexpr std::size_t kFineKept = 3000;  // 30 s of fine bins
constexpr sim::Time kChartBin = sim::seconds(1);

// One client group's per-second figures.
struct GroupSeries {
  std::string name;
  std::vector<float> requests_per_s;
  std::vector<float> latency_p50_s, latency_p99_s, latency_mean_s;  // of responses completed that second (NaN: none)
  std::vector<float> ttfb_p50_s, ttfb_p99_s;  // time to first byte of the headers read that second (NaN: none)
  std::vector<models::LatencyBins> latency_bins;  // the latency heat map's columns (per_s.latency_bins)
};

class Recorder {
 public:
  void reset(models::World& world);
  // Called by the session at every multiple of kFineBin.
  void sample(models::World& world);
  // Called by the session 1 ns before a whole second while the world is
  // warming up: wrk's figures of that second, before a window that begins
  // at the second's end resets them.
  void hold_warmup_second(models::World& world);

  // The warm-up: seconds from t = 0 excluded from the run's figures (the
  // window's start; 0 for a cold start), or while warming, the time so far.
  double warmup_s() const { return window_start_s_ >= 0 ? window_start_s_ : sim::to_seconds(last_t_); }
  bool warming() const { return window_start_s_ < 0; }

  std::uint32_t workers() const { return workers_; }
  bool has_pools() const { return pools_; }
  // Fine bins: index k covers [k, k+1) x 10 ms; valid for first_fine() <= k < fine_count().
  std::int64_t fine_count() const { return fine_count_; }
  std::int64_t first_fine() const { return fine_count_ > static_cast<std::int64_t>(kFineKept) ? fine_count_ - static_cast<std::int64_t>(kFineKept) : 0; }
  // Share of bin k that worker w spent running (0), sleeping (1), in disk wait (2).
  const float* worker_states(std::int64_t k, std::uint32_t w) const { return &states_[slot(k) * workers_ * 3 + w * 3]; }
  // Mean number of tasks waiting in worker w's thread pool queue during bin k.
  float pool_waiting(std::int64_t k, std::uint32_t w) const { return pool_wait_[slot(k) * workers_ + w]; }
  // Share of worker w's pool threads busy (running or in disk wait) during bin k.
  float pool_busy(std::int64_t k, std::uint32_t w) const { return pool_busy_[slot(k) * workers_ + w]; }

  // Per-second series; element i covers second [i, i+1).
  std::vector<float> out_gbps;          // server NIC outbound, interface bytes as ifstat counts them
  std::vector<float> cache_hit_ratio;   // page-cache lookups that hit, that second
  std::vector<float> disk_queue_depth;  // mean requests queued or in service per drive
  std::vector<float> pool_waiting_total;  // mean tasks waiting, all pools
  std::vector<float> workers_disk_wait;   // mean workers in D state
  std::vector<float> delayed_share;       // responses that waited behind a blocked loop (NaN: no responses)
  std::vector<GroupSeries> groups;

 private:
  std::size_t slot(std::int64_t k) const { return static_cast<std::size_t>(k % static_cast<std::int64_t>(kFineKept)); }
  void close_second(models::World& world);
  // The client figures of chart second `second` (which is [second, second + 1) s).
  models::SecondFigures group_figures(models::World& world, std::uint32_t g, std::size_t second) const;
  double delayed_figure(models::World& world, std::size_t second);

  std::uint32_t workers_ = 0;
  bool pools_ = false;
  std::int64_t fine_count_ = 0;
  std::vector<float> states_;     // kFineKept x workers x 3
  std::vector<float> pool_wait_;  // kFineKept x workers
  std::vector<float> pool_busy_;  // kFineKept x workers
  std::vector<double> last_busy_integral_;   // workers, pool thread-seconds busy
  std::vector<double> last_state_integral_;  // workers x 3, task-seconds
  std::vector<double> last_pool_integral_;   // workers, task-seconds
  sim::Time last_t_ = 0;

  // For the one-second series: cumulative values at the start of the second.
  double sec_out_bytes_ = 0;
  std::uint64_t sec_lookups_ = 0, sec_hits_ = 0;
  double sec_disk_integral_ = 0, sec_pool_integral_ = 0, sec_dwait_integral_ = 0;
  std::uint64_t sec_responses_ = 0, sec_delayed_ = 0;  // the server's counters (the warm-up's delayed share)

  double window_start_s_ = -1;  // -1 while warming up
  std::size_t held_second_ = SIZE_MAX;           // the second hold_warmup_second() saved, if any
  std::vector<models::SecondFigures> held_;      // per group
};

}  // namespace ui
