// wrk 4.0's statistics, reproduced to the bucket: one counter per
// microsecond up to the timeout (stats.c), the coordinated-omission
// correction applied once to the merged latencies at the end (wrk.c), and
// mean, sample standard deviation, "+/- Stdev" and percentiles computed over
// the buckets from the smallest to the largest recorded value.
//
// One quirk is kept on purpose: the correction adds copies below the
// smallest recorded value without moving `min`, so those copies count in the
// divisor but not in the sums. That is what wrk prints.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace models {

class WrkHistogram {
 public:
  // stats_alloc(max): values 0..max are kept, larger ones rejected.
  explicit WrkHistogram(std::uint64_t max) : limit_(max + 1) {}

  bool record(std::uint64_t value);
  // stats_correct(): every value n >= 2E also adds n-E, n-2E, ... while > E.
  void correct(std::int64_t expected);

  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  long double mean() const;
  long double stdev(long double mean) const;
  long double within_stdev(long double mean, long double stdev, std::uint64_t n) const;  // percent
  std::uint64_t percentile(long double p) const;

 private:
  std::uint64_t limit_;
  // Sparse counters, one per microsecond, in pages of 64 allocated when first
  // touched: a page table indexed by value / 64 holds each page's place + 1
  // (0: none). Recording allocates only when a new range of 64 values is
  // first reached, not per sample as a map node would.
  static constexpr unsigned kPageBits = 6;
  using Page = std::array<std::uint64_t, std::size_t{1} << kPageBits>;
  std::uint64_t& counter(std::uint64_t value);
  // Calls f(value, count) for every counter not zero in [lo, hi], ascending.
  template <typename F>
  void each(std::uint64_t lo, std::uint64_t hi, F f) const;
  std::vector<std::uint32_t> table_;
  std::vector<Page> pages_;
  std::uint64_t count_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
};

// wrk's number formatting (units.c) and report layout.
std::string wrk_format_time_us(long double microseconds);
std::string wrk_format_time_s(long double seconds);
std::string wrk_format_binary(long double bytes);
std::string wrk_format_metric(long double value);
// print_units(): right-aligned in `width`, padded as wrk pads unit suffixes.
std::string wrk_column(const std::string& text, int width);

}  // namespace models
