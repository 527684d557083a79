// Tails as distributions: per client group, the latency percentile curve as
// HdrHistogram plots it (x: the percentile on a log axis of 1 / (1 - p), so
// that 90%, 99%, 99.9% and 99.99% are evenly spaced; y: latency, log), for
// every response so far (raw, the run's latency_raw_s) and with wrk's
// coordinated-omission correction beside it (wrk.c's stats_correct with its
// expected interval, runtime / (responses per connection), on a copy of
// wrk's microsecond histogram). Open-loop groups measure from when each
// request was due and have no correction.
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

void draw_tails(Session& s);

}  // namespace ui
