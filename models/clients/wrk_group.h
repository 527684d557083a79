// What wrk counts for one group of connections (one wrk command), and its
// end-of-run figures and report, the same in both engines: they differ in
// how a response comes back, never in how it is accounted.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "models/clients/wrk_result.h"
#include "models/clients/wrk_stats.h"
#include "sim/latency_stats.h"
#include "sim/time.h"

namespace models {

// The random streams of wrk's threads: thread t of group g draws its files
// from stream (kWrkThreadStreams + g, t).
constexpr std::uint64_t kWrkThreadStreams = 0x7772'6b00;  // "wrk"

// wrk's record_rate() every RECORD_INTERVAL_MS: one thread's requests since
// its last sample, per second.
struct WrkThreadRate {
  std::uint64_t requests = 0;
  sim::Time last_record = 0;
};

// An open-loop schedule's requests that fell due and are not yet written,
// each by when it fell due: the one thing an open-loop backlog holds per
// request, in both engines (resource_estimate.cpp sizes it from this type).
using PendingRequests = std::deque<sim::Time>;

// A per-second latency window as a column of the heat map (trimmed to the
// bins that hold responses).
LatencyBins heat_column(const sim::LatencyStats& window);

// The figures of `second` from per-second windows (index = second); a second
// past the windows' end had no responses.
SecondFigures second_figures(const std::vector<sim::LatencyStats>& latency, const std::vector<sim::LatencyStats>& ttfb,
                             std::size_t second);

// What the server's close of a connection ends, while the close is on its
// way to wrk (it reads it one way later): no request (a connection refused
// before its request was written), a request counted failed in this window,
// or one that failed before the window began (the warm-up's).
enum class ClosedRequest : std::uint8_t { kNone, kFailed, kFailedBeforeWindow };

struct WrkGroup {
  explicit WrkGroup(const WrkGroupSpec& group);

  // A whole response read at `now`, `latency` after its request was sent
  // (or, open loop, due).
  void record_response(sim::Time now, sim::Time latency, std::uint64_t response_bytes);
  // A response header read at `now`, `ttfb_s` after the request.
  void record_ttfb(sim::Time now, double ttfb_s);
  // The server closed one of the group's connections; `busy`: with a request
  // in flight, which failed for `reason`. Returns what the close ends.
  ClosedRequest server_closed(bool busy, const std::string& reason);
  // wrk reads a close (socket_readable() reads end-of-file before the end of
  // a response): a read error, unless it ends a request the warm-up failed,
  // which the window counts as neither issued nor failed.
  void close_read(ClosedRequest what);
  // record_rate() for one of this group's threads.
  void record_rate(sim::Time now, WrkThreadRate& thread);
  // wrk's summary after `duration`, with requests unanswered at the ages
  // `in_flight_ages_s` (one sample each, seconds since each was written or,
  // open loop, due: recorded as they are found, so that a backlog of
  // millions takes no list of its ages). Applies the coordinated-omission
  // correction: call it once.
  WrkResult result(sim::Time duration, const sim::LatencyStats& in_flight_ages_s);
  // The measured window begins at `now` (the end of a warm-up): every figure
  // starts again; the `in_flight` requests count as issued in the window, and
  // complete in it with their whole latency.
  void restart(sim::Time now, std::uint64_t in_flight);
  // A trace group (trace.h): a request fell due at `due` with the log's
  // $request_time (negative: none); a figure of the request due at `due`.
  void record_trace_due(sim::Time due, double logged_s);
  enum class TraceFigure { kLatency, kTtfb, kRequestTime };
  void record_trace(sim::Time due, TraceFigure which, double seconds);

  WrkGroupSpec spec;
  WrkHistogram latency;
  WrkHistogram rates;
  sim::LatencyStats raw;
  std::uint64_t issued = 0, complete = 0, bytes = 0;
  std::map<std::string, std::uint64_t> failed;
  // Of `failed`, those whose close wrk has not read yet (WrkResult::failed_unseen).
  std::uint64_t failed_unseen = 0;
  WrkErrors errors;
  std::uint32_t open = 0;
  sim::LatencyStats ttfb;
  // NGINX's $request_time of the group's requests (internet groups only).
  sim::LatencyStats request_time;
  std::vector<sim::LatencyStats> ttfb_windows, latency_windows;  // per second of the window
  sim::Time origin = 0;  // the window's start
  // Where the responses' time went; recorded only by an engine that keeps
  // stage clocks (the native one), which sets stages_recorded.
  StageAggregate stages;
  bool stages_recorded = false;
  // A trace group's windows, by when requests fell due (index: window).
  std::vector<TraceWindow> trace_windows;
  sim::LatencyStats trace_logged;  // the log's $request_time, every line replayed

 private:
  TraceWindow& trace_window(sim::Time due);
};

}  // namespace models
