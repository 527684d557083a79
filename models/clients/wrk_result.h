// A wrk command as a scenario gives it (a group of connections), and what
// wrk reports for it at the end of a run.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/clients/network_path.h"
#include "models/clients/popularity.h"
#include "models/clients/trace.h"
#include "models/net/request_stages.h"
#include "sim/latency_stats.h"

namespace models {

struct WrkGroupSpec {
  std::string name;
  std::uint32_t threads = 2;
  std::uint32_t connections = 10;
  double timeout_s = 2.0;
  std::string url;
  std::int64_t fixed_file = -1;   // -1: a random file for every request
  PopularitySpec popularity;      // which random file (popularity.h)
  std::uint32_t request_bytes = 64;
  bool on_server_host = false;     // wrk runs on the server's machine
  // Open loop (as wrk2 does): `rate` requests/s over the group's connections,
  // each connection on its own schedule (constant gaps, or Poisson); latency
  // counts from when a request was due. 0: wrk's closed loop.
  double rate = 0;
  bool poisson = false;
  // Recorded placement (clerk realrun): how many of this group's connections
  // each worker held in a real run, worker by worker. Empty: the accept
  // policy decides, as in a real server.
  std::vector<std::uint32_t> placement;
  // Internet clients: each connection's RTT and bottleneck rate (network_path.h).
  NetworkPathSpec network;
  // A replayed access log (trace.h): the group's requests come from it.
  TraceSpec trace;
};

// The latency heat map's bins (Gregg's latency heat maps, HdrHistogram's
// log buckets): fixed, kHeatBinsPerDecade a decade from
// sim::LatencyStats::kLowest (1 us) over its 10 decades. Bin k holds
// [heat_bin_lower_s(k), heat_bin_lower_s(k + 1)), 26% wide; a latency below
// 1 us counts in bin 0, one of 10,000 s or more in the last. They are the
// per-second windows' own 0.96% bins added up 24 at a time, so recording a
// response costs nothing more and nothing is re-binned.
inline constexpr std::uint32_t kHeatBinsPerDecade = 10;
inline constexpr std::uint32_t kHeatBins = kHeatBinsPerDecade * sim::LatencyStats::kDecades;
static_assert(sim::LatencyStats::kBinsPerDecade % kHeatBinsPerDecade == 0);
inline double heat_bin_lower_s(std::uint32_t k) {
  return sim::LatencyStats::kLowest * std::pow(10.0, static_cast<double>(k) / kHeatBinsPerDecade);
}

// One second's column of the heat map: counts[i] responses in bin first + i;
// bins outside are empty (an empty second: no counts). The counts sum to the
// second's responses.
struct LatencyBins {
  std::uint32_t first = 0;
  std::vector<std::uint64_t> counts;
  std::uint64_t total() const {
    std::uint64_t n = 0;
    for (std::uint64_t c : counts) n += c;
    return n;
  }
  std::uint64_t at(std::uint32_t bin) const { return bin >= first && bin - first < counts.size() ? counts[bin - first] : 0; }
};

// One second of a group's responses: those completed in [i, i+1) s, every
// one recorded as it completed (WrkGroup's per-second windows). A second
// with no completed response has no latency: its figures are NaN (null in
// JSON, a gap marked "no responses" in clerk-ui), never 0.
struct SecondFigures {
  std::uint64_t responses = 0;
  double latency_mean_s = std::nan(""), latency_p50_s = std::nan(""), latency_p99_s = std::nan("");
  LatencyBins latency_bins;      // the heat map's column: every response of the second, binned
  std::uint64_t ttfb_count = 0;  // response headers read that second
  double ttfb_p50_s = std::nan(""), ttfb_p99_s = std::nan("");
};

struct WrkErrors {
  std::uint64_t connect = 0, read = 0, write = 0, timeout = 0, status = 0;
};

// The censored tail: completed responses and the requests still in flight at
// their age, pooled by counts (per group, and over all groups merged).
inline sim::LatencyStats censored_tail(sim::LatencyStats done, const sim::LatencyStats& ages) {
  done.merge(ages);
  return done;
}

struct WrkResult {
  WrkGroupSpec spec;
  std::uint32_t connections_open = 0;  // threads * floor(connections / threads)
  double runtime_s = 0;
  std::uint64_t issued = 0;
  std::uint64_t complete = 0;
  std::uint64_t in_flight = 0;
  std::map<std::string, std::uint64_t> failed;
  // Of `failed`, the requests whose connection the server closed less than
  // one way before the end: wrk had not read the close when it stopped, so
  // its errors do not count them (wrk stops reading at the end). Every other
  // failed request is one read error: failed = errors.read - (closes that
  // ended no request) + failed_unseen.
  std::uint64_t failed_unseen = 0;
  std::uint64_t bytes = 0;
  WrkErrors errors;
  // As wrk reports them (after its coordinated-omission correction), in seconds.
  double latency_mean = 0, latency_stdev = 0, latency_max = 0, latency_within_stdev = 0;
  double latency_p50 = 0, latency_p75 = 0, latency_p90 = 0, latency_p99 = 0;
  double rate_mean = 0, rate_stdev = 0, rate_max = 0, rate_within_stdev = 0;
  // Without the correction, every completed response, in seconds.
  sim::LatencyStats raw;
  // The requests still in flight when the window ended (`in_flight` of
  // them), each at its age then: how long it had waited so far, a lower
  // bound on its latency (right-censored).
  sim::LatencyStats in_flight_age;
  // The censored tail: the completed responses and the requests still in
  // flight at their age, pooled. Its percentiles are lower bounds on those
  // of every request issued (a request in flight would take at least its age).
  sim::LatencyStats with_in_flight() const { return censored_tail(raw, in_flight_age); }
  // Time to first byte: from sending (or, open loop, from when it was due) to
  // the response header's arrival.
  sim::LatencyStats ttfb;
  // Internet groups (spec.network.internet): NGINX's $request_time of the
  // requests logged in the window, from the worker reading the request to
  // the last byte handed to the kernel. The rest of the client's latency is
  // the network and the socket: the handshake's and the request's way in,
  // slow start, and the response's bytes still in the send buffer.
  sim::LatencyStats request_time;
  double ttfb_peak_p99 = 0;     // the highest p99 of any one-second window
  double latency_peak_p99 = 0;
  std::vector<SecondFigures> per_second;  // one per second of the run
  // Where the time went: the stage split of the p50, p99, p99.9 and worst
  // responses (request_stages.h), without the correction.
  StageTable stages;
  std::string report;  // wrk's text
  TraceResult trace;   // a trace group's (spec.trace.enabled())
};

}  // namespace models
