// Warm-up: the scenario's own load runs before the measured window, so that
// the caches hold what serving that load leaves in them, not a declared
// state. A real server has been serving before anyone runs wrk against it.
//
// `warmup = "settled"` (the default) runs until the caches no longer depend
// on how they were filled. From the mechanisms:
//   1. Memory is full: the page cache has started to reclaim (its first
//      eviction; Linux: shrink_inactive_list() frees its first page once the
//      free pages are below the zone's low watermark).
//   2. The LRU has turned over: since it became full, it has evicted at least
//      as many units as were resident then. Under a strict LRU this is exact:
//      units are evicted oldest access first, so once C units have gone every
//      unit that was resident at the fill and not used since has gone too;
//      what remains was placed there by the load itself. The two-list LRU
//      (mm/vmscan.c) protects the active list a little longer; the test below
//      catches a ratio still drifting from that. The slab caches (dentries,
//      inodes) are scanned in proportion to the page-cache scan
//      (shrink_slab(), vfs_cache_pressure), so their turnover follows.
//   3. The hit ratios are stable: over the last kTrendIntervals intervals,
//      the page cache's and the dentry cache's per-interval hit ratios show
//      no linear trend: the least-squares slope's t statistic is within the
//      two-sided 95% quantile of Student's t with n - 2 = 4 degrees of
//      freedom (2.776). The test uses the intervals' own scatter, not a
//      binomial variance: a file's units hit or miss together, so lookups
//      are not independent.
// A cache whose whole working set fits (no disk; every file's data within
// the page cache and every path within the dentry cache) has nothing to
// settle: nothing is ever evicted, so its contents cannot depend on the
// order of filling. Such a scenario starts measuring at once (cold); the
// first reads of its files are part of the measured window.
// When every file's data fits in the page cache but not every path in the
// dentry cache, the page cache never reclaims: criteria 1 and 2 cannot hold
// and are not asked for; the ratios' test (3) alone decides.
// If the cap (`warmup_max`) comes first, the run measures anyway and the
// report says that the warm-up did not settle, and why.
//
// `warmup = "300s"` runs exactly that long; `warmup = "0s"` is a cold start.
//
// The load runs on through the end of the warm-up: connections stay open,
// requests in flight complete in the window with their whole latency.
// Clockless: the engines take the probes and say when the window begins.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/time.h"

namespace models {

struct WarmupSpec {
  bool settled = true;     // run until settled, at most max_s
  double fixed_s = 0;      // when not settled: exactly this long (0: a cold start)
  double max_s = 1800;     // the cap of a settled warm-up
  // The longest the warm-up can last: the load runs this long before the
  // window at most (World::duration, and the memory estimate's backlog).
  double longest_s() const { return settled ? max_s : fixed_s; }
};

// The caches' counters since the start of the run, at one instant.
struct WarmupProbe {
  std::uint64_t cache_lookups = 0, cache_hits = 0;
  std::uint64_t evicted_units = 0, resident_units = 0, capacity_units = 0;
  std::uint64_t meta_lookups = 0, meta_hits = 0;
};

// One interval of the warm-up.
struct WarmupInterval {
  double end_s = 0;
  std::uint64_t cache_lookups = 0;
  double cache_hit_ratio = 0;   // in this interval
  std::uint64_t meta_lookups = 0;
  double meta_hit_ratio = 0;
  double resident_frac = 0;     // of the page cache's capacity, at the interval's end
  std::uint64_t evicted_units = 0;  // in this interval
};

struct WarmupReport {
  std::string mode = "none";  // "settled", "fixed", "none" (a cold start)
  double requested_s = 0;     // fixed: its length; settled: the cap
  double interval_s = 0;
  double took_s = 0;          // where the measured window begins
  bool settled = false;       // settled: the criteria held; fixed/none: false
  std::string status;         // in words: why it ended
  // When the page cache began to reclaim, and the units resident then;
  // none while it never has (JSON null, not a time: probe 5, finding 11).
  std::optional<double> full_at_s;
  std::optional<std::uint64_t> resident_at_full;
  std::vector<WarmupInterval> intervals;
};

class WarmupMonitor {
 public:
  // `nothing_to_settle`: every cache's working set fits (header).
  // `data_fits`: the page cache never reclaims; only the dentry cache's
  // ratio has to settle (criterion 3 alone).
  WarmupMonitor(const WarmupSpec& spec, bool nothing_to_settle, bool data_fits = false);
  // True when the window begins at time zero (a cold start, or nothing to settle).
  bool over_at_start() const { return over_; }
  sim::Time interval() const { return interval_; }
  // At the end of each interval, with the counters then; true when the
  // warm-up is over (the window begins now).
  bool sample(sim::Time now, const WarmupProbe& probe);
  bool over() const { return over_; }
  const WarmupReport& report() const { return report_; }

  static constexpr int kTrendIntervals = 6;
  static constexpr double kTrendT = 2.776;  // t(0.975, 4)
  // The t statistic of the least-squares slope of y over 0..n-1 (0 when flat).
  static double trend_t(const std::vector<double>& y);

 private:
  bool settled_now(const WarmupProbe& probe);
  void finish(sim::Time now, bool settled, std::string status);

  WarmupSpec spec_;
  sim::Time interval_ = 0;
  sim::Time fixed_end_ = 0;
  sim::Time step_ = 0;  // a fixed warm-up's intervals, the last aside
  sim::Time next_step(sim::Time now) const;
  sim::Time cap_ = 0;
  bool over_ = false;
  bool data_fits_ = false;
  WarmupProbe last_;
  std::uint64_t evicted_at_full_ = 0;
  WarmupReport report_;
};

}  // namespace models
