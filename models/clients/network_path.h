// Internet clients: each connection of a group draws its round-trip time
// and its bottleneck rate (the client's access link, or whatever is
// slowest on its path) when it opens, from the group's own random streams,
// one for each quantity: a key of another group, or the other quantity's
// distribution, never changes the draws. The server's socket then sends to
// it with TCP slow start (models/os/tcp_sender.h).
//
// A quantity is given as
//  - one value: every connection the same;
//  - a lognormal, by its median and sigma (the standard deviation of its
//    logarithm), the usual fit to measured RTTs and access rates;
//  - a table of percentiles, like the CDFs that measurement studies
//    publish: a draw takes a uniform u and interpolates between the
//    neighbouring percentiles on a log scale; below the lowest percentile
//    given it takes the lowest value, above the highest the highest.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/random.h"

namespace models {

struct Distribution {
  enum class Kind : std::uint8_t { kFixed, kLognormal, kPercentiles };
  Kind kind = Kind::kFixed;
  double value = 0;                              // kFixed
  double median = 0, sigma = 0;                  // kLognormal
  std::vector<std::pair<double, double>> table;  // kPercentiles: (percentile 0-100, value), percentiles rising

  // One draw: kFixed takes no number from `rng`, kLognormal one normal(),
  // kPercentiles one uniform().
  double draw(sim::RandomStream& rng) const;
  // The value at percentile p (0 < p < 100) of the distribution the draws follow.
  double quantile(double p) const;
  // For reports: values times `scale`, in `unit` ("ms" with 1e3).
  std::string describe(double scale, const char* unit) const;
};

struct NetworkPathSpec {
  bool internet = false;  // false: the LAN of [network] one_way_latency
  Distribution rtt_s;     // seconds
  Distribution rate_Bps;  // payload bytes/s; kFixed infinity: no bottleneck
};

// A group's streams: (kind, index) with the index from the group's name, so
// that adding or renaming another group leaves them alone.
constexpr std::uint64_t kRttStreams = 0x7274'7400;   // "rtt"
constexpr std::uint64_t kRateStreams = 0x6277'0000;  // "bw"
std::uint64_t group_stream_index(const std::string& group_name);

}  // namespace models
