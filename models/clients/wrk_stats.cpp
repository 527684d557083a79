#include "models/clients/wrk_stats.h"

#include <cctype>
#include <cmath>
#include <type_traits>
#include <fmt/format.h>

namespace models {

std::uint64_t& WrkHistogram::counter(std::uint64_t value) {
  const std::uint64_t p = value >> kPageBits;
  if (p >= table_.size()) table_.resize(p + 1, 0);
  if (table_[p] == 0) {
    pages_.emplace_back();
    pages_.back().fill(0);
    table_[p] = static_cast<std::uint32_t>(pages_.size());
  }
  return pages_[table_[p] - 1][value & ((1u << kPageBits) - 1)];
}

// Calls f(value, count) for each recorded value in [lo, hi], ascending. An f
// that returns bool stops the walk by returning true.
template <typename F>
void WrkHistogram::each(std::uint64_t lo, std::uint64_t hi, F f) const {
  if (lo > hi) return;
  constexpr std::uint64_t kPageSize = std::uint64_t{1} << kPageBits;
  const std::uint64_t last_page = hi >> kPageBits;
  for (std::uint64_t p = lo >> kPageBits; p < table_.size() && p <= last_page; ++p) {
    if (table_[p] == 0) continue;
    const Page& page = pages_[table_[p] - 1];
    const std::uint64_t base = p << kPageBits;
    const std::uint64_t first = lo > base ? lo - base : 0;
    const std::uint64_t end = p == last_page ? (hi - base) + 1 : kPageSize;
    for (std::uint64_t i = first; i < end; ++i) {
      if (page[i] == 0) continue;
      if constexpr (std::is_same_v<decltype(f(base + i, page[i])), bool>) {
        if (f(base + i, page[i])) return;
      } else {
        f(base + i, page[i]);
      }
    }
  }
}

bool WrkHistogram::record(std::uint64_t n) {
  if (n >= limit_) return false;
  ++counter(n);
  ++count_;
  if (n < min_) min_ = n;
  if (n > max_) max_ = n;
  return true;
}

void WrkHistogram::correct(std::int64_t expected) {
  if (expected <= 0 || count_ == 0) return;
  const auto e = static_cast<std::uint64_t>(expected);
  // Ascending over recorded values; copies land only below n, so every count
  // read is one recorded before the correction. The recorded values are
  // listed first, since adding copies may move the pages.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> recorded;
  each(2 * e, max_, [&](std::uint64_t n, std::uint64_t cnt) { recorded.emplace_back(n, cnt); });
  for (const auto& [n, cnt] : recorded) {
    std::int64_t m = static_cast<std::int64_t>(n) - expected;
    while (m > expected) {
      counter(static_cast<std::uint64_t>(m)) += cnt;
      count_ += cnt;
      m -= expected;
    }
  }
}

long double WrkHistogram::mean() const {
  if (count_ == 0) return 0;
  std::uint64_t sum = 0;
  each(min_, max_, [&](std::uint64_t v, std::uint64_t c) { sum += v * c; });
  return static_cast<long double>(sum) / static_cast<long double>(count_);
}

long double WrkHistogram::stdev(long double mean) const {
  if (count_ < 2) return 0;
  long double sum = 0;
  each(min_, max_, [&](std::uint64_t v, std::uint64_t c) {
    const long double d = static_cast<long double>(v) - mean;
    sum += d * d * static_cast<long double>(c);
  });
  return std::sqrt(sum / static_cast<long double>(count_ - 1));
}

long double WrkHistogram::within_stdev(long double mean, long double stdev, std::uint64_t n) const {
  const long double lower = mean - stdev * n;
  const long double upper = mean + stdev * n;
  std::uint64_t sum = 0;
  each(min_, max_, [&](std::uint64_t value, std::uint64_t c) {
    const auto v = static_cast<long double>(value);
    if (v >= lower && v <= upper) sum += c;
  });
  return static_cast<long double>(sum) / static_cast<long double>(count_) * 100;
}

std::uint64_t WrkHistogram::percentile(long double p) const {
  const auto rank = static_cast<std::uint64_t>(std::round((p / 100.0L) * count_ + 0.5L));
  std::uint64_t total = 0;
  std::uint64_t found = 0;
  each(min_, max_, [&](std::uint64_t v, std::uint64_t c) {
    total += c;
    if (total < rank) return false;
    found = v;
    return true;
  });
  return found;
}

namespace {

struct Units {
  const char* const* names;
  int count;
  long double scale;
};

// format_units(): divide while a next unit exists and the value is at least
// 85% of the scale. wrk's tables end one unit early (no "s" after "ms", no
// "h" after "m", no "P"): the lists below hold only the reachable ones.
std::string format_units(long double n, const Units& u, int precision) {
  int i = 0;
  long double amount = n;
  while (i + 1 < u.count && amount >= u.scale * 0.85L) {
    amount /= u.scale;
    ++i;
  }
  return fmt::format("{:.{}f}{}", static_cast<double>(amount), precision, u.names[i]);
}

const char* const kTimeUs[] = {"us", "ms"};
const char* const kTimeS[] = {"s", "m"};
const char* const kBinary[] = {"", "K", "M", "G", "T"};
const char* const kMetric[] = {"", "k", "M", "G", "T"};

}  // namespace

std::string wrk_format_time_us(long double us) {
  if (us >= 1000000.0L) return format_units(us / 1000000.0L, Units{kTimeS, 2, 60}, 2);
  return format_units(us, Units{kTimeUs, 2, 1000}, 2);
}
std::string wrk_format_time_s(long double s) { return format_units(s, Units{kTimeS, 2, 60}, 0); }
std::string wrk_format_binary(long double b) { return format_units(b, Units{kBinary, 5, 1024}, 2); }
std::string wrk_format_metric(long double v) { return format_units(v, Units{kMetric, 5, 1000}, 2); }

std::string wrk_column(const std::string& text, int width) {
  int pad = 2;
  const auto n = text.size();
  if (n >= 1 && std::isalpha(static_cast<unsigned char>(text[n - 1]))) --pad;
  if (n >= 2 && std::isalpha(static_cast<unsigned char>(text[n - 2]))) --pad;
  const int w = width - pad;
  std::string shown = text.size() > static_cast<std::size_t>(w) ? text.substr(0, static_cast<std::size_t>(w)) : text;
  return fmt::format("{:>{}}{}", shown, w, std::string(static_cast<std::size_t>(pad), ' '));
}

}  // namespace models
