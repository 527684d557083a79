// Where the server's threads wait, from /proc: every worker's threads
// (/proc/PID/task/TID/), in two groups as the model has them: the workers'
// main threads (TID == PID: the event loop) and their other threads (NGINX's
// `aio threads` pool, clerk-serve's pool).
//
// At each tick, per thread sampled:
//   stat       the state letter (R, S, D...);
//   schedstat  on-CPU time and run-queue wait, in ns (kernel/sched/stats.h,
//              sched_info: CONFIG_SCHED_INFO). Their deltas between the first
//              and last look at a thread are exact, not sampled: the run-queue
//              wait is `cpu_wait` (the R of top that is not running);
//   wchan      when not R: the function it sleeps in (top wchans per group);
//   stack      when D: every function on its kernel stack (root only) and the
//              wchan, mapped to a cause by wait_causes.h (the wchan alone
//              when the stack is unreadable).
//
// What it costs (measured on this 2-CPU VM under build load): one open+read
// +close of a /proc file is 8-17 us (stat 11, schedstat 8, wchan 10, stack
// 17), so a sleeping thread costs ~30 us a look. Every main thread is looked
// at every tick (10 ms: 100 Hz, RealRunOptions::sample_interval_s); the pool
// threads in turn, at most `pool_per_tick` a tick (4: each of NGINX's 32
// threads per worker once every 80 ms), which keeps the sampler near 1.5% of
// one CPU with 2 workers. The time it spends is measured and reported.
#pragma once
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/proc_files.h"
#include "testbed/realrun/wait_causes.h"

namespace testbed::realrun {

struct TaskStat {
  char state = 0;      // field 3
  int processor = -1;  // field 39: the CPU it last ran on
};
// A /proc/.../stat line; nullopt if malformed (the name, field 2, may hold ') ').
std::optional<TaskStat> parse_task_stat(const std::string& stat);

struct SchedStat {
  std::uint64_t on_cpu_ns = 0, run_queue_ns = 0, timeslices = 0;
};
std::optional<SchedStat> parse_schedstat(const std::string& text);

// A wchan file's function, "" for a running task ("0") or an unreadable file.
std::string parse_wchan(const std::string& text);

enum class TaskGroup { kMain = 0, kPool = 1 };
inline constexpr std::size_t kTaskGroups = 2;
const char* task_group_name(TaskGroup g);  // "main", "pool"

// What the sampler saw of one group, summed over its threads.
struct GroupWaits {
  std::uint32_t threads = 0;
  std::uint64_t samples = 0, running = 0, sleeping = 0, disk_wait = 0;  // thread-samples by state
  std::array<std::uint64_t, kBlockCauses> blocked{};                   // D samples by cause
  std::map<std::string, std::uint64_t> wchans;  // "D folio_wait_bit_common", "S ep_poll": non-R samples
  std::map<std::string, std::uint64_t> other;   // D samples of no known cause, by wchan (or innermost function)
  double observed_s = 0, on_cpu_s = 0, cpu_wait_s = 0;  // schedstat, summed over threads
};

// A group's figures as shares of its threads' time.
struct WaitSummary {
  std::string group;  // "main", "pool"
  std::uint32_t threads = 0;
  std::uint64_t samples = 0;
  double running = 0, sleeping = 0, disk_wait = 0;  // sampled state shares (R includes waiting for a CPU)
  bool schedstat = false;                           // on_cpu and cpu_wait measured
  double on_cpu = 0, cpu_wait = 0;                  // schedstat: on a CPU; runnable, waiting for one
  // disk_data, disk_metadata, reclaim, request_slot, other (shares of samples in D for that cause),
  // and cpu_wait (schedstat): the model's `blocked_by_cause` keys.
  std::map<std::string, double> blocked_by_cause;
  std::vector<std::pair<std::string, double>> top_wchans;    // the 8 most frequent, share of samples
  std::vector<std::pair<std::string, double>> other_wchans;  // the 8 most frequent D of no known cause
};
WaitSummary summarize_waits(TaskGroup group, const GroupWaits& w);

class WaitSampler {
 public:
  WaitSampler(const common::ProcFiles& files, std::vector<pid_t> workers, std::size_t pool_per_tick = 4);
  // One tick at `now_ns` (a monotonic clock): the workers' threads are listed
  // again every `relist_ticks` ticks (the first tick included).
  void sample(std::uint64_t now_ns);
  // What was seen of a group, with its threads' schedstat deltas summed.
  GroupWaits group(TaskGroup g) const;
  std::vector<WaitSummary> summaries() const;
  std::uint64_t ticks() const { return ticks_; }
  static constexpr std::uint64_t kRelistTicks = 100;

 private:
  struct Thread {
    pid_t pid = 0, tid = 0;
    TaskGroup group = TaskGroup::kMain;
    bool gone = false;
    std::optional<SchedStat> first, last;
    std::uint64_t first_ns = 0, last_ns = 0;
  };
  void relist();
  bool look(Thread& t, std::uint64_t now_ns);  // false if the thread is gone
  void note_schedstat(Thread& t, std::uint64_t now_ns);
  std::string path(const Thread& t, const char* file) const;

  const common::ProcFiles& files_;
  std::vector<pid_t> workers_;
  std::size_t pool_per_tick_;
  std::vector<Thread> main_, pool_;  // in order of discovery
  std::size_t pool_cursor_ = 0;
  std::uint64_t ticks_ = 0;
  std::array<GroupWaits, kTaskGroups> groups_{};
};

}  // namespace testbed::realrun
