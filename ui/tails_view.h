// Tails as distributions: per client group, the latency percentile curve as
// HdrHistogram plots it (x: the percentile on a log axis of 1 / (1 - p), so
// that 90%, 99%, 99.9% and 99.99% are evenly spaced; y: latency, log), for
// every response so far (raw, the run's latency_raw_s) and with wrk's
// coordinated-omission correction beside it (wrk.c's stats_correct with its
// expected interval, runtime / (responses per connection), on a copy of
// wrk's microsecond histogram). Open-loop groups measure from when each
// request was due and have no correction.
//
// Under the curve, where one request's time went (stage_split.h): clicking
// the curve, or p50 / p99 / p99.9 / max, picks a request of that percentile
// and draws its latency split into stages. With a warm-up, the curve and
// the split cover the measured window only, as `clerk run` does.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "ui/session.h"

namespace ui {

struct CurvePoint {
  double percentile;  // 0 .. 100
  double latency_s;
};

// Points from the 0th percentile to 99.99% at even steps of log10(1 / (1 - p)),
// `quantile(p)` giving the latency at percentile p; only percentiles that
// `count` samples resolve (1 / (1 - p) <= count).
std::vector<CurvePoint> percentile_curve(const std::function<double(double)>& quantile, std::uint64_t count);
// Where percentile p sits on the log axis: log10(1 / (1 - p / 100)).
double percentile_x(double p);

// Which request's split the tab shows.
struct TailPick {
  std::uint32_t group = 0;
  double percentile = 99;
  bool worst = false;  // the worst response instead of a percentile
};

// The percentile under a point `fx` of the way along the curve's x axis (0..1).
double percentile_at(double fx);

void draw_tails(Session& s, TailPick& pick);

}  // namespace ui
