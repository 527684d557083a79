#include "models/clients/wrk_group.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace models {

namespace {
constexpr std::uint64_t kMaxThreadRate = 10000000;  // MAX_THREAD_RATE_S

void record_window(std::vector<sim::LatencyStats>& windows, sim::Time now, double seconds) {
  const auto second = static_cast<std::size_t>(now / sim::seconds(1));
  if (windows.size() <= second) windows.resize(second + 1);
  windows[second].record(seconds);
}

// The highest 99th percentile of any one-second window.
double peak_p99(const std::vector<sim::LatencyStats>& windows) {
  double peak = 0;
  for (const auto& w : windows)
    if (w.count() > 0) peak = std::max(peak, w.percentile(99));
  return peak;
}
}  // namespace

LatencyBins heat_column(const sim::LatencyStats& window) {
  LatencyBins out;
  if (window.count() == 0) return out;
  const std::vector<std::uint64_t> all = window.coarse_counts(kHeatBinsPerDecade);
  std::size_t lo = 0, hi = all.size();
  while (lo < hi && all[lo] == 0) ++lo;
  while (hi > lo && all[hi - 1] == 0) --hi;
  out.first = static_cast<std::uint32_t>(lo);
  out.counts.assign(all.begin() + static_cast<std::ptrdiff_t>(lo), all.begin() + static_cast<std::ptrdiff_t>(hi));
  return out;
}

SecondFigures second_figures(const std::vector<sim::LatencyStats>& latency, const std::vector<sim::LatencyStats>& ttfb,
                             std::size_t second) {
  SecondFigures f;
  if (second < latency.size() && latency[second].count() > 0) {
    const sim::LatencyStats& w = latency[second];
    f.responses = w.count();
    f.latency_mean_s = w.mean();
    f.latency_p50_s = w.percentile(50);
    f.latency_p99_s = w.percentile(99);
    f.latency_bins = heat_column(w);
  }
  if (second < ttfb.size() && ttfb[second].count() > 0) {
    f.ttfb_count = ttfb[second].count();
    f.ttfb_p50_s = ttfb[second].percentile(50);
    f.ttfb_p99_s = ttfb[second].percentile(99);
  }
  return f;
}

WrkGroup::WrkGroup(const WrkGroupSpec& group)
    : spec(group),
      latency(static_cast<std::uint64_t>(std::llround(group.timeout_s * 1e6))),
      rates(kMaxThreadRate) {}

void WrkGroup::restart(sim::Time now, std::uint64_t in_flight) {
  WrkGroup fresh(spec);
  fresh.open = open;
  fresh.issued = in_flight;
  fresh.origin = now;
  fresh.stages_recorded = stages_recorded;  // the engine's capability, not a count
  *this = std::move(fresh);
}

ClosedRequest WrkGroup::server_closed(bool busy, const std::string& reason) {
  if (!busy) return ClosedRequest::kNone;
  ++failed[reason];
  ++failed_unseen;
  return ClosedRequest::kFailed;
}

void WrkGroup::close_read(ClosedRequest what) {
  if (what == ClosedRequest::kFailedBeforeWindow) return;
  if (what == ClosedRequest::kFailed) --failed_unseen;
  ++errors.read;
}

void WrkGroup::record_response(sim::Time now, sim::Time latency_ns, std::uint64_t response_bytes) {
  ++complete;
  bytes += response_bytes;
  raw.record(sim::to_seconds(latency_ns));
  record_window(latency_windows, now - origin, sim::to_seconds(latency_ns));
  if (!latency.record(static_cast<std::uint64_t>(latency_ns / 1000))) ++errors.timeout;
}

void WrkGroup::record_ttfb(sim::Time now, double ttfb_s) {
  ttfb.record(ttfb_s);
  record_window(ttfb_windows, now - origin, ttfb_s);
}

TraceWindow& WrkGroup::trace_window(sim::Time due) {
  const double at = sim::to_seconds(std::max<sim::Time>(0, due - origin));
  const auto w = static_cast<std::size_t>(at / spec.trace.window_s);
  if (trace_windows.size() <= w) trace_windows.resize(w + 1);
  return trace_windows[w];
}

void WrkGroup::record_trace_due(sim::Time due, double logged_s) {
  TraceWindow& w = trace_window(due);
  ++w.due;
  if (logged_s < 0) return;
  w.logged.record(logged_s);
  trace_logged.record(logged_s);
}

void WrkGroup::record_trace(sim::Time due, TraceFigure which, double seconds) {
  TraceWindow& w = trace_window(due);
  (which == TraceFigure::kLatency ? w.latency : which == TraceFigure::kTtfb ? w.ttfb : w.request_time).record(seconds);
}

void WrkGroup::record_rate(sim::Time now, WrkThreadRate& t) {
  if (t.requests == 0) return;
  const std::int64_t elapsed_ms = (now - t.last_record) / sim::milliseconds(1);
  const auto rate = static_cast<std::uint64_t>((static_cast<double>(t.requests) / static_cast<double>(elapsed_ms)) * 1000);
  rates.record(rate);
  t.requests = 0;
  t.last_record = now;
}

WrkResult WrkGroup::result(sim::Time duration, const sim::LatencyStats& in_flight_ages_s) {
  const double runtime_s = sim::to_seconds(duration);
  const auto runtime_us = static_cast<std::uint64_t>(duration / 1000);
  WrkResult r;
  r.spec = spec;
  r.connections_open = spec.threads * (spec.connections / spec.threads);
  r.runtime_s = runtime_s;
  if (stages_recorded) r.stages = stages.table();
  r.issued = issued;
  r.complete = complete;
  r.in_flight = in_flight_ages_s.count();
  r.in_flight_age = in_flight_ages_s;
  r.failed = failed;
  r.failed_unseen = failed_unseen;
  r.bytes = bytes;
  r.errors = errors;
  r.raw = raw;
  r.ttfb = ttfb;
  r.request_time = request_time;
  r.ttfb_peak_p99 = peak_p99(ttfb_windows);
  r.latency_peak_p99 = peak_p99(latency_windows);
  // Whole seconds of the run: a response at exactly the end opens no second.
  const auto seconds = static_cast<std::size_t>(duration / sim::seconds(1));
  for (std::size_t i = 0; i < seconds; ++i) r.per_second.push_back(second_figures(latency_windows, ttfb_windows, i));
  // The coordinated-omission correction, once, with wrk's integer arithmetic.
  const std::uint64_t per_connection = complete / spec.connections;
  // (wrk2's open loop, and a replayed log, measure from when requests were due and have none.)
  if (per_connection > 0 && spec.rate == 0 && !spec.trace.enabled()) latency.correct(static_cast<std::int64_t>(runtime_us / per_connection));
  const long double mean = latency.mean();
  const long double stdev = latency.stdev(mean);
  r.latency_mean = static_cast<double>(mean) * 1e-6;
  r.latency_stdev = static_cast<double>(stdev) * 1e-6;
  r.latency_max = static_cast<double>(latency.max()) * 1e-6;
  r.latency_within_stdev = latency.count() ? static_cast<double>(latency.within_stdev(mean, stdev, 1)) / 100 : 0;
  r.latency_p50 = static_cast<double>(latency.percentile(50)) * 1e-6;
  r.latency_p75 = static_cast<double>(latency.percentile(75)) * 1e-6;
  r.latency_p90 = static_cast<double>(latency.percentile(90)) * 1e-6;
  r.latency_p99 = static_cast<double>(latency.percentile(99)) * 1e-6;
  const long double rmean = rates.mean();
  const long double rstdev = rates.stdev(rmean);
  r.rate_mean = static_cast<double>(rmean);
  r.rate_stdev = static_cast<double>(rstdev);
  r.rate_max = static_cast<double>(rates.max());
  r.rate_within_stdev = rates.count() ? static_cast<double>(rates.within_stdev(rmean, rstdev, 1)) / 100 : 0;

  std::string s;
  s += fmt::format("Running {} test @ {}\n", wrk_format_time_s(runtime_s), spec.url);
  s += fmt::format("  {} threads and {} connections\n", spec.threads, spec.connections);
  s += fmt::format("  Thread Stats{:>6}{:>11}{:>8}{:>12}\n", "Avg", "Stdev", "Max", "+/- Stdev");
  s += fmt::format("    {:<10}{}{}{}{:8.2f}%\n", "Latency", wrk_column(wrk_format_time_us(mean), 8),
                   wrk_column(wrk_format_time_us(stdev), 10), wrk_column(wrk_format_time_us(latency.max()), 9),
                   r.latency_within_stdev * 100);
  s += fmt::format("    {:<10}{}{}{}{:8.2f}%\n", "Req/Sec", wrk_column(wrk_format_metric(rmean), 8),
                   wrk_column(wrk_format_metric(rstdev), 10), wrk_column(wrk_format_metric(rates.max()), 9),
                   r.rate_within_stdev * 100);
  s += fmt::format("  {} requests in {}, {}B read\n", complete, wrk_format_time_us(runtime_us),
                   wrk_format_binary(bytes));
  if (errors.connect || errors.read || errors.write || errors.timeout)
    s += fmt::format("  Socket errors: connect {}, read {}, write {}, timeout {}\n", errors.connect, errors.read,
                     errors.write, errors.timeout);
  if (errors.status) s += fmt::format("  Non-2xx or 3xx responses: {}\n", errors.status);
  s += fmt::format("Requests/sec: {:9.2f}\n", static_cast<double>(complete) / runtime_s);
  s += fmt::format("Transfer/sec: {:>10}B\n", wrk_format_binary(static_cast<long double>(bytes) / runtime_s));
  r.report = std::move(s);
  if (spec.trace.enabled()) {
    r.trace.logged = trace_logged;
    for (std::size_t i = 0; i < trace_windows.size(); ++i)
      r.trace.windows.push_back(window_figures(trace_windows[i], static_cast<double>(i) * spec.trace.window_s));
  }
  return r;
}

}  // namespace models
