#include "models/scenario/resource_estimate.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <unistd.h>

#include "models/scenario/config_error.h"

namespace models {

namespace {

constexpr double kBaseBytes = 64.0 * 1024 * 1024;
constexpr double kBytesPerConnection = 16.0 * 1024;
// sim::LatencyStats: 2,400 bins and two overflow bins; counters widen as
// they grow (Boost.Histogram's unlimited storage), 4 bytes is the bound for
// the counts one second can reach.
constexpr double kWindowBytes = 2402.0 * 4 + 128;
// The result's per-second heat-map column (wrk_result.h's LatencyBins): at
// most kHeatBins 8-byte counts and the vector itself.
constexpr double kHeatColumnBytes = kHeatBins * 8.0 + 32;
constexpr double kIfstatBytesPerSecond = 16;
constexpr double kWrkTableBytesPerMicrosecond = 4.0 / 64;  // WrkHistogram's page table
constexpr double kPendingRequestBytes = 8;

std::string bytes_text(double b) {
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", b / (1024.0 * 1024 * 1024));
  return fmt::format("{:.0f} MiB", std::ceil(b / (1024.0 * 1024)));
}

}  // namespace

double ResourceEstimate::total_bytes() const {
  double sum = 0;
  for (const Part& p : parts) sum += p.bytes;
  return sum;
}

std::string ResourceEstimate::text() const {
  std::string out = bytes_text(total_bytes()) + " (";
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += fmt::format("{}{} {}", i ? ", " : "", parts[i].what, bytes_text(parts[i].bytes));
  return out + ")";
}

ResourceEstimate estimate_resources(const Scenario& sc, double duration_s) {
  const double seconds = std::ceil(std::max(duration_s, 0.0)) + 1;
  double connections = 0, series = 0, histograms = 0, backlog = 0;
  for (const WrkGroupSpec& g : sc.clients) {
    connections += static_cast<double>(g.connections) * kBytesPerConnection;
    series += seconds * (2 * kWindowBytes + kHeatColumnBytes);
    histograms += std::max(g.timeout_s, 0.0) * 1e6 * kWrkTableBytesPerMicrosecond;
    backlog += std::max(g.rate, 0.0) * std::max(duration_s, 0.0) * kPendingRequestBytes;
  }
  series += seconds * kIfstatBytesPerSecond;
  ResourceEstimate e;
  e.parts = {{"program and tables", kBaseBytes},
             {"connections", connections},
             {"per-second series", series},
             {"latency histograms", histograms},
             {"open-loop backlog", backlog}};
  return e;
}

double memory_budget_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<double>(pages) * static_cast<double>(page) / 2;
}

void check_fits_machine(const Scenario& sc, double duration_s, const std::string& where) {
  const double budget = memory_budget_bytes();
  if (budget <= 0) return;  // unknown: run as before
  const ResourceEstimate e = estimate_resources(sc, duration_s);
  if (e.total_bytes() <= budget)
    return;
  throw ConfigError(where, 0, "",
                    fmt::format("a run of {:g} s would need about {}, more than the {} allowed (half of this "
                                "machine's memory): shorten the run or use fewer connections",
                                duration_s, e.text(), bytes_text(budget)));
}

}  // namespace models
