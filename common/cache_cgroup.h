// Confining the server's page cache to the scenario's size: a memory cgroup
// (v2 preferred, else v1) whose limit is the cache plus an allowance for the
// server's own memory; without one, only eviction before the run.
//
// The class realrun runs its server in and calibrate measures reclaim in;
// every write to a cgroup file goes through common/control_file.h.
#pragma once
#include <cstdint>
#include <string>

namespace common {

enum class CacheControlKind { kCgroupV2, kCgroupV1, kEvictOnly };

struct CgroupRoots {
  std::string v2 = "/sys/fs/cgroup";         // a cgroup2 mount: cgroup.controllers lists "memory"
  std::string v1 = "/sys/fs/cgroup/memory";  // the v1 memory hierarchy
};

// What to allow beyond the page cache for the server's own memory (charged
// to the same cgroup): NGINX's master and workers take a few MiB each
// (shared zones, per-connection pools, request buffers), thread-pool threads
// touch a little of their stacks, and wrk is not in the cgroup. 32 MiB plus
// 8 MiB per worker covers that with room; under cgroup v1 socket buffers
// are not charged (no kmem.tcp limit is set).
std::uint64_t server_memory_allowance(std::uint32_t workers);

class CacheCgroup {
 public:
  // Makes `<root>/clerk-realrun-<pid>` in the first hierarchy that takes a
  // memory limit, and sets it to `limit_bytes`. kEvictOnly when neither does
  // (no memory controller, not root); `why_not` then says why.
  static CacheCgroup create(const CgroupRoots& roots, std::uint64_t limit_bytes, const std::string& name);

  CacheCgroup() = default;
  CacheCgroup(CacheCgroup&& other) noexcept;
  CacheCgroup& operator=(CacheCgroup&& other) noexcept;
  CacheCgroup(const CacheCgroup&) = delete;
  CacheCgroup& operator=(const CacheCgroup&) = delete;
  ~CacheCgroup();  // remove()

  CacheControlKind kind() const { return kind_; }
  const std::string& path() const { return path_; }       // "" for kEvictOnly
  std::string procs_file() const { return path_.empty() ? "" : path_ + "/cgroup.procs"; }
  const std::string& why_not() const { return why_not_; }  // for kEvictOnly
  std::uint64_t limit() const { return limit_; }
  // The highest usage seen (v1 memory.max_usage_in_bytes, v2 memory.peak
  // where the kernel has it), 0 if unknown.
  std::uint64_t peak_usage() const;
  // "cgroup v1 memory limit 576 MiB (page cache 512 MiB + 64 MiB for the server)".
  std::string describe(std::uint64_t cache_bytes) const;
  // The pids in it.
  std::string procs() const;
  // Removes the cgroup (its tasks must have exited: waits up to 5 s);
  // false if it could not.
  bool remove();

 private:
  CacheControlKind kind_ = CacheControlKind::kEvictOnly;
  std::string path_;
  std::string why_not_;
  std::uint64_t limit_ = 0;
};

// Removes the most recently created CacheCgroup that still exists, if any.
// Async-signal-safe (rmdir and nanosleep over fixed storage): for a SIGINT
// handler that has just killed the tasks in it (kill_all_child_groups in
// common/child_process.h); retries for up to a second while they exit.
void remove_live_cgroup();

}  // namespace common
