// The kernel's CPU time per byte read from disk into the page cache (page
// allocation, memory-cgroup charge and reclaim, I/O completion in softirq and
// kworkers): the whole machine's busy time over a cold read of a file,
// inside a memory cgroup smaller than the file (so reclaim runs as under a
// server's cache cap), less the same for a read of cached data (the copy
// to user space, which a server's sendfile() does not make).
#pragma once
#include <cstdint>
#include <string>

namespace testbed::calibrate {

struct CacheFill {
  double per_byte_s = 0;        // the fitted cost
  double cold_busy_s = 0;       // machine busy CPU time over the cold pass
  double warm_busy_s = 0;       // ... over the cached pass
  std::uint64_t cold_bytes = 0, warm_bytes = 0;
  std::uint64_t cgroup_limit = 0;  // 0: no memory cgroup could be made
  std::string note;
};

// Machine-wide busy CPU seconds so far (/proc/stat: all but idle and iowait).
double machine_busy_s();
double parse_machine_busy_s(const std::string& proc_stat_first_line, long ticks_per_s);

// Reads `file` (at least 4x `cgroup_limit` bytes) cold inside a memory cgroup
// of `cgroup_limit`, then its first `cgroup_limit / 2` bytes twice, timing
// the second pass. Needs root (drop_caches).
CacheFill measure_cache_fill(const std::string& file, std::uint64_t cgroup_limit);

}  // namespace testbed::calibrate
