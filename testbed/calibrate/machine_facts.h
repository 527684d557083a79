// Facts read from the kernel rather than measured with load: CPUs, memory,
// the data directory's block device, TCP and pipe buffer sizes.
#pragma once
#include <cstdint>
#include <string>

namespace testbed::calibrate {

struct MemoryFacts {
  std::uint64_t total_bytes = 0;      // MemTotal
  std::uint64_t available_bytes = 0;  // MemAvailable
  std::uint64_t dentry_object = 0;    // slab object sizes (0 when /proc/slabinfo is unreadable)
  std::uint64_t inode_object = 0;     // ext4_inode_cache (or the generic inode_cache)
};

struct BlockDeviceFacts {
  std::string name;              // "vda" (the whole disk, when the data is on a partition)
  std::string fs_device;         // the device the file system is on: "vda1" on a partition, else as name
  std::uint64_t capacity_bytes = 0;
  std::uint64_t read_ahead_kb = 0;
  std::uint64_t max_sectors_kb = 0;
  std::string scheduler;         // the active one, e.g. "mq-deadline"
  bool rotational = false;
};

unsigned logical_cpus();                 // sched_getaffinity: the CPUs this process may use
MemoryFacts memory_facts();
BlockDeviceFacts block_device_of(const std::string& path);
std::uint64_t tcp_wmem_max();            // third field of /proc/sys/net/ipv4/tcp_wmem
std::uint64_t default_pipe_size();       // F_GETPIPE_SZ of a new pipe
unsigned loopback_mtu();                 // /sys/class/net/lo/mtu
std::string load_average();              // "0.52 0.61 0.70"
std::string today_utc();                 // "2026-11-22"
std::string kernel_release();
bool drop_caches();                      // sync and drop the page cache; false if not permitted

}  // namespace testbed::calibrate
