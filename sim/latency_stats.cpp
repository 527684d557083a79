#include "sim/latency_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sim {

namespace {
// 2,400 log bins over 10 decades: each bin is 10^(1/240) = 0.96% wide.
constexpr unsigned kBins = LatencyStats::kBinsPerDecade * LatencyStats::kDecades;
constexpr double kLow = LatencyStats::kLowest;
constexpr double kHigh = 1e4;
}  // namespace

LatencyStats::LatencyStats() : hist_(boost::histogram::make_histogram(Axis(kBins, kLow, kHigh))) {}

void LatencyStats::record(double s) {
  hist_(s);
  if (count_ == 0 || s < min_) min_ = s;
  if (s > max_) max_ = s;
  ++count_;
  sum_ += s;
  sum_sq_ += static_cast<long double>(s) * s;
}

double LatencyStats::stdev() const {
  if (count_ < 2) return 0.0;
  const long double n = static_cast<long double>(count_);
  const long double var = (sum_sq_ - sum_ * sum_ / n) / (n - 1);
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

double LatencyStats::percentile(double p) const {
  if (count_ == 0) return 0.0;
  const double rank = std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(count_)));
  double seen = 0;
  for (auto&& bin : boost::histogram::indexed(hist_, boost::histogram::coverage::all)) {
    seen += *bin;
    if (seen >= rank) {
      const double upper = bin.index() < 0 ? kLow : bin.bin().upper();
      return std::clamp(upper, min_, max_);
    }
  }
  return max_;
}

std::vector<std::uint64_t> LatencyStats::coarse_counts(unsigned per_decade) const {
  const unsigned fine_per_coarse = kBinsPerDecade / per_decade;
  const auto last = static_cast<std::int64_t>(per_decade * kDecades) - 1;
  std::vector<std::uint64_t> out(static_cast<std::size_t>(last + 1), 0);
  if (count_ == 0) return out;
  for (auto&& bin : boost::histogram::indexed(hist_, boost::histogram::coverage::all)) {
    const double n = *bin;
    if (n <= 0) continue;
    // index() is -1 for the underflow bin and kBins for the overflow bin.
    const std::int64_t fine = bin.index();
    const std::int64_t k = std::clamp<std::int64_t>(fine / static_cast<std::int64_t>(fine_per_coarse), 0, last);
    out[static_cast<std::size_t>(k)] += static_cast<std::uint64_t>(n);
  }
  return out;
}

void LatencyStats::merge(const LatencyStats& o) {
  if (o.count_ == 0) return;
  hist_ += o.hist_;
  min_ = count_ ? std::min(min_, o.min_) : o.min_;
  max_ = std::max(max_, o.max_);
  count_ += o.count_;
  sum_ += o.sum_;
  sum_sq_ += o.sum_sq_;
}

}  // namespace sim
