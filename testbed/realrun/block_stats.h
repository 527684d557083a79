// The data device's request queue as the kernel counts it, sampled while a
// real run goes on, and turned into `iostat -x`'s figures so that they stand
// beside the model's (models/hardware/block_queue.h keeps the same counters).
//
// /sys/block/<dev>/stat (Documentation/block/stat.rst; block/genhd.c
// part_stat_show): read I/Os, read merges, read sectors, read ticks (ms),
// write I/Os, write merges, write sectors, write ticks, in_flight, io_ticks
// (ms the queue had something in flight: %util), time_in_queue (ms, the sum
// over requests of their time in flight: avgqu-sz). Later kernels append
// discard and flush fields, which are ignored. /sys/block/<dev>/inflight
// (part_inflight_rw_show): requests in flight now, reads and writes.
//
// The figures, as sysstat's iostat computes them from two readings dt apart:
//   r/s = dreads / dt, rkB/s = dsectors * 512 / 1024 / dt, rrqm/s = dmerges / dt,
//   avgqu-sz = dtime_in_queue / dt, await = (dread_ticks + dwrite_ticks) /
//   (dreads + dwrites), %util = dio_ticks / dt;
// plus, from the samples of inflight, the most and the mean in flight.
//
// The data device: the disk holding the data set's file system (its whole
// disk when that is a partition) and, for an md or dm device, the disks under
// it (/sys/block/<dev>/slaves/), which are where the queues with elevators are.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/proc_files.h"

namespace testbed::realrun {

struct BlockStat {
  bool ok = false;
  std::uint64_t reads = 0, read_merges = 0, read_sectors = 0, read_ticks_ms = 0;
  std::uint64_t writes = 0, write_merges = 0, write_sectors = 0, write_ticks_ms = 0;
  std::uint64_t in_flight = 0, io_ticks_ms = 0, time_in_queue_ms = 0;
};
// A /sys/block/<dev>/stat line; ok = false unless it has the 11 fields.
BlockStat parse_block_stat(const std::string& text);

struct Inflight {
  bool ok = false;
  std::uint64_t reads = 0, writes = 0;
};
// A /sys/block/<dev>/inflight line: "reads writes".
Inflight parse_inflight(const std::string& text);

// The /sys/block names to sample for the block device `name` (a
// /proc/diskstats name: "sda1", "vda", "md0", "dm-0"): its whole disk, then
// the whole disks of its slaves (md, dm), in name order, without repeats.
// Empty if none has a /sys/block/<dev>/stat.
std::vector<std::string> data_block_devices(const common::ProcFiles& files, const std::string& name);

struct DriveIostat {
  std::string device;
  double r_s = 0, rkb_s = 0, rrqm_s = 0, avgrq_kb = 0, avgqu_sz = 0, await_ms = 0, util = 0;
  std::uint64_t max_inflight = 0;  // the most requests in flight at a sample
  double mean_inflight = 0;        // their mean over the samples
  std::uint64_t samples = 0;
};
// iostat -x between two readings `seconds` apart (zeros when seconds <= 0).
DriveIostat iostat_between(const BlockStat& first, const BlockStat& last, double seconds);

// Samples every device's stat and inflight; the figures cover the first
// sample to the last.
class BlockSampler {
 public:
  BlockSampler(const common::ProcFiles& files, std::vector<std::string> devices);
  void sample(std::uint64_t now_ns);  // steady clock, ns
  std::vector<DriveIostat> figures() const;

 private:
  struct Device {
    std::string name, stat_path, inflight_path;
    BlockStat first, last;
    std::uint64_t first_ns = 0, last_ns = 0;
    std::uint64_t max_inflight = 0, inflight_sum = 0, samples = 0;
  };
  const common::ProcFiles& files_;
  std::vector<Device> devices_;
};

}  // namespace testbed::realrun
