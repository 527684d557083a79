// A block device described by two datasheet figures: a fixed access latency
// per read and a transfer bandwidth. No geometry, no reordering.
//
// Two disciplines, both of which SimGrid's disk model can express exactly,
// so that the two engines can be compared on them:
//  - "shared": reads overlap. Each read waits its latency (a pure delay, as
//    an SSD's many flash channels give), then its bytes share the bandwidth
//    equally with the other reads transferring (processor sharing).
//  - "fcfs": one read at a time in arrival order, each taking
//    latency + bytes / bandwidth (a drive without command queueing).
//
// Where the numbers come from: the latency is the datasheet's average read
// access time (for a drive: average seek plus half a rotation; for an SSD:
// its read latency), the bandwidth its sustained sequential read rate.
#pragma once
#include <cstdint>
#include <vector>

#include "models/hardware/block_device.h"
#include "models/hardware/disk_activity.h"
#include "sim/fair_share.h"
#include "sim/slot_pool.h"

namespace models {

struct SimpleDiskSpec {
  double capacity_bytes = 1e12;
  double latency_s = 100e-6;
  double bandwidth_Bps = 500e6;
  bool shared = true;  // false: fcfs
  std::uint64_t readahead_bytes = 128 * 1024;  // the block layer's default read_ahead_kb
};

class SimpleDisk final : public BlockDevice, public sim::EventTarget, public sim::FairShareListener {
 public:
  SimpleDisk(sim::Engine& engine, const SimpleDiskSpec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  std::uint64_t readahead_bytes() const override { return spec_.readahead_bytes; }
  DiskStats stats() const override;
  std::size_t outstanding() const { return activity_.outstanding(); }  // reads not yet done
  std::vector<DriveView> drive_views() const override { return {{outstanding(), nullptr}}; }

  void on_event(std::uint64_t arg) override;
  void on_share_milestone(std::uint32_t job, std::uint64_t tag, double remaining) override;

 private:
  struct Read {
    std::uint64_t length;
    IoListener* listener;
    std::uint64_t tag;
  };
  std::uint32_t allocate(const Read& r);
  void finish(std::uint32_t slot);
  void start_next();

  sim::Engine& engine_;
  SimpleDiskSpec spec_;
  sim::FairShare channel_;           // the bandwidth, shared ("shared" only)
  sim::SlotPool<Read> reads_;
  std::vector<std::uint32_t> fifo_;  // waiting reads ("fcfs" only), oldest first
  std::size_t fifo_head_ = 0;
  bool serving_ = false;
  DiskActivity activity_;
};

}  // namespace models
