// A spinning disk on SimGrid: one actor per drive waits for each command's
// service time; the drive itself (geometry, head, the queue policy of
// models::Hdd, counters) is the same models::HddDrive the native engine owns.
//
// SimGrid's disks have a bandwidth and nothing else, so the drive's time
// comes from HddDrive: SimGrid keeps the clock and the order of events.
// Service times are rounded up to the nanosecond as on the native engine,
// so that the platter angle at each dispatch, and with it every reordering
// decision, is the same.
#pragma once
#include <cstdint>
#include <simgrid/s4u/Host.hpp>

#include "engines/simgrid/sg_clock.h"
#include "models/hardware/block_device.h"
#include "models/hardware/hdd_drive.h"

namespace sgengine {

class SgHdd final : public models::BlockDevice {
 public:
  SgHdd(simgrid::s4u::Host* host, const models::HddSpec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return drive_.capacity(); }
  std::uint64_t readahead_bytes() const override { return drive_.spec().readahead_bytes; }
  models::DiskStats stats() const override { return drive_.stats(now_ns()); }

 private:
  void run();  // the actor

  models::HddDrive drive_;
  sim::Time done_at_ = 0;  // when the command in service ends
  Wakeup wake_;
};

}  // namespace sgengine
