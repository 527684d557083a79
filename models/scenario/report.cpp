#include "models/scenario/report.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace models {

namespace {
// iostat -x's columns for each drive, and the block layer's slot sleeps.
std::string iostat_table(const RunResult& r) {
  if (r.drive_iostat.empty()) return {};
  std::string s = fmt::format("{:<8}{:>9}{:>11}{:>9}{:>10}{:>10}{:>10}{:>8}{:>12}{:>11}{:>10}\n", "Device", "r/s",
                              "rkB/s", "rrqm/s", "avgrq-kB", "avgqu-sz", "await", "%util", "slot-waits",
                              "slot-wait", "max-outst");
  for (std::size_t i = 0; i < r.drive_iostat.size(); ++i) {
    const RunResult::DriveIostat& x = r.drive_iostat[i];
    s += fmt::format("{:<8}{:>9.2f}{:>11.1f}{:>9.2f}{:>10.1f}{:>10.2f}{:>8.1f}ms{:>8.1f}{:>12}{:>9.1f}ms{:>10}\n",
                     fmt::format("drive{}", i), x.r_s, x.rkb_s, x.rrqm_s, x.avgrq_kb, x.avgqu_sz, x.await_ms,
                     x.util * 100, x.slot_waits, x.slot_wait_ms, x.max_outstanding);
  }
  return s;
}
}  // namespace
namespace {

// "  D by cause: disk data 12.0%  metadata 3.1%" as shares of the run per
// task; causes with no time are left out, and so is the line when none has.
// A request-slot sleep names the kernel's wait channel, as /proc/PID/wchan would.
std::string blocked_by_cause_line(const BlockedByCause& b, const std::string& slot_channel) {
  static constexpr const char* kLabels[kWaitCauses] = {"other", "disk data", "metadata", "reclaim", "request slot"};
  std::string s;
  for (std::size_t c = 1; c <= kWaitCauses; ++c) {
    const std::size_t i = c % kWaitCauses;  // "other" last
    if (b[i] <= 0) continue;
    s += fmt::format("  {} {:.1f}%", kLabels[i], b[i] * 100);
    if (i == static_cast<std::size_t>(WaitCause::kRequestSlot) && !slot_channel.empty())
      s += fmt::format(" ({})", slot_channel);
  }
  return s.empty() ? s : "  D by cause:" + s + "\n";
}

// The warm-up's convergence: one row per interval, the first few and the last.
std::string warmup_table(const WarmupReport& w) {
  std::string s = fmt::format("\n-- warm-up ({}): {:.0f} s before the window; {}\n", w.mode, w.took_s, w.status);
  if (w.intervals.empty()) return s;
  s += fmt::format("{:>9} {:>11} {:>9} {:>11} {:>9} {:>9} {:>12}\n", "end", "cache hits", "lookups", "meta hits",
                   "lookups", "resident", "evicted");
  constexpr std::size_t kHead = 3, kTail = 8;
  const std::size_t n = w.intervals.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (n > kHead + kTail && i == kHead) s += fmt::format("{:>9}\n", "...");
    if (n > kHead + kTail && i >= kHead && i < n - kTail) continue;
    const WarmupInterval& x = w.intervals[i];
    s += fmt::format("{:>8.0f}s {:>11.3f} {:>9} {:>11.3f} {:>9} {:>8.1f}% {:>12}\n", x.end_s, x.cache_hit_ratio,
                     x.cache_lookups, x.meta_hit_ratio, x.meta_lookups, x.resident_frac * 100, x.evicted_units);
  }
  return s;
}

// Where the p50, p99, p99.9 and worst requests spent their time: one row
// each, a column per stage that any row used (ms and share of the row).
std::string stage_table(const StageTable& t) {
  if (!t.recorded) return "  where the time went: not recorded (this engine keeps no per-request stage clocks)\n";
  if (t.rows.empty()) return {};
  std::array<bool, kStages> used{};
  for (const StageRow& row : t.rows)
    for (std::size_t i = 0; i < kStages; ++i) used[i] = used[i] || row.seconds[i] >= 0.5e-6;
  std::string s = fmt::format("  where the time went ({} responses; p-rows: mean of the requests in the bucket of that percentile)\n",
                              t.requests);
  s += fmt::format("  {:<6}{:>11}", "", "latency");
  for (std::size_t i = 0; i < kStages; ++i)
    if (used[i]) s += fmt::format("{:>16}", stage_info(static_cast<Stage>(i)).key);
  s += "\n";
  for (const StageRow& row : t.rows) {
    s += fmt::format("  {:<6}{:>9.3f}ms", row.label, row.latency_s * 1e3);
    for (std::size_t i = 0; i < kStages; ++i)
      if (used[i])
        s += fmt::format("{:>16}", fmt::format("{:.3f}ms {:>3.0f}%", row.seconds[i] * 1e3,
                                               row.latency_s > 0 ? row.seconds[i] / row.latency_s * 100 : 0.0));
    s += "\n";
  }
  s += "  stages:";
  for (std::size_t i = 0; i < kStages; ++i)
    if (used[i]) {
      const StageInfo& info = stage_info(static_cast<Stage>(i));
      s += fmt::format(" {} = {} ({});", info.key, info.server, info.store);
    }
  s.back() = '\n';
  if (t.mismatches) s += fmt::format("  WARNING: {} splits do not sum to their latency\n", t.mismatches);
  return s;
}

// A latency with its unit: us below 1 ms, ms below 1 s, else s.
std::string span(double s) {
  if (s < 1e-3) return fmt::format("{:.1f}us", s * 1e6);
  if (s < 1) return fmt::format("{:.2f}ms", s * 1e3);
  return fmt::format("{:.3f}s", s);
}

std::string percentiles(const sim::LatencyStats& l) {
  return fmt::format("p50 {}  p90 {}  p99 {}  p99.9 {}  max {}", span(l.percentile(50)), span(l.percentile(90)),
                     span(l.percentile(99)), span(l.percentile(99.9)), span(l.max()));
}

// Total latency of the completed responses, and the censored tail: the
// requests still in flight at the end, counted at their age.
std::string total_latency_lines(const sim::LatencyStats& done, const sim::LatencyStats& ages, std::uint64_t in_flight) {
  std::string s = fmt::format("  total latency, {} completed responses (uncorrected): {}\n", done.count(),
                              done.count() ? percentiles(done) : std::string("none"));
  if (in_flight == 0) return s + "  in flight at the end: none\n";
  return s + fmt::format("  in flight at the end: {} (oldest {}); with them at their age, lower bounds: {}\n", in_flight,
                         span(ages.max()), percentiles(censored_tail(done, ages)));
}

// An internet group: its paths, and NGINX's $request_time beside the
// latency the clients saw.
std::string internet_lines(const WrkResult& c) {
  const NetworkPathSpec& n = c.spec.network;
  std::string s = fmt::format("  internet clients: RTT {}; bandwidth {}\n", n.rtt_s.describe(1e3, "ms"),
                              n.rate_Bps.describe(8e-6, "Mbit/s"));
  return s + fmt::format("  nginx $request_time, {} requests logged (reading the request to the last byte handed to the "
                         "kernel): {}\n",
                         c.request_time.count(), c.request_time.count() ? percentiles(c.request_time) : std::string("none"));
}

// A trace group: what became of the log's lines, and window by window the
// simulated latency, TTFB and $request_time beside the log's $request_time.
std::string trace_lines(const WrkResult& c) {
  const TraceCounts& n = c.trace.counts;
  const TraceSpec& t = c.spec.trace;
  // Every line read in one count (TraceResult): replayed lines fell due, each one request.
  std::string s = fmt::format("  access log {}: {} lines read, {} replayed", t.file, n.lines, c.trace.replayed);
  if (c.trace.not_due_at_end) s += fmt::format(", {} not yet due when the run ended", c.trace.not_due_at_end);
  if (n.malformed)
    s += fmt::format(", {} skipped as malformed (first: line {}, {})", n.malformed, n.first_malformed_line,
                     n.first_malformed_why);
  if (n.before_window) s += fmt::format(", {} before from", n.before_window);
  if (n.past_until) s += fmt::format(", {} at or past until", n.past_until);
  if (n.sampled_out) s += fmt::format(", {} sampled out", n.sampled_out);
  if (n.reordered) s += fmt::format(", {} earlier than the line before (replayed in log order)", n.reordered);
  s += c.trace.log_finished ? "; the whole window replayed" : "; the run ended before the log's window did";
  s += fmt::format("\n  data set: {} files made for the log's paths ({} more to fill the tree)\n", t.new_files, t.padding);
  if (c.trace.logged.count())
    s += fmt::format("  the log's $request_time, {} lines: {}\n", c.trace.logged.count(), percentiles(c.trace.logged));
  if (c.request_time.count())
    s += fmt::format("  simulated nginx $request_time, {} requests: {}\n", c.request_time.count(), percentiles(c.request_time));
  auto ms = [](double v) { return std::isnan(v) ? std::string("-") : fmt::format("{:.2f}", v * 1e3); };
  s += fmt::format("  {:>9} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   (ms; by when requests fell due)\n",
                   "window", "due", "lat p50", "lat p99", "ttfb p50", "ttfb p99", "rt p50", "rt p99", "log p50", "log p99");
  for (const TraceWindowFigures& w : c.trace.windows)
    s += fmt::format("  {:>8}s {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", fmt::format("{:g}", w.start_s), w.due,
                     ms(w.latency_p50_s), ms(w.latency_p99_s), ms(w.ttfb_p50_s), ms(w.ttfb_p99_s),
                     ms(w.request_time_p50_s), ms(w.request_time_p99_s), ms(w.logged_p50_s), ms(w.logged_p99_s));
  return s;
}

}  // namespace

std::string text_report(const RunResult& r) {
  std::string s;
  s += fmt::format("== {}  (seed {}, {:g} s simulated)\n", r.scenario, r.seed, r.duration_s);
  s += fmt::format("   modelled: NGINX {} with that release's defaults (nginx.version)\n", r.nginx_version);
  s += warmup_table(r.warmup);
  for (const WrkResult& c : r.clients) {
    s += fmt::format("\n-- client group \"{}\": wrk\n", c.spec.name);
    s += c.report;
    if (c.spec.rate > 0)
      s += fmt::format("  (open loop: {:.0f} requests/s due, latency from when each was due)\n", c.spec.rate);
    if (c.ttfb.count())
      s += fmt::format("  time to first byte: p50 {:.2f}ms  p99 {:.2f}ms  p99.9 {:.2f}ms  max {:.2f}ms  peak 1-s p99 {:.2f}ms\n",
                       c.ttfb.percentile(50) * 1e3, c.ttfb.percentile(99) * 1e3, c.ttfb.percentile(99.9) * 1e3,
                       c.ttfb.max() * 1e3, c.ttfb_peak_p99 * 1e3);
    s += total_latency_lines(c.raw, c.in_flight_age, c.in_flight);
    if (c.spec.network.internet) s += internet_lines(c);
    if (c.spec.trace.enabled()) s += trace_lines(c);
    s += stage_table(c.stages);
  }
  s += fmt::format("\n-- all {} client group(s), merged by counts (histograms added, not percentiles averaged)\n",
                   r.clients.size());
  s += total_latency_lines(r.latency_all, r.in_flight_age_all, r.in_flight_all);

  s += "\n-- server NIC, as ifstat prints it (1 s samples)\n";
  s += fmt::format("{:>8} {:>13} {:>13} {:>10}\n", "time", "KB/s in", "KB/s out", "Gbit/s out");
  for (std::size_t i = 0; i < r.nic_out_bytes_per_s.size(); ++i)
    s += fmt::format("{:>7}s {:>13.2f} {:>13.2f} {:>10.2f}\n", i + 1, r.nic_in_bytes_per_s[i] / 1024,
                     r.nic_out_bytes_per_s[i] / 1024, r.nic_out_bytes_per_s[i] * 8 / 1e9);
  s += fmt::format("mean outbound {:.2f} Gbit/s (TCP payload capacity {:.2f} Gbit/s)\n", r.nic_out_gbps_mean,
                   r.nic_payload_capacity_gbps);

  s += "\n-- top (time-averaged)\n";
  const double busy = r.cpu_busy_frac * 100, wa = r.iowait_frac * 100;
  s += fmt::format("%Cpu(s): {:5.1f} busy, {:5.1f} id, {:5.1f} wa   ({} logical CPUs)\n", busy,
                   std::max(0.0, 100 - busy - wa), wa, r.logical_cpus);
  s += fmt::format("workers ({}):      R {:5.1f}%   S {:5.1f}%   D {:5.1f}%\n", r.workers.size(),
                   r.workers_running * 100, r.workers_sleeping * 100, r.workers_disk_wait * 100);
  s += blocked_by_cause_line(r.workers_blocked_by_cause, r.slot_wait_channel);
  if (r.thread_pool) {
    s += fmt::format("pool threads ({}): R {:5.1f}%   S {:5.1f}%   D {:5.1f}%\n", r.pool_threads,
                     r.pool_running * 100, r.pool_sleeping * 100, r.pool_disk_wait * 100);
    s += blocked_by_cause_line(r.pool_blocked_by_cause, r.slot_wait_channel);
  }
  if (r.scheduler != "processor-sharing" && !r.scheduler.empty())
    s += fmt::format("scheduler {}: of R, waiting for a CPU: workers {:.2f}%{}\n", r.scheduler,
                     r.workers_cpu_wait * 100,
                     r.thread_pool ? fmt::format(", pool threads {:.2f}%", r.pool_cpu_wait * 100) : std::string());

  s += "\n-- workers (connections accepted, requests, busy share)\n";
  for (std::size_t i = 0; i < r.workers.size(); ++i) {
    const WorkerFigures& w = r.workers[i];
    s += fmt::format("worker {:>3}: {:>6} conn {:>9} req   R {:5.1f}%  D {:5.1f}%\n", i, w.connections, w.requests,
                     w.running * 100, w.disk_wait * 100);
  }
  s += fmt::format("fairness (Jain, requests) {:.3f}   busiest worker {:.1f}% of requests\n", r.fairness,
                   r.busiest_share * 100);
  s += fmt::format("event loop blocked: {:.1f}% of responses waited behind a disk wait, {:.2f} s in all\n",
                   r.responses_delayed_share * 100, r.blocked_wait_s);
  if (r.share_behind_one_block > 0)
    s += fmt::format("one blocking read holds up {:.1f}% of requests on average (even spread: {:.1f}%)\n",
                     r.share_behind_one_block * 100, 100.0 / static_cast<double>(r.workers.size()));

  if (r.aio_nowait)
    s += fmt::format("\n-- RWF_NOWAIT probe (aio_nowait, never in NGINX)\nchunks probed {}   missing, to the pool {}   "
                     "resident but blocked in sendfile() (evicted since the probe) {}\n",
                     r.read_paths.probes, r.read_paths.misses, r.read_paths.races);
  if (r.io_uring)
    s += fmt::format("\n-- io_uring (a ring per worker, never in NGINX)\nreads {}   completed inline {}   "
                     "not inline (the pool below: io-wq, or page callbacks) {}\n",
                     r.read_paths.uring_reads, r.read_paths.uring_reads - r.read_paths.uring_async,
                     r.read_paths.uring_async);
  if (r.thread_pool) {
    if (r.pool_figures.empty())
      s += fmt::format("\n-- thread pools ({}, one per worker)\n", r.pools);
    else
      s += fmt::format("\n-- thread pools ({} named, each in every one of {} workers)\n", r.pool_figures.size(), r.pools);
    s += fmt::format("tasks {}   overflows {}   tasks waiting in a pool's queue: mean {:.2f} per pool, busiest pool's "
                     "mean {:.2f}, most in one pool {}\n",
                     r.pool_tasks, r.pool_overflows, r.pool_mean_waiting, r.pool_busiest_mean_waiting,
                     r.pool_max_waiting);
    for (const RunResult::PoolFigures& f : r.pool_figures)
      s += fmt::format("  pool {:<12} threads {:>4}  tasks {:>9}  overflows {:>6}  busy {:5.1f}%  waiting: mean {:.2f} "
                       "per worker's pool, most {}, {:.2f} ms a task\n",
                       "\"" + f.name + "\"", f.threads, f.tasks, f.overflows, f.utilization * 100, f.mean_waiting,
                       f.max_waiting, f.mean_queue_wait_s * 1e3);
  }
  if (r.error_log_lines) {
    s += fmt::format("\n-- error.log ({} lines, first ones)\n", r.error_log_lines);
    // Every line is ngx_thread_task_post's overflow, which NGINX logs at
    // NGX_LOG_ERR: "[error]" in error.log.
    for (const auto& line : r.error_log) s += "[error] " + line + "\n";
  }

  s += "\n-- page cache\n";
  s += fmt::format("hit ratio {:.3f} of {} lookups of {} KiB units (found ready without waiting)   resident {:.2f} GiB "
                   "of {:.2f} GiB   readahead windows {}   bios {}\n",
                   r.cache_hit_ratio, r.cache_lookups, r.cache_unit_bytes / 1024,
                   static_cast<double>(r.cache_resident_bytes) / (1 << 30),
                   static_cast<double>(r.cache_capacity_bytes) / (1 << 30), r.readahead_windows, r.bios);
  if (r.direct_reads)
    s += fmt::format("O_DIRECT reads (directio), past the page cache: {} of {:.1f} KiB on average\n", r.direct_reads,
                     static_cast<double>(r.direct_bytes) / static_cast<double>(r.direct_reads) / 1024);
  if (r.requests_with_stages)
    s += fmt::format("requests that never waited for the disk (data, metadata or a request slot): {} of {} ({:.1f}%)\n",
                     r.requests_without_disk_wait, r.requests_with_stages,
                     100.0 * static_cast<double>(r.requests_without_disk_wait) /
                         static_cast<double>(r.requests_with_stages));
  else
    s += "requests that never waited for the disk: not recorded (this engine keeps no per-request stage clocks)\n";
  s += fmt::format("dentry/inode cache: {} lookups, {} hits, {} metadata reads from disk\n", r.dentry_lookups,
                   r.dentry_hits, r.metadata_reads);
  s += fmt::format("  inode cache {} lookups, {} hits; metadata blocks {} lookups, {} hits, {} read; freed {} dentries, "
                   "{} inodes\n",
                   r.inode_lookups, r.inode_hits, r.metadata_block_lookups, r.metadata_block_hits,
                   r.metadata_blocks_read, r.dentries_freed, r.inodes_freed);

  s += "\n-- disks\n";
  s += fmt::format("{} drive(s): {:.1f} MB/s read, {} reads; per drive, as iostat -x: %util {:.1f}% mean over the "
                   "drives (busiest {:.1f}%), avgqu-sz {:.2f} mean over the drives\n",
                   r.drives, r.disk_read_bytes_per_s / 1e6, r.disk_reads, r.disk_utilization * 100,
                   r.disk_busiest_utilization * 100, r.disk_mean_queue_depth);
  s += iostat_table(r);
  for (std::size_t i = 0; i < r.disk_figures.size(); ++i) {
    const RunResult::DiskFigures& f = r.disk_figures[i];
    s += fmt::format("  {:<14} on {:<12} {} drive(s): {:7.1f} MB/s read, %util {:5.1f}% (busiest drive {:5.1f}%), "
                     "avgqu-sz {:.2f}, await {:.1f} ms\n",
                     i == 0 ? std::string("[disk]") : "[disks." + f.name + "]", f.mount, f.drives,
                     f.read_bytes_per_s / 1e6, f.utilization * 100, f.busiest_utilization * 100, f.avgqu_sz, f.await_ms);
  }
  return s;
}

}  // namespace models
