// CPU time per operation of NGINX's worker and of wrk, measured on loopback
// (the method of scenarios/hardware/nginx-2015-raid10.toml's [cpu] section):
//   - keep-alive requests of a 2-byte cached file: per-request cost
//   - keep-alive requests of a multi-MiB cached file: per-byte cost (minus the per-request part)
//   - one request per connection (Connection: close): per-connection cost (minus the per-request part)
//   - the multi-MiB file again on two more NGINXes, both with sendfile_max_chunk, one with `aio threads`,
//     at the same paced request rate: the pool's cost per task, each side's own (models/os/host.h),
//     from each thread's schedstat. The tasks are the pool threads' sendfile() calls (their syscr).
//     Every figure of the split is taken at that pace. Per-request CPU moves with the load: unpaced,
//     every CPU is busy and each epoll_wait returns many events; paced, the workers idle between
//     requests and each one costs more (wake-ups, shorter batches). So the sendfile() work the pool
//     threads took over is not sendfile_byte (an unpaced figure) x the file's bytes: it is the
//     pool-off run's CPU per request less that of a third run at the same pace and connection
//     count, the 2-byte file on the pool-off server (the baseline: a request without the file's
//     bytes, whose delay() is chosen to give the pool-off run's request rate).
//     - pool_thread: the pool threads' CPU per request, less that paced sendfile() work (pool-off
//       less baseline, which the model charges them as sendfile_byte x bytes besides), per task:
//       the wake-up from pthread_cond_wait, the queue's mutex, the done list's spinlock, the
//       eventfd write (ngx_thread_pool_cycle, ngx_epoll_notify).
//     - pool_worker: the rest of the pool's extra CPU, per task: what the main thread spends posting
//       (ngx_thread_task_post from the write handler's output-filter pass) and completing
//       (ngx_epoll_notify_handler, ngx_thread_pool_handler, the task's event handler). The main
//       threads with the pool did a request's own work (the baseline) and the pool's, so
//       pool_worker = (main CPU with the pool - baseline) / tasks; the two add up to the extra CPU
//       (with the pool less without). Subtracting an unpaced baseline instead put the paced runs'
//       higher per-request cost into the pool threads' share: on the project's machine pool_worker
//       came out negative (written as 0) and pool_thread 77 us (README, real runs, round 3).
//     One eventfd wake-up hands the worker every task done by then (the eventfd is edge-triggered
//     and ngx_thread_pool_handler drains the done list), so a wake-up's own part of pool_worker is
//     shared by the tasks of a batch: the figure holds at the experiment's batching, which the
//     comment reports as the main threads' extra runs (schedstat's timeslices) per task.
//     `event` keeps its former derivation, a third of the pool's extra CPU per task: the model now
//     charges it only for a turn woken for a connection it does not get.
// The experiments run in rounds, one run of each a round, so that a change of the machine's load
// shows as spread between rounds rather than between experiments; each figure is derived from the
// experiments' medians, and each round's own derivation gives its spread.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "testbed/calibrate/wrk_runner.h"

namespace testbed::calibrate {

struct CpuPlan {
  int runs = 3;               // median of this many runs per experiment
  double seconds = 5;         // each wrk run
  int connections = 10;       // per worker
  // NGINX workers and wrk threads: 0 for one per logical CPU, so that every
  // CPU is busy as in a loaded server with its clients on the same host.
  // Loopback's receive work runs in softirq on whichever CPU and task is
  // there: with one worker and one wrk on two CPUs it splits between them
  // differently than when both sides compete for every CPU.
  int workers = 0;
  std::uint64_t big_file_bytes = 4 << 20;
  std::uint64_t pool_chunk = 512 << 10;  // sendfile_max_chunk of the pool experiment, as the local scenarios
  double pace_share = 0.5;   // the pool experiment's pace: this share of the big file's unpaced rate
};

// Per-operation figures of one experiment, the median over its runs.
struct PerOp {
  double server_s = 0;      // worker CPU per request
  double client_s = 0;      // wrk CPU per request
  std::uint64_t requests = 0;  // of the median run (by server figure), for the comments
  double seconds = 0;
};

// The pool experiment's figures of one NGINX, per request (medians over runs).
struct PoolOp {
  double server_s = 0;     // the workers' CPU, all threads
  double main_s = 0;       // their main threads' CPU
  double calls = 0;        // sendfile() calls: the main threads' syscr (pool off), the pool threads' (on)
  double rate = 0;         // requests per second
  std::uint64_t requests = 0;  // of the median run (by server figure)
  double main_runs = 0;    // times their main threads were put on a CPU (schedstat's timeslices)
};

struct CpuRaw {
  PerOp small;  // keep-alive, 2-byte file
  PerOp big;    // keep-alive, big_file_bytes
  PerOp close;  // Connection: close, 2-byte file
  PoolOp pool_off, pool_on;  // keep-alive, big_file_bytes, paced, sendfile_max_chunk pool_chunk
  PoolOp baseline;           // keep-alive, the 2-byte file on the pool-off server, paced to pool_off's rate
  int pace_delay_ms = 0;     // wrk's delay() before each request of a connection
  int baseline_delay_ms = 0; // the baseline's delay(): the pool-off run's time between a connection's requests
  std::uint64_t big_file_bytes = 0;
};

struct CpuCostsResult {
  double request = 0, sendfile_byte = 0, accept = 0;
  double client_request = 0, client_byte = 0, client_connect = 0;
  double event = 0;
  double pool_worker = 0, pool_thread = 0;  // per pool task, the main thread's and the pool thread's
  // Loopback's receive path per byte, which the sender runs when wrk keeps
  // up (models/os/host.h): the paced sendfile() work per byte less the
  // unpaced sendfile_byte, whose wrk was behind on every connection.
  double loopback_rx_byte = 0;
  std::vector<std::string> warnings;  // e.g. a difference that came out negative
};

// The smallest and largest of a figure over the rounds.
struct Spread {
  double lo = 0, hi = 0;
};
// What a CpuCostsResult field is, for spread_of.
using CostField = double CpuCostsResult::*;
Spread spread_of(const std::vector<CpuCostsResult>& rounds, CostField field);

// Median of each runs' per-request figures.
PerOp median_per_op(const std::vector<WrkRun>& runs);
// The same for the pool experiment; `pool_on` counts the pool threads' calls.
PoolOp median_pool_op(const std::vector<WrkRun>& runs, bool pool_on);
// The sendfile() work per request at the pool runs' pace: the pool-off run's
// CPU per request less the paced baseline's (0 when either is missing).
double paced_sendfile_work_s(const CpuRaw& raw);
// The subtraction that turns the experiments into the model's costs.
CpuCostsResult derive_cpu_costs(const CpuRaw& raw);
// What measure_cpu returns: the medians, and each round's own figures.
struct CpuMeasurement {
  CpuRaw raw;
  std::vector<CpuRaw> rounds;
};
// Each round's derivation (for the spread).
std::vector<CpuCostsResult> derive_rounds(const std::vector<CpuRaw>& rounds);
// wrk's Lua script that paces each connection (`delay()`, in ms).
std::string pace_script(int delay_ms);
// The pace that gives `connections` connections about `share` of `rate` requests/s.
int pace_delay_ms(int connections, double rate, double share);
// How long a run paced at `delay_ms` lasts: `seconds`, or four delays when
// that is longer (0: unpaced).
double paced_run_seconds(double seconds, int delay_ms);
// Runs the experiments (nginx and wrk), printing progress to stdout.
CpuMeasurement measure_cpu(const CpuPlan& plan, std::string* nginx_version);

}  // namespace testbed::calibrate
