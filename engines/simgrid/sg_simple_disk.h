// The simple disk (models/hardware/simple_disk.h) as a SimGrid disk: its
// bandwidth is the disk's read bandwidth, which SimGrid shares equally
// among the reads transferring; the access latency is a wait before the
// transfer.
//  - "shared": each read is an actor of its own: wait the latency, read.
//  - "fcfs": one actor serves the reads in arrival order, one at a time.
#pragma once
#include <cstdint>
#include <deque>
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>

#include "engines/simgrid/sg_clock.h"
#include "models/hardware/block_device.h"
#include "models/hardware/disk_activity.h"
#include "models/hardware/simple_disk.h"

namespace sgengine {

class SgSimpleDisk final : public models::BlockDevice {
 public:
  SgSimpleDisk(simgrid::s4u::Host* host, simgrid::s4u::Disk* disk, const models::SimpleDiskSpec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  std::uint64_t readahead_bytes() const override { return spec_.readahead_bytes; }
  models::DiskStats stats() const override;

 private:
  struct Read {
    std::uint64_t length;
    models::IoListener* listener;
    std::uint64_t tag;
  };
  void serve(const Read& r);  // latency, then the transfer, then done
  void drive();               // fcfs: the one server

  simgrid::s4u::Host* host_;
  simgrid::s4u::Disk* disk_;
  models::SimpleDiskSpec spec_;
  std::deque<Read> fifo_;
  Wakeup drive_wake_;
  models::DiskActivity activity_;
};

}  // namespace sgengine
