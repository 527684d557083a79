// What the profile says: each measured value in the key config_loader reads,
// with the command that produced it, the date and the raw figure.
#pragma once
#include <string>
#include <vector>

#include "testbed/calibrate/calibration.h"
#include "testbed/calibrate/profile_writer.h"

namespace testbed::calibrate {

Profile build_profile(const Calibration& c);

// The page cache size written (shared by the profile and the printed table).
std::uint64_t page_cache_bytes(const MemoryFacts& m);

// The kernel's entries of the [cpu], [kernel] and [block] tables
// (models/scenario/kernel_profile.h names the keys).
std::vector<ProfileEntry> topology_entries(const KernelFacts& k);
std::vector<ProfileEntry> kernel_entries(const KernelFacts& k, const MemoryFacts& m);
std::vector<ProfileEntry> queue_entries(const KernelFacts& k);
// [kernel] tcp_congestion_control, lo_qdisc (each when read) and tcp_pacing
// (when both are): what the [cpu] costs were measured under.
std::vector<ProfileEntry> loopback_tcp_entries(const common::LoopbackTcp& l);
// [cpu] loopback_pacing_byte, when the CPU runs were made unpaced (c.unpaced_with set)
// and the comparison has runs of both (c.pacing: neither empty).
ProfileEntry pacing_entry(const Calibration& c);

// The model's figures beside fio's, one row per measured (block size, queue
// depth), as printed and as written in the profile's comments.
std::vector<std::string> fit_table(const Calibration& c);
// The sequential (readahead) read: the device's figures, the model's with
// sequential_bandwidth, and what the random fit would give at that size.
std::vector<std::string> sequential_rows(const Calibration& c);
// Each CPU figure: the value written and its rounds' lowest and highest.
std::vector<std::string> cpu_spread_rows(const Calibration& c);

}  // namespace testbed::calibrate
