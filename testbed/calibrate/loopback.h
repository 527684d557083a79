// Loopback TCP measured in-process: the round trip of a 1-byte ping-pong
// (the network's one-way latency is half of it) and the bandwidth of one
// sender into one receiver.
#pragma once
#include <cstdint>

namespace testbed::calibrate {

struct PingPongResult {
  double median_rtt_s = 0;
  double p99_rtt_s = 0;
  std::uint64_t round_trips = 0;
};

struct BandwidthResult {
  double bytes_per_s = 0;
  std::uint64_t bytes = 0;
  double seconds = 0;
};

// `round_trips` 1-byte exchanges over 127.0.0.1 with TCP_NODELAY, each timed.
PingPongResult loopback_ping_pong(std::uint64_t round_trips);
// One thread write()s a 1 MiB buffer for `seconds`, another read()s it.
BandwidthResult loopback_bandwidth(double seconds);

}  // namespace testbed::calibrate
