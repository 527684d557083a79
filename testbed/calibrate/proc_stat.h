// Per-thread CPU time and read calls, from /proc (a process's utime + stime:
// common/proc_stat.h).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace testbed::calibrate {

// A process's threads: their CPU time, all of them and the main thread's,
// from /proc/PID/task/TID/schedstat (sum_exec_runtime, in ns: utime+stime
// is the same time in 10 ms ticks, too coarse for a paced run's few tenths
// of a second spread over 33 threads), and the read-type system calls each
// made (`syscr` of /proc/PID/task/TID/io: read, pread, readv and sendfile
// count one each, fs/read_write.c's inc_syscr).
struct ThreadSample {
  double all_cpu_s = 0, main_cpu_s = 0;
  std::uint64_t main_syscr = 0, other_syscr = 0;  // the main thread's, the other threads' summed
  // The times the main thread was put on a CPU: schedstat's third field
  // (sched_info.pcount, counted at each arrival on a CPU in
  // kernel/sched/stats.h sched_info_arrive): its wake-ups and preemptions.
  std::uint64_t main_runs = 0;
  ThreadSample& operator+=(const ThreadSample& o);
};
ThreadSample thread_sample(pid_t pid);
ThreadSample operator-(const ThreadSample& after, const ThreadSample& before);
// The first field of a schedstat file, in seconds (for tests); throws when absent.
double parse_schedstat_run_s(const std::string& schedstat_text);
// The third field of a schedstat file, the timeslices run (for tests); throws when absent.
std::uint64_t parse_schedstat_runs(const std::string& schedstat_text);
// `syscr` from the text of an io file (for tests); throws when absent.
std::uint64_t parse_io_syscr(const std::string& io_text);

}  // namespace testbed::calibrate
