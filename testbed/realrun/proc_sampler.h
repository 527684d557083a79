// What /proc says while a run goes on: each worker's main-thread state
// (sampled), process CPU times, the machine's CPU totals and the data set's
// disk counters (read at the start and the end).
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace testbed::realrun {

// The state letter of a /proc/<pid>/task/<tid>/stat line (after the last
// ')': the command name may itself hold ')' or spaces); 0 if malformed.
char parse_stat_state(const std::string& stat);
// user+sys seconds of process `pid`, all its threads (0 if it is gone; its
// stat line read by common/proc_stat.h).
double process_cpu_s(pid_t pid);

struct CpuTotals {
  std::uint64_t busy = 0, iowait = 0, total = 0;  // jiffies, all CPUs
  std::uint64_t irq = 0;                          // irq + softirq jiffies (inside busy)
};
// The "cpu " line of /proc/stat: busy = user+nice+system+irq+softirq+steal,
// total adds idle and iowait (guest time is already inside user).
CpuTotals parse_proc_stat(const std::string& text);
CpuTotals read_cpu_totals();

// The machine's HRTIMER and NET_RX softirqs so far, all CPUs (/proc/softirqs):
// TCP's pacing timer and its compressed-ACK timer are soft hrtimers
// (tcp_init_xmit_timers: HRTIMER_MODE_*_PINNED_SOFT); loopback's receive
// path runs as NET_RX (netif_rx's backlog). Empty when the file cannot be read.
struct SoftirqCounts {
  std::vector<std::uint32_t> hrtimer, net_rx;  // per CPU; empty: not read
};
SoftirqCounts read_softirq_counts();

struct DiskCounters {
  bool found = false;
  std::string name;
  std::uint64_t reads = 0, sectors_read = 0;  // completed reads, 512-byte sectors
};
DiskCounters parse_diskstats(const std::string& text, unsigned major, unsigned minor);
// The counters of the block device holding `path` (its partition's line).
DiskCounters read_disk_counters(const std::string& path);

// Tallies of R, S and D samples of some threads' states.
class StateSampler {
 public:
  explicit StateSampler(std::vector<pid_t> pids);
  void sample();  // one look at every thread (a gone one is not counted)
  struct Shares {
    double running = 0, sleeping = 0, disk_wait = 0;
    std::uint64_t samples = 0;
  };
  Shares shares(std::size_t i) const;

 private:
  struct Tally {
    std::uint64_t r = 0, s = 0, d = 0;
  };
  std::vector<pid_t> pids_;
  std::vector<std::string> paths_;
  std::vector<Tally> tallies_;
};

}  // namespace testbed::realrun
