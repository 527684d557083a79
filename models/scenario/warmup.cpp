#include "models/scenario/warmup.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace models {

namespace {
constexpr sim::Time kInterval = sim::seconds(10);

double ratio(std::uint64_t hits, std::uint64_t lookups) {
  return lookups ? static_cast<double>(hits) / static_cast<double>(lookups) : 0.0;
}
}  // namespace

// A fixed warm-up's next interval from `now`: a step, or all that is left
// when less than two steps are.
sim::Time WarmupMonitor::next_step(sim::Time now) const {
  const sim::Time left = fixed_end_ - now;
  return left < 2 * step_ ? left : step_;
}

WarmupMonitor::WarmupMonitor(const WarmupSpec& spec, bool nothing_to_settle, bool data_fits)
    : spec_(spec), data_fits_(data_fits) {
  if (spec.settled) {
    report_.mode = "settled";
    report_.requested_s = spec.max_s;
    cap_ = sim::from_seconds_nearest(spec.max_s);
    interval_ = std::min(kInterval, std::max<sim::Time>(cap_, 1));  // a cap under 10 s: one interval
    if (nothing_to_settle || cap_ == 0) {
      over_ = true;
      report_.settled = nothing_to_settle;
      report_.status = nothing_to_settle ? "nothing to settle: every file's data and path fit in the caches"
                                         : "warmup_max is 0: a cold start";
    }
  } else {
    fixed_end_ = sim::from_seconds_nearest(spec.fixed_s);
    report_.requested_s = spec.fixed_s;
    if (fixed_end_ == 0) {
      over_ = true;
      report_.status = "a cold start (warmup = 0s)";
    } else {
      report_.mode = "fixed";
      // Intervals of at most 10 s that divide the warm-up; the last takes
      // what the division leaves (sample()), so that it ends where asked.
      const sim::Time n = (fixed_end_ + kInterval - 1) / kInterval;
      step_ = std::max<sim::Time>(1, fixed_end_ / n);
      interval_ = next_step(0);
    }
  }
  report_.interval_s = sim::to_seconds(interval_);
}

bool WarmupMonitor::sample(sim::Time now, const WarmupProbe& p) {
  if (over_) return true;
  WarmupInterval row;
  row.end_s = sim::to_seconds(now);
  row.cache_lookups = p.cache_lookups - last_.cache_lookups;
  row.cache_hit_ratio = ratio(p.cache_hits - last_.cache_hits, row.cache_lookups);
  row.meta_lookups = p.meta_lookups - last_.meta_lookups;
  row.meta_hit_ratio = ratio(p.meta_hits - last_.meta_hits, row.meta_lookups);
  row.resident_frac =
      p.capacity_units ? static_cast<double>(p.resident_units) / static_cast<double>(p.capacity_units) : 0.0;
  row.evicted_units = p.evicted_units - last_.evicted_units;
  report_.intervals.push_back(row);
  last_ = p;
  if (!report_.full_at_s && p.evicted_units > 0) {
    report_.full_at_s = row.end_s;
    report_.resident_at_full = p.resident_units;
    evicted_at_full_ = p.evicted_units;
  }
  if (!spec_.settled) {
    if (now >= fixed_end_)
      finish(now, false, fmt::format("ran the fixed {:g} s", spec_.fixed_s));
    else
      interval_ = next_step(now);
    return over_;
  }
  if (settled_now(p)) {
    finish(now, true,
           data_fits_ ? fmt::format("settled: the data fits the page cache; hit ratios flat over the last {} intervals",
                                    kTrendIntervals)
                      : fmt::format("settled: full at {:g} s, {} units evicted since (>= {} resident then), hit "
                                    "ratios flat over the last {} intervals",
                                    *report_.full_at_s, p.evicted_units - evicted_at_full_,
                                    *report_.resident_at_full, kTrendIntervals));
  } else if (now >= cap_) {
    std::string why;
    if (data_fits_)
      why = "the hit ratios still trend";
    else if (!report_.full_at_s)
      why = fmt::format("the page cache never filled ({:.0f}% resident)", 100 * report_.intervals.back().resident_frac);
    else if (p.evicted_units - evicted_at_full_ < *report_.resident_at_full)
      why = fmt::format("the LRU turned over {:.0f}% since it filled",
                        100.0 * static_cast<double>(p.evicted_units - evicted_at_full_) /
                            static_cast<double>(*report_.resident_at_full));
    else
      why = "the hit ratios still trend";
    finish(now, false, fmt::format("NOT settled at warmup_max = {:g} s: {}", spec_.max_s, why));
  }
  return over_;
}

bool WarmupMonitor::settled_now(const WarmupProbe& p) {
  if (!data_fits_) {
    if (!report_.full_at_s) return false;                                              // 1. memory full
    if (p.evicted_units - evicted_at_full_ < *report_.resident_at_full) return false;  // 2. turned over
  }
  // 3. no trend over the last intervals, all of them after the fill.
  const auto& rows = report_.intervals;
  if (rows.size() < static_cast<std::size_t>(kTrendIntervals)) return false;
  std::vector<double> cache, meta;
  std::uint64_t meta_lookups = 0;
  for (std::size_t i = rows.size() - kTrendIntervals; i < rows.size(); ++i) {
    if (!data_fits_ && rows[i].end_s <= *report_.full_at_s) return false;
    cache.push_back(rows[i].cache_hit_ratio);
    meta.push_back(rows[i].meta_hit_ratio);
    meta_lookups += rows[i].meta_lookups;
  }
  if (std::fabs(trend_t(cache)) >= kTrendT) return false;
  return meta_lookups == 0 || std::fabs(trend_t(meta)) < kTrendT;
}

double WarmupMonitor::trend_t(const std::vector<double>& y) {
  const auto n = static_cast<double>(y.size());
  if (y.size() < 3) return 0;
  const double xbar = (n - 1) / 2;
  double ybar = 0;
  for (double v : y) ybar += v / n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double dx = static_cast<double>(i) - xbar;
    sxx += dx * dx;
    sxy += dx * (y[i] - ybar);
  }
  const double slope = sxy / sxx;
  double sse = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double e = y[i] - ybar - slope * (static_cast<double>(i) - xbar);
    sse += e * e;
  }
  const double se = std::sqrt(sse / (n - 2) / sxx);
  // A perfect line: flat (0) or a trend beyond any threshold.
  if (!(se > 1e-12)) return std::fabs(slope) < 1e-12 ? 0.0 : INFINITY;
  return slope / se;
}

void WarmupMonitor::finish(sim::Time now, bool settled, std::string status) {
  over_ = true;
  report_.took_s = sim::to_seconds(now);
  report_.settled = settled;
  report_.status = std::move(status);
}

}  // namespace models
