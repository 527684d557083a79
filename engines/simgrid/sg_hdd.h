// A spinning disk on SimGrid: one actor per drive serves its command queue
// with the policy of models::Hdd (the oldest read once it has waited
// read_expire, else the one among the first ncq_depth the head reaches
// first) and waits for each command's service time.
//
// SimGrid's disks have a bandwidth and nothing else, so the drive's time
// comes from the native model's geometry (seek curve, rotational position,
// zoned transfer rate), used here as a library: SimGrid keeps the clock, the
// queue and the order of events. Service times are rounded up to the
// nanosecond as the native engine rounds them, so that the platter angle at
// each dispatch, and with it every reordering decision, is the same.
#pragma once
#include <cstdint>
#include <deque>
#include <simgrid/s4u/Host.hpp>

#include "engines/simgrid/sg_clock.h"
#include "models/hardware/block_device.h"
#include "models/hardware/hdd.h"
#include "sim/engine.h"
#include "sim/time_average.h"

namespace sgengine {

class SgHdd final : public models::BlockDevice {
 public:
  SgHdd(simgrid::s4u::Host* host, const models::HddSpec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  std::uint64_t readahead_bytes() const override { return spec_.readahead_bytes; }
  models::DiskStats stats() const override;

 private:
  struct Request {
    std::uint64_t offset;
    std::uint64_t length;
    models::IoListener* listener;
    std::uint64_t tag;
    sim::Time queued_at;
  };
  void drive();        // the actor
  void start_next();   // picks the next command and when it will be done
  double positioning_time(std::uint64_t offset, sim::Time at) const;
  std::size_t queued() const { return queue_.size() + (busy_ ? 1 : 0); }

  models::HddSpec spec_;
  sim::Engine unused_;       // the geometry object below is never scheduled
  models::Hdd geometry_;
  std::deque<Request> queue_;
  bool busy_ = false;
  Request current_{};
  sim::Time done_at_ = 0;
  std::uint64_t head_offset_ = 0;  // where the last transfer ended, and when
  sim::Time head_time_ = 0;
  sim::Time busy_since_ = 0;
  double busy_s_ = 0;
  sim::TimeAverage depth_;
  std::uint64_t reads_ = 0;
  std::uint64_t read_bytes_ = 0;
  Wakeup wake_;
};

}  // namespace sgengine
