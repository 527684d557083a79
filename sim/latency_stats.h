// Latency statistics: exact count, mean, standard deviation (n-1) and max,
// and percentiles from a log-binned Boost.Histogram (relative bin width
// under 1%, from 1 microsecond to 10,000 seconds).
#pragma once
#include <boost/histogram.hpp>
#include <cstdint>
#include <vector>

namespace sim {

class LatencyStats {
 public:
  LatencyStats();
  void record(double seconds);
  std::uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  double stdev() const;
  double max() const { return max_; }
  double min() const { return count_ ? min_ : 0.0; }
  // The p-th percentile (0 < p <= 100): the upper edge of the bin holding the
  // sample of that rank, clamped to the exact maximum.
  double percentile(double p) const;
  void merge(const LatencyStats& other);
  // The counts on a coarser log axis over the same range: `per_decade` bins
  // a decade (a divisor of kBinsPerDecade), bin k from
  // kLowest * 10^(k / per_decade). Whole fine bins add up, so nothing is
  // re-binned or estimated; samples below the range count in the first bin,
  // at or above it in the last, so the counts always sum to count().
  std::vector<std::uint64_t> coarse_counts(unsigned per_decade) const;

  static constexpr unsigned kBinsPerDecade = 240;  // each bin 10^(1/240) = 0.96% wide
  static constexpr unsigned kDecades = 10;
  static constexpr double kLowest = 1e-6;  // seconds; the range ends at kLowest * 10^kDecades

 private:
  using Axis = boost::histogram::axis::regular<double, boost::histogram::axis::transform::log>;
  using Histogram = decltype(boost::histogram::make_histogram(std::declval<Axis>()));
  Histogram hist_;
  std::uint64_t count_ = 0;
  long double sum_ = 0;
  long double sum_sq_ = 0;
  double max_ = 0;
  double min_ = 0;
};

}  // namespace sim
