// The kernel a hardware profile names: read from /proc and /sys (through
// common::ProcFiles, so that the readers are tested on a hand-made tree),
// each value with the file it came from, or the documented default it falls
// back to and why.
//
//   release        /proc/sys/kernel/osrelease (uname -r)
//   scheduler      "eevdf" from 6.6 (kernel/sched/fair.c: EEVDF replaced
//                  CFS's pick in v6.6), "cfs" before
//   sched_*        the normalized sysctls (normalized_sysctl_sched_*), before
//                  the kernel multiplies them by get_update_sysctl_factor():
//                  1 + ilog2(min(online CPUs, 8)) under the default
//                  SCHED_TUNABLESCALING_LOG (fair.c). Read, in order, from
//                  debugfs (/sys/kernel/debug/sched/base_slice_ns,
//                  latency_ns, min_granularity_ns, wakeup_granularity_ns:
//                  5.13+), the sysctls of older kernels
//                  (/proc/sys/kernel/sched_latency_ns ...), this process's
//                  own slice (/proc/self/sched se.slice: EEVDF gives every
//                  task sysctl_sched_base_slice unless it asked for another),
//                  else fair.c's defaults: base slice 0.75 ms (6.6..6.14) or
//                  0.70 ms (6.15+, commit 2ae891b "sched: Reduce the default
//                  slice to avoid tasks getting an extra tick"); CFS's
//                  latency 6 ms, min_granularity 0.75 ms, wakeup_granularity 1 ms.
//                  A value read scaled is divided by the factor.
//   hz             CONFIG_HZ of /boot/config-<release>, else /proc/config.gz
//   preempt        the preemption model in force (models/os/cpu_scheduler.h):
//                  the bracketed mode of /sys/kernel/debug/sched/preempt
//                  (PREEMPT_DYNAMIC; root only), else a preempt= on
//                  /proc/cmdline when the config has CONFIG_PREEMPT_DYNAMIC=y,
//                  else the config's CONFIG_PREEMPT_NONE / _VOLUNTARY /
//                  CONFIG_PREEMPT / _LAZY (the boot default,
//                  preempt_dynamic_init()), config as for hz. The kernel log's
//                  "Dynamic Preempt:" line says the same but needs syslog
//                  access (dmesg_restrict): not read.
//   vfs_cache_pressure  /proc/sys/vm/vfs_cache_pressure
//   nr_requests, read_ahead_kb, max_sectors_kb, scheduler, rq_affinity of the data device's queue
//                  /sys/block/<disk>/queue/
//   irq_cpu        for a virtio-blk device with one hardware queue
//                  (/sys/block/<disk>/mq/ holds one entry): the virtio
//                  device whose block/ holds <disk>
//                  (/sys/bus/virtio/devices/virtioN/block/), its queue's
//                  IRQ in /proc/interrupts ("virtioN-req.0", the name
//                  virtio_blk's init_vq() gives it) and that IRQ's
//                  /proc/irq/<n>/effective_affinity_list when it is one CPU
//   inode_readahead_blks  /sys/fs/ext4/<fs device>/inode_readahead_blks
//   topology       sockets (distinct physical_package_id), cores (distinct
//                  package:core_id pairs), threads per core, over the online
//                  CPUs of /sys/devices/system/cpu/online
#pragma once
#include <cstdint>
#include <string>

#include "common/proc_files.h"

namespace testbed::calibrate {

struct SchedFacts {
  std::string policy;          // "eevdf", "cfs"
  unsigned factor = 1;         // get_update_sysctl_factor()
  std::string tunable_scaling = "log";  // "none", "log", "linear"
  // Normalized (unscaled) values in ns; 0 when they do not apply to the policy.
  std::uint64_t base_slice_ns = 0;                                        // EEVDF
  std::uint64_t latency_ns = 0, min_granularity_ns = 0, wakeup_granularity_ns = 0;  // CFS
  std::string source;          // where the values came from
};

struct TopologyFacts {
  unsigned logical = 0, sockets = 0, cores_per_socket = 0, threads_per_core = 0;
  std::string source;
};

struct QueueFacts {
  std::string device;          // "vda"
  std::uint64_t nr_requests = 0, read_ahead_kb = 0, max_sectors_kb = 0;
  std::string scheduler;       // the active one, "mq-deadline"
  std::uint64_t rq_affinity = 0;  // 0: unreadable
  unsigned hw_queues = 0;      // 0: unreadable
  int irq_cpu = -1;            // -1: not one queue, or not found
  std::string irq_source;      // where irq_cpu came from
};

struct KernelFacts {
  std::string release;
  int major = 0, minor = 0;
  SchedFacts sched;
  unsigned hz = 0;             // 0: not discoverable
  std::string hz_source;
  std::string preempt;         // "none", "voluntary", "full", "lazy"; "": not discoverable
  std::string preempt_source;
  unsigned vfs_cache_pressure = 0;  // 0: unreadable (the kernel's default is 100)
  unsigned inode_readahead_blks = 0;  // 0: not ext4, or unreadable
  std::string fs_device;              // the data's file system's device ("vda1")
  QueueFacts queue;
  TopologyFacts topology;
};

// The readers, each on its own files.
bool parse_release(const std::string& release, int& major, int& minor);  // "6.18.44-fc" -> 6, 18
unsigned sysctl_factor(unsigned online_cpus, const std::string& tunable_scaling);
unsigned count_cpu_list(const std::string& list);  // "0-3,8,10-11" -> 7
SchedFacts read_sched(const common::ProcFiles& files, int major, int minor, unsigned online_cpus);
unsigned read_hz(const common::ProcFiles& files, const std::string& release, std::string& source);
std::string read_preempt(const common::ProcFiles& files, const std::string& release, std::string& source);
TopologyFacts read_topology(const common::ProcFiles& files);
QueueFacts read_queue(const common::ProcFiles& files, const std::string& disk);
std::string gunzip(const std::string& bytes);  // "" if not gzip

// `disk` names the data device's queue ("vda"), `fs_device` its file system's device ("vda1").
KernelFacts read_kernel_facts(const common::ProcFiles& files, const std::string& disk, const std::string& fs_device);

// This machine's, with debugfs mounted for the reading when it is not and we
// are root (and unmounted again if we mounted it).
KernelFacts this_kernel(const std::string& disk, const std::string& fs_device);

}  // namespace testbed::calibrate
