// What a simulation can represent: the one place that states the bounds every
// value is checked against, at load time (config_loader.cpp), for --set and
// --duration, for sweeps and in the visualizer.
//
// Simulated time is integer nanoseconds (sim/time.h): 2^63 ns is 292 years.
// Every event is scheduled at now + a span, and the longest span a valid
// scenario can produce is bounded below by these limits, so time cannot
// overflow:
//   - a run lasts at most kMaxRunSeconds;
//   - one latency, cost, stall, timeout or delay is at most kMaxSpanSeconds;
//   - moving the largest file at the slowest rate takes
//     kMaxFileBytes / kMinRateBytesPerSecond = 1.1e9 s, and a per-byte CPU
//     cost over the largest file kMaxFileBytes * kMaxPerByteSeconds = 1.1e9 s;
//   each is below 2e9 s (2e18 ns), and the few that one event adds up stay
//   below the 9.2e18 ns that int64 nanoseconds hold.
// The bounds are far outside anything measured (the documented runs last
// 60 s; the slowest device modelled reads 65 MB/s), so they only refuse
// input that cannot describe a server.
#pragma once
#include <cstdint>
#include <string>

namespace models::limits {

// Readahead, md chunks, cache units, socket and pipe buffers: 1 GiB. Linux's
// are kilobytes to a few megabytes (readahead 128 KiB, md chunk 512 KiB,
// tcp_wmem 4 MiB, pipe-max-size 1 MiB); the bound keeps one I/O's bookkeeping small.
inline constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{1} << 30;

// One simulated day and more: the documented runs last 60 s. Memory grows
// with simulated time (per-second series), which resource_estimate checks.
inline constexpr double kMaxRunSeconds = 1e5;
// The shortest run: a millisecond, as the scenario's `duration` key allows
// (--duration 1e-9 ran "0 s" and exited 0).
inline constexpr double kMinRunSeconds = 1e-3;
// Request slots, tags, fifo_batch, writes_starved of a block queue: Linux
// takes any int, real queues hold tens to thousands; the bound keeps the
// queue's bookkeeping small.
inline constexpr std::int64_t kMaxQueueRequests = 65536;
// Any single latency, cost, stall, timeout or delay: about 28 hours.
inline constexpr double kMaxSpanSeconds = 1e5;
// A CPU cost per byte: 1 ms a byte is a CPU a million times slower than the
// measured ones (scenarios/hardware: nanoseconds per KB).
inline constexpr double kMaxPerByteSeconds = 1e-3;
// Rates and bandwidths: from 1 kB/s (a floppy disk reads 60 kB/s) to 10 TB/s
// (80 Tbit/s, a hundred times today's fastest NIC or SSD array). Above it,
// one byte takes less than a picosecond and rounds to nothing.
inline constexpr double kMinRateBytesPerSecond = 1e3;
inline constexpr double kMaxRateBytesPerSecond = 1e13;
// One file: 1 TiB. Device and page-cache sizes: 1 PiB.
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kMaxDeviceBytes = std::uint64_t{1} << 50;

// The CPU scheduler ([kernel] and [cpu] keys). Granularities as the kernel's
// sysctl bounds: min_sched_granularity_ns 0.1 ms to max_sched_granularity_ns
// 1 s (kernel/sysctl.c, 3.13); CONFIG_HZ from 100 to 1000 (kernel/Kconfig.hz).
inline constexpr double kMinSchedGranularitySeconds = 1e-4;
inline constexpr double kMaxSchedGranularitySeconds = 1.0;
inline constexpr std::int64_t kMinHz = 100;
inline constexpr std::int64_t kMaxHz = 1000;
inline constexpr std::int64_t kMaxSockets = 64;
inline constexpr std::int64_t kMaxThreadsPerCore = 8;

// Throws models::ConfigError(option, 0, "", ...) naming the allowed range
// unless `seconds` is finite and in [kMinRunSeconds, kMaxRunSeconds]. For --duration.
double check_run_duration(double seconds, const std::string& option);

// Seeds: whole numbers from 0 to 2^63-1, as a scenario's `seed` key allows
// (a TOML integer is signed 64-bit); "-1" never wraps to 2^64-1.
inline constexpr std::uint64_t kMaxSeed = 9223372036854775807ULL;
// "" when `text` is such a seed in decimal digits, else what it must be:
// "must be a whole number from 0 to 9223372036854775807". For --seed in
// clerk and clerk-ui.
std::string seed_problem(const std::string& text);

// "between 1 kB/s and 10 TB/s", for messages.
std::string rate_range_text();

// The kernel facts a hardware profile names beside the scheduler (kernel_profile.h).
// vm.vfs_cache_pressure: any int from 0 (proc_dointvec_minmax, extra1 =
// SYSCTL_ZERO); 100 is the default, and ten thousand times it bounds the
// shrinker's scan arithmetic far from overflow.
inline constexpr std::int64_t kMaxVfsCachePressure = 1000000;
// Slab objects (dentry, inode): 64 B to 64 KiB, around the 192 B and ~1 KiB
// of /proc/slabinfo. inode_readahead_blks: ext4 takes powers of two up to
// 2^30 (ext4_attr_store, fs/ext4/sysfs.c); 2^20 blocks is 4 GiB a read.
inline constexpr std::uint64_t kMinSlabObject = 64;
inline constexpr std::uint64_t kMaxSlabObject = 65536;
inline constexpr std::int64_t kMaxInodeReadaheadBlks = std::int64_t{1} << 20;

}  // namespace models::limits
