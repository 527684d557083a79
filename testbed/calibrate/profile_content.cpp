#include "testbed/calibrate/profile_content.h"

#include <algorithm>
#include <utility>
#include <fmt/format.h>

#include "models/os/tcp_pacing.h"

namespace testbed::calibrate {

namespace {
std::string us(double s) { return fmt::format("{:.2f} us", s * 1e6); }
std::string ns(double s) { return fmt::format("{:.4f} ns", s * 1e9); }
std::string mib(std::uint64_t b) { return fmt::format("{} MiB", b >> 20); }
// "rounds: 13.90-25.20 us": the figure derived from each round alone, lowest and highest.
std::string rounds_note(const Calibration& c, CostField field, std::string (*unit)(double)) {
  if (c.cpu_rounds.size() < 2) return "";
  const Spread s = spread_of(c.cpu_rounds, field);
  return fmt::format("each round alone: {} to {}", unit(s.lo), unit(s.hi));
}
// Per-byte figures of the big-file run and per-connection figures of the
// close run, each said with the raw per-request figure it came from.
}  // namespace

std::uint64_t page_cache_bytes(const MemoryFacts& m) {
  // What the kernel could give the page cache now: MemAvailable, to a whole MiB.
  return m.available_bytes >> 20 << 20;
}

std::vector<ProfileEntry> topology_entries(const KernelFacts& k) {
  const TopologyFacts& t = k.topology;
  return {{"sockets", std::to_string(t.sockets), {t.source}},
          {"cores_per_socket", std::to_string(t.cores_per_socket), {"distinct core_id per package"}},
          {"threads_per_core", std::to_string(t.threads_per_core), {"online CPUs per core (SMT siblings)"}}};
}

std::vector<ProfileEntry> kernel_entries(const KernelFacts& k, const MemoryFacts& m) {
  const SchedFacts& s = k.sched;
  std::vector<ProfileEntry> e;
  if (k.release.empty()) return e;  // not read: the loader's defaults
  e.push_back({"release", toml_string(k.release), {"/proc/sys/kernel/osrelease (uname -r)"}});
  if (s.policy == "eevdf")
    e.push_back({"scheduler", toml_string(s.policy), {"6.6 and later: EEVDF (kernel/sched/fair.c)"}});
  else  // the re-pick as the release has it (models/os/sched_policy.h)
    e.push_back({"scheduler", toml_string(s.policy),
                 {"before 6.6: CFS (kernel/sched/fair.c); from 3.15 (with CONFIG_FAIR_GROUP_SCHED, as distributions",
                  "build it) a task picked again keeps its slice, 3.13 starts a new one: the model follows release"}});
  // Normalized, as the kernel keeps them (normalized_sysctl_sched_*): it
  // multiplies them by the factor for the CPUs it has.
  const auto ns = [](std::uint64_t v) { return duration_value(static_cast<double>(v) * 1e-9); };
  if (s.policy == "eevdf") {
    e.push_back({"sched_base_slice", ns(s.base_slice_ns), {s.source}});
  } else {
    e.push_back({"sched_latency", ns(s.latency_ns), {s.source}});
    e.push_back({"sched_min_granularity", ns(s.min_granularity_ns), {"normalized, as sched_latency"}});
    e.push_back({"sched_wakeup_granularity", ns(s.wakeup_granularity_ns), {"normalized, as sched_latency"}});
  }
  if (s.tunable_scaling != "linear")  // the scheduler model scales by log or not at all
    e.push_back({"sched_tunable_scaling", toml_string(s.tunable_scaling),
                 {"sysctl_sched_tunable_scaling (debugfs or /proc/sys/kernel; the kernel's default is log)"}});
  if (k.hz >= 100 && k.hz <= 1000) e.push_back({"hz", std::to_string(k.hz), {k.hz_source}});
  // The preemption model (models/os/cpu_scheduler.h); lazy (6.13+) is not
  // one the model has: left out, the loader's default applies. The model's
  // points in sendfile() are one cond_resched() per pipe fill, and
  // "voluntary"'s might_sleep() points taken to fall on them.
  // cond_resched(): 6.5 on, filemap_splice_read() has one a fill; from 5.11
  // (06c0444290ce, generic_file_buffered_read() reading a batch of pages at
  // a time; filemap_read() from 5.12) generic_file_splice_read() reads
  // through the buffered-read loop, one a batch, and a call fills at most
  // the pipe's free space (64 KiB): about one a fill too. Before 5.11 they
  // come a page apart (do_generic_file_read()'s and
  // generic_file_buffered_read()'s loop; 3.13's __generic_file_splice_read()
  // has none), nearer the default "full": no "none" written.
  // might_sleep(): before 6.5 the socket side sends each pipe page by itself
  // (pipe_to_sendpage() -> tcp_sendpage() -> lock_sock()), a point a page;
  // 6.5's splice_to_socket() sends a fill in one sendmsg: "voluntary" from
  // 6.5 only. "full" preempts at once, whatever the points: from 5.11 as
  // "none" (before, it is the default anyway).
  int major = 0, minor = 0;
  const bool known = parse_release(k.release, major, minor);
  const auto from = [&](int ma, int mi) { return known && std::make_pair(major, minor) >= std::make_pair(ma, mi); };
  const bool points_known = k.preempt == "voluntary" ? from(6, 5) : from(5, 11);
  if (points_known && (k.preempt == "none" || k.preempt == "voluntary" || k.preempt == "full"))
    e.push_back({"preempt", toml_string(k.preempt), {k.preempt_source}});
  e.push_back({"vfs_cache_pressure", std::to_string(k.vfs_cache_pressure), {"/proc/sys/vm/vfs_cache_pressure"}});
  // The dentry and inode caches' objects, and ext4's inode-table readahead.
  if (m.dentry_object >= 64 && m.dentry_object <= 65536)
    e.push_back({"dentry_objsize", std::to_string(m.dentry_object), {"/proc/slabinfo: dentry objsize"}});
  if (m.inode_object >= 64 && m.inode_object <= 65536)
    e.push_back({"inode_objsize", std::to_string(m.inode_object),
                 {"/proc/slabinfo: ext4_inode_cache objsize (inode_cache when not ext4)"}});
  const unsigned blks = k.inode_readahead_blks;
  if (blks > 0 && (blks & (blks - 1)) == 0)
    e.push_back({"inode_readahead_blks", std::to_string(blks), {"/sys/fs/ext4/" + k.fs_device + "/inode_readahead_blks"}});
  return e;
}

std::vector<ProfileEntry> loopback_tcp_entries(const common::LoopbackTcp& l) {
  std::vector<ProfileEntry> e;
  if (!l.congestion_control.empty())
    e.push_back({"tcp_congestion_control", toml_string(l.congestion_control),
                 {l.congestion_source + ": new sockets' default (NGINX and wrk set no TCP_CONGESTION);",
                  "what the [cpu] costs are for (where it paces loopback itself, its pacing is loopback_pacing_byte)"}});
  if (!l.lo_qdisc.empty()) e.push_back({"lo_qdisc", toml_string(l.lo_qdisc), {l.qdisc_source}});
  if (l.congestion_control.empty() || l.lo_qdisc.empty()) return e;
  const std::string pacing = models::loopback_pacing(l.congestion_control, l.lo_qdisc);
  e.push_back({"tcp_pacing", toml_string(pacing),
               {models::describe_pacing(pacing) + " (models/os/tcp_pacing.h: bbr_init() asks TCP to pace,",
                "the fq qdisc paces every flow, other congestion controls on other qdiscs do not)"}});
  return e;
}

// [cpu] loopback_pacing_byte: the pacing comparison's machine busy time
// per byte, paced over unpaced (loopback_pacing.h).
ProfileEntry pacing_entry(const Calibration& c) {
  const PacingRun& run = c.pacing.paced.front();
  const double per_byte_s = pacing_machine_per_byte_s(c.pacing);
  return {"loopback_pacing_byte", duration_value(per_byte_s),
          {fmt::format("TCP's own pacing on loopback per byte (models/os/host.h): one connection, {} responses of {} B",
                       run.spec.rounds, run.spec.response),
           fmt::format("in sendfile() calls of at most {} B a run, {} runs each of {} and {}, alternated; the median",
                       run.spec.chunk, c.pacing.paced.size(), c.pacing.unpaced.front().spec.congestion_control,
                       run.spec.congestion_control),
           fmt::format("machine busy time per response (/proc/stat) of {}, less {}'s, per byte = {}",
                       run.spec.congestion_control, c.pacing.unpaced.front().spec.congestion_control, ns(per_byte_s))}};
}

std::vector<ProfileEntry> queue_entries(const KernelFacts& k) {
  std::vector<ProfileEntry> e;
  const std::string dir = "/sys/block/" + k.queue.device + "/queue/";
  if (k.queue.nr_requests >= 4) e.push_back({"nr_requests", std::to_string(k.queue.nr_requests), {dir + "nr_requests"}});
  if (!k.queue.scheduler.empty())
    e.push_back({"scheduler", toml_string(k.queue.scheduler), {dir + "scheduler (the active elevator)"}});
  if (k.queue.max_sectors_kb >= 4)
    e.push_back({"max_sectors_kb", std::to_string(k.queue.max_sectors_kb), {dir + "max_sectors_kb"}});
  // One hardware queue, its IRQ on one CPU, every CPU in one socket (one
  // last-level cache) and rq_affinity 1: blk_mq_complete_request_remote()
  // completes on the IRQ's CPU, not the submitter's (models/os/kernel_work.h).
  if (k.queue.hw_queues == 1 && k.queue.irq_cpu >= 0 && k.topology.sockets == 1 && k.queue.rq_affinity == 1)
    e.push_back({"irq_cpu", std::to_string(k.queue.irq_cpu),
                 {"the completions' CPU: one hardware queue (/sys/block/" + k.queue.device + "/mq), one socket,",
                  dir + "rq_affinity = 1; " + k.queue.irq_source}});
  return e;
}

std::vector<std::string> fit_table(const Calibration& c) {
  std::vector<std::string> rows;
  rows.push_back("  block  QD   fio mean   model mean   fio IOPS  model IOPS");
  for (const FioJob& j : c.fio) {
    const ModelPoint m = ssd_model_point(c.ssd.access_mean_s, fitted_bandwidth(c.ssd, j.queue_depth), c.ssd.parallelism,
                                         j.block_bytes, j.queue_depth);
    rows.push_back(fmt::format("  {:>4}k {:>3} {:>8.1f}us {:>10.1f}us {:>10.0f} {:>11.0f}", j.block_bytes >> 10,
                               j.queue_depth, j.clat_mean_s * 1e6, m.mean_latency_s * 1e6, j.iops, m.iops));
  }
  return rows;
}

std::vector<std::string> sequential_rows(const Calibration& c) {
  const SeqRead& j = c.seq;
  const SeqFit& f = c.seq_fit;
  if (j.requests == 0) return {};
  std::string each;
  for (const SeqRead& r : c.seq_runs)
    if (r.io_ticks_s > 0) each += fmt::format("{}{:.1f}", each.empty() ? "" : ", ", static_cast<double>(r.bytes) / r.io_ticks_s / 1e6);
  std::vector<std::string> rows;
  if (c.seq_runs.size() > 1)
    rows.push_back(fmt::format("  {} runs, the device's MB/s while busy: {}; the median run:", c.seq_runs.size(), each));
  const std::vector<std::string> median{
      fmt::format("  sequential buffered read: {:.1f} MB/s to fio; the device: {} requests of {:.0f} KiB, await {:.2f} ms,",
                  j.fio_bandwidth_Bps / 1e6, j.requests, f.mean_request_bytes / 1024, f.await_s * 1e3),
      fmt::format("  {:.2f} outstanding while busy, busy {:.3f} s: {:.2f} ms a request, {:.1f} MB/s",
                  f.mean_depth, j.io_ticks_s, j.io_ticks_s / static_cast<double>(j.requests) * 1e3,
                  f.sequential_bandwidth_Bps / 1e6),
      fmt::format("  model, a stream's next read at sequential_bandwidth: {:.2f} ms a request, {:.1f} MB/s;",
                  f.sequential_service_s * 1e3, f.sequential_bandwidth_Bps / 1e6),
      fmt::format("  the random fit at {:.0f} KiB and depth {:.1f}: {:.2f} ms a request a unit, {:.1f} MB/s (sequential: {:.2f}x its rate)",
                  f.mean_request_bytes / 1024, f.mean_depth, f.random_service_s * 1e3, f.random_bandwidth_Bps / 1e6,
                  f.sequential_bandwidth_Bps / f.random_bandwidth_Bps)};
  rows.insert(rows.end(), median.begin(), median.end());
  return rows;
}

namespace {
// sequential_depth_bandwidth: the QD1 O_DIRECT job at depth 1, the buffered
// job's busy-time rate at its depth (seq_read.h).
ProfileEntry sequential_depth_entry(const Calibration& c) {
  const auto points = sequential_depth_points(c.seq_qd1, c.seq_fit, c.ssd.parallelism);
  std::string curve = "[";
  for (std::size_t i = 0; i < points.size(); ++i)
    curve += fmt::format("{}[{}, {}]", i ? ", " : "", points[i].first, rate_value_MBps(points[i].second));
  curve += "]";
  std::string runs;
  for (const SeqQd1& r : c.seq_qd1_runs) runs += fmt::format("{}{:.1f}", runs.empty() ? "" : ", ", r.clat_mean_s * 1e6);
  const SeqQd1& q = c.seq_qd1;
  return {"sequential_depth_bandwidth", curve,
          {"a stream's next read by the reads outstanding when it starts (ssd_drive.h): the model serves it alone on a",
           "unit, so at depth 1 its rate is one read's alone:",
           fmt::format("`fio --rw=read --direct=1 --ioengine=psync --bs={}k` (QD1, the buffered reads' mean size): mean",
                       q.block_bytes >> 10),
           fmt::format("latency {:.1f} us a read (runs: {} us; the median), {:.1f} MB/s; x parallelism {} = the depth-1 point;",
                       q.clat_mean_s * 1e6, runs, static_cast<double>(q.block_bytes) / q.clat_mean_s / 1e6,
                       c.ssd.parallelism),
           fmt::format("at the buffered read's {:.2f} outstanding, its busy-time rate {:.1f} MB/s (sequential_bandwidth)",
                       c.seq_fit.mean_depth, c.seq_fit.sequential_bandwidth_Bps / 1e6),
           "x parallelism / the units that depth keeps busy"}};
}
}  // namespace

std::vector<std::string> cpu_spread_rows(const Calibration& c) {
  struct Row {
    const char* key;
    CostField field;
    std::string (*unit)(double);
  };
  const Row rows[] = {{"request", &CpuCostsResult::request, us},
                      {"sendfile_byte", &CpuCostsResult::sendfile_byte, ns},
                      {"accept", &CpuCostsResult::accept, us},
                      {"event", &CpuCostsResult::event, us},
                      {"pool_worker", &CpuCostsResult::pool_worker, us},
                      {"pool_thread", &CpuCostsResult::pool_thread, us},
                      {"client_connect", &CpuCostsResult::client_connect, us},
                      {"client_request", &CpuCostsResult::client_request, us},
                      {"client_byte", &CpuCostsResult::client_byte, ns},
                      {"loopback_rx_byte", &CpuCostsResult::loopback_rx_byte, ns}};
  std::vector<std::string> out;
  for (const Row& r : rows) {
    const Spread s = spread_of(c.cpu_rounds, r.field);
    out.push_back(fmt::format("  {:<16} {:>12}  rounds {} to {}", r.key, r.unit(c.cpu.*r.field), r.unit(s.lo), r.unit(s.hi)));
  }
  if (!c.herd.empty()) {
    double lo = c.herd.front().wakeup_s, hi = lo;
    for (const HerdResult& h : c.herd) {
      lo = std::min(lo, h.wakeup_s);
      hi = std::max(hi, h.wakeup_s);
    }
    out.push_back(fmt::format("  {:<16} {:>12}  rounds {} to {}", "wakeup", us(c.wakeup_s), us(lo), us(hi)));
  }
  return out;
}

Profile build_profile(const Calibration& c) {
  Profile p;
  const std::string run = c.quick ? "clerk calibrate --quick" : "clerk calibrate";
  p.header = {
      fmt::format("This machine, measured by `{}` on {} (UTC).", run, c.date),
      fmt::format("Linux {}, {} logical CPUs; load average {} before, {} after", c.kernel, c.logical_cpus,
                  c.load_before, c.load_after),
      "(1, 5, 15 minutes: CPU figures measured under other load come out high).",
      "Re-run `clerk calibrate` to measure your own machine into this file.",
  };

  const CpuRaw& r = c.cpu_raw;
  const int workers = std::max(1, c.cpu_plan.workers);
  const std::string wrk = fmt::format("wrk -t{} -c{} -d{}s", workers, c.cpu_plan.connections * workers, c.cpu_plan.seconds);
  const std::string median = fmt::format("medians of {} rounds", c.cpu_plan.runs);
  auto with_rounds = [&](std::vector<std::string> lines, CostField field, std::string (*unit)(double)) {
    const std::string note = rounds_note(c, field, unit);
    if (!note.empty()) lines.push_back(note);
    return lines;
  };
  const std::string big = mib(r.big_file_bytes);
  ProfileTable cpu{"cpu",
                   {fmt::format("CPU time per operation: nginx {} (Debian's, {} worker{}, sendfile on) and wrk on", c.nginx_version,
                                workers, workers == 1 ? "" : "s"),
                    "loopback with every CPU busy (a worker and a wrk thread per CPU, as a loaded server with its",
                    "clients on the same host); the workers' threads' run time from /proc/PID/task/TID/schedstat (the",
                    "nanosecond sum_exec_runtime that utime+stime counts in ticks), wrk's from wait4. Each experiment runs",
                    "once a round; the value is derived from the experiments' medians."},
                   {}};
  cpu.entries.push_back({"logical_cpus", std::to_string(c.logical_cpus), {"sched_getaffinity (nproc)"}});
  cpu.entries.push_back({"request", duration_value(c.cpu.request),
                         with_rounds({fmt::format("worker CPU per keep-alive request of a cached 2-byte file: {}", us(r.small.server_s)),
                                      fmt::format("(`{}`, {} requests in the median run; {})", wrk, r.small.requests, median)},
                                     &CpuCostsResult::request, us)});
  cpu.entries.push_back({"sendfile_byte", duration_value(c.cpu.sendfile_byte),
                         with_rounds({fmt::format("worker CPU per byte of a cached {} file: ({} per request - request) / {} B",
                                                  big, us(r.big.server_s), r.big_file_bytes),
                                      fmt::format("= {} (`{}`, {} requests; {})", ns(c.cpu.sendfile_byte), wrk, r.big.requests, median)},
                                     &CpuCostsResult::sendfile_byte, ns)});
  cpu.entries.push_back({"accept", duration_value(c.cpu.accept),
                         with_rounds({fmt::format("worker CPU per connection (accept, first read, close): {} per request with",
                                                  us(r.close.server_s)),
                                      fmt::format("`{} -H \"Connection: close\"` ({} connections) less request = {} ({})", wrk,
                                                  r.close.requests, us(c.cpu.accept), median)},
                                     &CpuCostsResult::accept, us)});
  if (r.pool_on.calls > 0) {
    const std::string chunk = fmt::format("sendfile_max_chunk {}k", c.cpu_plan.pool_chunk >> 10);
    const double sendfile_work = paced_sendfile_work_s(r);
    const double unpaced_work = c.cpu.sendfile_byte * static_cast<double>(r.big_file_bytes);
    cpu.entries.push_back(
        {"pool_worker", duration_value(c.cpu.pool_worker),
         with_rounds({"the worker's main thread per thread-pool task: posting it and handling its completion (half each in",
                      "the model: models/os/host.h). The cached file again on two NGINXes with " + chunk + ", one with",
                      fmt::format("`aio threads`, both paced by wrk's delay() at {} ms a request a connection: {:.0f} and {:.0f} req/s;",
                                  r.pace_delay_ms, r.pool_off.rate, r.pool_on.rate),
                      fmt::format("worker CPU per request {} without the pool, {} with it, {} of it in the main threads;",
                                  us(r.pool_off.server_s), us(r.pool_on.server_s), us(r.pool_on.main_s)),
                      fmt::format("pool tasks = the pool threads' sendfile() calls (syscr of /proc/PID/task/TID/io): {:.2f} a request.",
                                  r.pool_on.calls),
                      fmt::format("Baseline at the same pace: the 2-byte file on the pool-off NGINX, delay() {} ms, {:.0f} req/s, {}",
                                  r.baseline_delay_ms, r.baseline.rate, us(r.baseline.server_s)),
                      fmt::format("a request: the sendfile() work at that pace = {} - {} = {} (unpaced, sendfile_byte x {} B",
                                  us(r.pool_off.server_s), us(r.baseline.server_s), us(sendfile_work), r.big_file_bytes),
                      fmt::format("= {}). The main threads with the pool did a request's own work and the pool's:", us(unpaced_work)),
                      fmt::format("pool_worker = ({} - {}) / {:.2f} = {} ({})", us(r.pool_on.main_s), us(r.baseline.server_s),
                                  r.pool_on.calls, us(c.cpu.pool_worker), median),
                      fmt::format("main threads put on a CPU {:.2f} times a request with the pool, {:.2f} without: one eventfd",
                                  r.pool_on.main_runs, r.pool_off.main_runs),
                      "wake-up hands over every task done by then, so under more load a task's share of it is less"},
                     &CpuCostsResult::pool_worker, us)});
    cpu.entries.push_back(
        {"pool_thread", duration_value(c.cpu.pool_thread),
         with_rounds({"a pool thread per task beyond its sendfile() bytes (the model charges it sendfile_byte besides): the",
                      "wake-up from the condition variable, the queue's mutex, the done list's lock, the eventfd write;",
                      fmt::format("less the sendfile() work at the same pace (above): pool_thread = (pool threads' CPU per request {} - {})",
                                  us(r.pool_on.server_s - r.pool_on.main_s), us(sendfile_work)),
                      fmt::format("/ {:.2f} = {} ({})", r.pool_on.calls, us(c.cpu.pool_thread), median)},
                     &CpuCostsResult::pool_thread, us)});
    cpu.entries.push_back(
        {"event", duration_value(c.cpu.event),
         with_rounds({"an epoll event handled for nothing (a turn woken for a connection it does not get): no experiment",
                      "of its own; a third of the pool's extra CPU per task, as before pool_worker and pool_thread:",
                      fmt::format("event = ({} - {}) / (3 x {:.2f}) = {} ({})", us(r.pool_on.server_s),
                                  us(r.pool_off.server_s), r.pool_on.calls, us(c.cpu.event), median)},
                     &CpuCostsResult::event, us)});
  }
  if (!c.herd.empty()) {
    const HerdResult& h = c.herd.front();
    double lo = h.wakeup_s, hi = h.wakeup_s;
    for (const HerdResult& x : c.herd) {
      lo = std::min(lo, x.wakeup_s);
      hi = std::max(hi, x.wakeup_s);
    }
    cpu.entries.push_back(
        {"wakeup", duration_value(c.wakeup_s),
         {"a worker woken for a connection another worker accepted (without EPOLLEXCLUSIVE): threads, each",
          "with its own epoll on one listen socket, a client connecting one at a time (testbed/calibrate/herd.h);",
          fmt::format("the acceptors' CPU per connection with {} less with 1, per extra acceptor: median of {} rounds of",
                      h.many.acceptors, c.herd.size()),
          fmt::format("{} connections = {} (each round alone: {} to {})", h.many.connections, us(c.wakeup_s), us(lo),
                      us(hi))}});
  }
  cpu.entries.push_back({"client_connect", duration_value(c.cpu.client_connect),
                         with_rounds({fmt::format("wrk CPU per connection in the same run: {} per request less client_request",
                                                  us(r.close.client_s)),
                                      fmt::format("= {}", us(c.cpu.client_connect))},
                                     &CpuCostsResult::client_connect, us)});
  cpu.entries.push_back({"client_request", duration_value(c.cpu.client_request),
                         with_rounds({fmt::format("wrk CPU per keep-alive request of the 2-byte file: {} ({})", us(r.small.client_s), median)},
                                     &CpuCostsResult::client_request, us)});
  cpu.entries.push_back({"client_byte", duration_value(c.cpu.client_byte),
                         with_rounds({fmt::format("wrk CPU per response byte of the {} file: ({} - client_request) / {} B = {}", big,
                                                  us(r.big.client_s), r.big_file_bytes, ns(c.cpu.client_byte))},
                                     &CpuCostsResult::client_byte, ns)});
  if (c.cpu.loopback_rx_byte > 0) {
    const double work = paced_sendfile_work_s(r);
    cpu.entries.push_back(
        {"loopback_rx_byte", duration_value(c.cpu.loopback_rx_byte),
         with_rounds({"loopback's receive path per byte (models/os/host.h): the sender runs it when wrk has read all it",
                      "was sent, wrk when it is behind (unpaced, on every connection: sendfile_byte is the send alone);",
                      fmt::format("the paced sendfile() work per byte (above: {} / {} B) less sendfile_byte = {}", us(work),
                                  r.big_file_bytes, ns(c.cpu.loopback_rx_byte))},
                     &CpuCostsResult::loopback_rx_byte, ns)});
  }
  if (!c.unpaced_with.empty() && !c.pacing.paced.empty() && !c.pacing.unpaced.empty())
    cpu.entries.push_back(pacing_entry(c));
  if (c.fill.cold_bytes > 0) {
    const std::string where =
        !c.fill.cgroup_limit        ? std::string("without a memory cgroup")
        : c.fill.reader_allowance ? fmt::format("in a {} memory cgroup (+ {} for the reader)", mib(c.fill.cgroup_limit),
                                                mib(c.fill.reader_allowance))
                                  : fmt::format("in a {} memory cgroup", mib(c.fill.cgroup_limit));
    cpu.entries.push_back(
        {"cache_fill_byte", duration_value(c.fill.per_byte_s),
         {fmt::format("kernel CPU per byte read into the page cache: all CPUs' busy time (/proc/stat) over a cold"),
          fmt::format("read() of {} {} ({:.2f} s), less a cached read of {} ({:.2f} s), per byte", mib(c.fill.cold_bytes),
                      where, c.fill.cold_busy_s, mib(c.fill.warm_bytes), c.fill.warm_busy_s),
          fmt::format("= {}", ns(c.fill.per_byte_s))}});
    cpu.entries.push_back(
        {"cache_fill_reader_byte", duration_value(c.fill.reader_per_byte_s),
         {fmt::format("the part of cache_fill_byte that runs in the reading thread: its own CPU time"),
          fmt::format("(CLOCK_THREAD_CPUTIME_ID) over the same cold read ({:.2f} s), less over the cached one ({:.2f} s),",
                      c.fill.cold_reader_s, c.fill.warm_reader_s),
          fmt::format("per byte = {}; the rest runs outside it (block completion, kworkers). Without", ns(c.fill.reader_per_byte_s)),
          "CONFIG_IRQ_TIME_ACCOUNTING an interrupt taken while the reader runs counts as the reader's"}});
  }
  // The topology only when it counts the CPUs this process may use (the
  // loader checks sockets x cores x threads against logical_cpus).
  if (c.kernel_facts.topology.logical == c.logical_cpus)
    for (auto& entry : topology_entries(c.kernel_facts)) cpu.entries.push_back(std::move(entry));
  if (r.pool_on.calls <= 0) cpu.comment.push_back("`event`, `pool_worker` and `pool_thread` are not measured: the model's defaults (0) apply.");
  if (c.herd.empty()) cpu.comment.push_back("`wakeup` is not measured: the model's default (0) applies.");
  if (!c.unpaced_with.empty()) {
    cpu.comment.push_back(fmt::format("{} on lo's qdisc {} ([kernel]) paces loopback itself; the nginx and wrk runs used {}",
                                      c.loopback_tcp.congestion_control, c.loopback_tcp.lo_qdisc, c.unpaced_with));
    cpu.comment.push_back("(calibrate set net.ipv4.tcp_congestion_control for them), so these costs are unpaced and");
    cpu.comment.push_back("loopback_pacing_byte is pacing's own, paid by whichever side transmits (models/os/host.h).");
  } else if (!c.loopback_tcp.congestion_control.empty()) {
    cpu.comment.push_back(fmt::format("Measured under TCP congestion control {} on lo's qdisc {} ([kernel]): pacing costs CPU",
                                      c.loopback_tcp.congestion_control,
                                      c.loopback_tcp.lo_qdisc.empty() ? "(unknown)" : c.loopback_tcp.lo_qdisc));
    cpu.comment.push_back("(timers, smaller bursts), so these costs hold under those settings only.");
  }
  cpu.comment.push_back("Loopback's receive side runs in softirq, charged to whichever task is on the CPU (nginx,");
  cpu.comment.push_back("wrk or ksoftirqd): the per-byte split between sendfile_byte and client_byte moves with load;");
  cpu.comment.push_back("loopback_rx_byte is the part that moves (the model gives it to the sender when wrk keeps up).");
  p.tables.push_back(cpu);

  ProfileTable mem{"memory", {}, {}};
  mem.entries.push_back({"page_cache", size_value_mib(page_cache_bytes(c.memory)),
                         {fmt::format("MemAvailable of /proc/meminfo: {} of MemTotal {} (the rest is the kernel's",
                                      mib(c.memory.available_bytes), mib(c.memory.total_bytes)),
                          "and the processes' running at calibration)"}});
  mem.entries.push_back({"cache_unit", toml_string("64k"),
                         {"model granularity, as the other profiles: sendfile's 64 KiB pipe, and every readahead",
                          "window (128 KiB to read_ahead_kb) is a whole number of units; 4k would track 16x the",
                          "entries for multi-MiB files at no gain in what the model can tell apart"}});
  p.tables.push_back(mem);

  const SsdFit& f = c.ssd;
  const FioPlan& fp = c.fio_plan;
  std::string sizes, depths;
  for (auto b : fp.block_sizes) sizes += (sizes.empty() ? "" : ",") + fmt::format("{}k", b >> 10);
  for (auto q : fp.queue_depths) depths += (depths.empty() ? "" : ",") + std::to_string(q);
  ProfileTable disk{"disk",
                    {fmt::format("/dev/{} (queue/rotational = {}, scheduler {}), holding {}, as the SSD model.", c.device.name,
                                 c.device.rotational ? 1 : 0, c.device.scheduler, c.data_dir),
                     fmt::format("{} randread --direct=1 --ioengine=libaio --size={} --runtime={}s, bs {} x iodepth {},",
                                 c.fio_version, mib(fp.file_bytes), fp.seconds, sizes, depths),
                     "completion latency (clat) means and percentiles. Model vs fio for every measured pair",
                     "(the model's closed form: up to `parallelism` reads in service, then saturated, at the",
                     "bandwidth for that depth):"},
                    {}};
  for (const auto& row : fit_table(c)) disk.comment.push_back(row);
  for (const auto& n : f.notes) disk.comment.push_back("fit: " + n);
  std::string by_size = "block sizes of";
  for (const auto& [bs, v] : f.parallelism_by_size) by_size += fmt::format(" {}k: {:.2f};", bs >> 10, v);
  by_size += fmt::format(" median {:.2f}", f.parallelism_exact);
  disk.entries.push_back({"type", toml_string("ssd"), {}});
  disk.entries.push_back({"capacity", size_value(c.device.capacity_bytes),
                          {fmt::format("/sys/block/{}/size x 512", c.device.name)}});
  disk.entries.push_back({"readahead", size_value(c.device.read_ahead_kb * 1024),
                          {fmt::format("/sys/block/{}/queue/read_ahead_kb = {}: the largest readahead window", c.device.name,
                                       c.device.read_ahead_kb)}});
  disk.entries.push_back({"bandwidth", rate_value_MBps(f.bandwidth_Bps),
                          {fmt::format("parallelism / slope of the saturated service time (parallelism / best IOPS) vs block size ({}k to {}k): {:.4f} ns/B;",
                                       f.small_block >> 10, f.large_block >> 10, f.slope_s_per_byte * 1e9),
                           fmt::format("fio's best measured: {:.1f} MB/s", f.measured_max_bandwidth_Bps / 1e6)}});
  if (!f.depth_bandwidth.empty()) {
    std::string curve = "[";
    for (std::size_t i = 0; i < f.depth_bandwidth.size(); ++i)
      curve += fmt::format("{}[{}, {}]", i ? ", " : "", f.depth_bandwidth[i].first,
                           rate_value_MBps(f.depth_bandwidth[i].second));
    curve += "]";
    disk.entries.push_back({"depth_bandwidth", curve,
                            {fmt::format("by queue depth: the bandwidth that gives fio's {}k IOPS at that depth with the",
                                         f.large_block >> 10),
                             "fitted access time (the drive's throughput grows with the reads outstanding)"}});
  }
  if (c.seq.requests > 0) {
    std::vector<std::string> lines{
        "a read that continues a stream (ssd.h: no access time, this rate over the units), from",
        fmt::format("`fio --rw=read --direct=0 --ioengine=psync --bs=1m --invalidate=1` through the {} test file",
                    mib(fp.file_bytes)),
        fmt::format("(the kernel's readahead; /sys/class/block/{}/stat before and after): bytes / busy time:", c.device.name)};
    for (const auto& row : sequential_rows(c)) lines.push_back(row.substr(2));
    disk.entries.push_back({"sequential_bandwidth", rate_value_MBps(c.seq_fit.sequential_bandwidth_Bps), lines});
    if (c.seq_qd1.ios > 0) disk.entries.push_back(sequential_depth_entry(c));
  }
  disk.entries.push_back({"parallelism", std::to_string(f.parallelism),
                          {"Little's law: best IOPS over QD 1..N x QD1 mean latency = reads in service; median over",
                           by_size}});
  std::string cdf = "[";
  for (std::size_t i = 0; i < f.latency_cdf.size(); ++i)
    cdf += fmt::format("{}[\"{:.1f}us\", {:.6g}]", i ? ", " : "", f.latency_cdf[i].first * 1e6, f.latency_cdf[i].second);
  cdf += "]";
  disk.entries.push_back({"latency_cdf", cdf,
                          {fmt::format("access time: fio's QD1 clat min, percentiles and max at {}k less the transfer",
                                       f.cdf_block_bytes >> 10),
                           fmt::format("({:.1f} us), x {:.3f} so that its mean is the fitted access time {:.1f} us",
                                       static_cast<double>(f.cdf_block_bytes) * f.slope_s_per_byte * 1e6, f.cdf_scale,
                                       f.access_mean_s * 1e6)}});
  p.tables.push_back(disk);
  ProfileTable block{"block", {"The data device's request queue, as the kernel has it set."}, queue_entries(c.kernel_facts)};
  if (!block.entries.empty()) p.tables.push_back(block);

  ProfileTable nic{"nic", {}, {}};
  nic.entries.push_back({"line_rate", toml_string("1000Gbit/s"),
                         {"loopback has no wire: its cost is CPU per byte ([cpu] sendfile_byte, client_byte).",
                          fmt::format("Measured: one writer thread into one reader, 1 MiB write()s: {:.2f} Gbit/s",
                                      c.loopback.bytes_per_s * 8 / 1e9),
                          fmt::format("({:.0f} MiB in {:.2f} s)", static_cast<double>(c.loopback.bytes) / (1 << 20),
                                      c.loopback.seconds)}});
  nic.entries.push_back({"mtu", std::to_string(std::min(c.loopback_mtu, 65535u)),
                         {fmt::format("/sys/class/net/lo/mtu = {}{}", c.loopback_mtu,
                                      c.loopback_mtu > 65535 ? " (the loader's largest is 65535)" : "")}});
  p.tables.push_back(nic);

  ProfileTable net{"network", {}, {}};
  net.entries.push_back({"one_way_latency", duration_value(c.ping.median_rtt_s / 2),
                         {fmt::format("half the median round trip of a 1-byte TCP ping-pong on 127.0.0.1 with TCP_NODELAY:",
                                      ""),
                          fmt::format("{} round trips, median {}, p99 {}", c.ping.round_trips, us(c.ping.median_rtt_s),
                                      us(c.ping.p99_rtt_s))}});
  p.tables.push_back(net);

  ProfileTable kernel{"kernel", {}, {}};
  kernel.entries.push_back({"tcp_wmem_max", std::to_string(c.tcp_wmem_max), {"/proc/sys/net/ipv4/tcp_wmem, third field"}});
  kernel.entries.push_back({"pipe_size", size_value(c.pipe_size), {"F_GETPIPE_SZ of a new pipe: sendfile's pipe"}});
  for (auto& entry : loopback_tcp_entries(c.loopback_tcp)) kernel.entries.push_back(std::move(entry));
  for (auto& entry : kernel_entries(c.kernel_facts, c.memory)) kernel.entries.push_back(std::move(entry));
  p.tables.push_back(kernel);
  return p;
}

}  // namespace testbed::calibrate
