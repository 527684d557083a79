// The real-run harness: runs a scenario for real — its data set on disk, real
// NGINX (or clerk-serve) confined to the scenario's page cache by a memory
// cgroup, one real wrk per client group — and samples /proc while it runs.
//
// Needs root (cgroups, drop_caches); without a memory cgroup the page cache
// is only evicted before the run, not confined (cache_control says which).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/loopback_tcp.h"
#include "models/scenario/scenario.h"
#include "testbed/realrun/block_stats.h"
#include "testbed/realrun/thread_waits.h"

namespace testbed {

struct RealRunOptions {
  std::string server = "nginx";                  // "nginx" or "clerk-serve"
  std::string serve_binary;                      // path to clerk-serve when server == "clerk-serve"
  std::string data_dir = "/var/tmp/clerk-data";  // data set (reused when its manifest matches)
  std::string run_dir;                           // scratch: nginx.conf, logs, lua, pid; created and removed
                                                 // (empty: a fresh directory under /tmp)
  std::uint16_t port = 18080;
  double duration_s = 0;                // 0: the scenario's duration
  std::uint64_t cache_limit_bytes = 0;  // 0: the scenario's hardware.page_cache_bytes
  bool verbose = false;                 // progress lines on stderr; run_dir is kept (and named in notes)
  // Additions.
  std::string nginx_binary = "/usr/sbin/nginx";
  std::string wrk_binary = "/usr/bin/wrk";
  std::string replay_binary = "clerk-replay";  // a trace group's load (testbed/replay)
  double sample_interval_s = 0.010;     // /proc sampling period
  // The seed of the simulated run this real run is put beside (realrun
  // gives repetition k the scenario's seed + k): the data set's sizes, a
  // trace group's sampled lines, wrk's scripts and the popularity ranking
  // are drawn from it, so that both sides see the same draws (a data set
  // with a size mix is rewritten for each repetition). Unset: the
  // scenario's seed.
  std::optional<std::uint64_t> simulation_seed;
  // The disk: "real" (the data set written under data_dir, on this
  // machine's disk) or "emulated" (clerk-disk's mount of the scenario's disk
  // under run_dir; emulated_disk.h). clerk-disk loads the scenario from
  // scenario_file with `overrides`, as the simulated side does.
  std::string disk = "real";
  std::string disk_binary;  // clerk-disk
  std::string scenario_file;
  std::vector<std::string> overrides;
};

struct RealGroupResult {                // one wrk process per client group
  std::string name;
  std::uint32_t connections_open = 0;   // threads * floor(connections/threads)
  std::uint64_t requests = 0, bytes = 0;
  std::uint64_t errors_connect = 0, errors_read = 0, errors_write = 0, errors_status = 0, errors_timeout = 0;
  double duration_s = 0, requests_per_s = 0, bytes_per_s = 0;
  double latency_mean = 0, latency_stdev = 0, latency_max = 0;  // seconds, as wrk reports them
  double latency_p50 = 0, latency_p75 = 0, latency_p90 = 0, latency_p99 = 0;
  std::vector<std::uint32_t> placement;  // this group's connections per worker (worker order = workers[] below)
  // Additions.
  std::vector<std::uint32_t> placement_late;  // the same at 2/3 of the run
  double cpu_s = 0;                           // wrk's user+sys (all its threads), from wait4()
  std::string wrk_output;                     // wrk's own text report
  // A trace group (clerk-replay): the log lines that fell due, and of those
  // the ones still queued or under way at the end (not counted, as wrk
  // counts no response after -d). requests + errors_read + errors_write +
  // requests_waiting + requests_in_flight == requests_due.
  std::uint64_t requests_due = 0, requests_waiting = 0, requests_in_flight = 0;
};

struct RealWorker {
  int pid = 0;
  double running = 0, sleeping = 0, disk_wait = 0;  // shares of samples of the main thread in R, S, D
  double cpu_s = 0;                                  // user+sys of the whole process (all threads)
  std::uint64_t samples = 0;                         // addition: samples taken
};

struct RealRunResult {
  std::vector<RealGroupResult> groups;  // in scenario order
  std::vector<RealWorker> workers;      // sorted by pid
  double wall_s = 0;
  double server_cpu_s = 0, clients_cpu_s = 0;         // user+sys over the run
  double machine_busy = 0, machine_iowait = 0;        // shares of all CPUs (/proc/stat)
  double machine_irq = 0;                             // irq + softirq, a share of all CPUs (inside machine_busy)
  std::uint64_t hrtimer_softirqs = 0, net_rx_softirqs = 0;  // the machine's over the run (/proc/softirqs)
  bool softirqs_read = false;                         // /proc/softirqs was read at both ends
  std::uint64_t disk_read_bytes = 0, disk_reads = 0;  // /proc/diskstats of the data set's device
  std::string cache_control;   // e.g. "cgroup v1 memory limit 512 MiB" or "posix_fadvise(DONTNEED) (no memory cgroup)"
  std::string server_version;  // `nginx -v` or clerk-serve
  // The running kernel's congestion control and lo qdisc, read as the run
  // starts (common/loopback_tcp.h; loopback_tcp_check.h compares them with the profile's).
  common::LoopbackTcp loopback_tcp;
  std::vector<std::string> notes;  // anything the user should know about this run
  // Additions.
  std::string disk_device;              // the diskstats name of data_dir's device ("" if not found)
  std::uint64_t cache_peak_bytes = 0;   // memory cgroup's peak usage (0 without a cgroup)
  // Where the workers' threads wait (thread_waits.h): "main" and, when the
  // workers have other threads, "pool"; and the CPU the sampling itself took
  // (its thread's CPU time over the run's wall time, as a share of one CPU).
  std::vector<realrun::WaitSummary> waits;
  double sampler_cpu_share = 0;
  // iostat -x of the data device and the disks under it, from
  // /sys/block/<dev>/stat and inflight sampled during the run (block_stats.h).
  std::vector<realrun::DriveIostat> drives;
  // --disk emulated: clerk-disk's own-latency line (how late its replies
  // began after the model's completions), "" otherwise.
  std::string disk_own_latency;
  // --disk emulated: every summary line clerk-disk printed at unmount, the
  // own-latency line first (emulated_disk.h's summary_lines, capped); also
  // in notes. Empty otherwise.
  std::vector<std::string> disk_summary;
};

struct RealRunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs the scenario once for real. Throws RealRunError (message says what
// failed and how to fix it) after stopping everything it started.
// One run at a time per process.
RealRunResult run_real(const models::Scenario& scenario, const RealRunOptions& options);

// Why this testbed cannot run `scenario` for real (nothing: it can): an aio
// mode no server here has (aio_modes.h's realrun_refusal), or os = "freebsd".
// A trace group runs: clerk-replay sends the log's lines at their times.
std::string real_run_refusal(const models::Scenario& scenario);
// Why a real NGINX cannot run `scenario` (aio = "io_uring", aio_nowait: never
// in NGINX; clerk-serve has both), naming the key; empty when it can.
std::string nginx_refusal(const models::Scenario& scenario);
// Why NGINX cannot be given this run's folders (the data folder as `root`,
// an explicit run folder for pid, logs and temp paths) in the nginx.conf
// clerk writes (nginx_conf.h: nginx_path_problem), naming the folder; empty
// when it can, or when the server is not NGINX. The data folder is taken as
// run_real takes it (absolute, normalized: the current folder counts).
std::string nginx_folder_refusal(const RealRunOptions& options);

// Stops everything started by run_real: SIGKILL to every process group it
// started (servers, wrk, preload readers) and removes its cgroup. It is
// async-signal-safe (kill, rmdir, nanosleep over a fixed array of atomics):
// call it from a SIGINT handler. It does not reap; a run_real in progress
// notices, reaps its children, cleans up and throws RealRunError("stopped").
// Also safe to call from any thread.
void stop_all_real_runs();

// Removes what a killed earlier `clerk realrun` left (its memory cgroup with
// the server in it, its /tmp/clerk-realrun-<pid>-* folder, processes started
// from that folder), only of runs whose process is gone; one line per thing
// removed, for stderr (common/stale_state.h).
std::vector<std::string> remove_stale_real_runs();

// The run's softirq line for its notes: HRTIMER and NET_RX softirqs a
// completed request, and the irq + softirq share of all CPUs.
std::string softirq_note(const RealRunResult& r);

}  // namespace testbed
