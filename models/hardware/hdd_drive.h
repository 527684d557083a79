// One spinning drive without a clock: its geometry, where its head is, its
// command queue and which command it serves next, and its counters. Both
// engines own one per drive (models::Hdd on the event heap, the SimGrid
// engine's drive actor) and differ only in how they wait for a command's
// service time; the model itself is in hdd.h's comment.
//
// Service times are rounded up to the nanosecond, so that the platter angle
// at each dispatch, and with it every reordering decision, does not depend
// on the engine's clock resolution.
#pragma once
#include <cstdint>

#include "models/hardware/block_device.h"
#include "sim/fifo_queue.h"
#include "sim/time.h"
#include "sim/time_average.h"

namespace models {

struct HddSpec {
  double capacity_bytes = 1e12;
  double rpm = 7200;
  double seek_average_s = 8.9e-3;
  double seek_track_s = 1.0e-3;
  double rate_outer_Bps = 128e6;
  double rate_inner_Bps = 67.5e6;
  std::uint32_t ncq_depth = 32;
  double interface_Bps = 300e6;
  std::uint64_t readahead_bytes = 128 * 1024;  // the block layer's default for one drive
  double read_expire_s = 0.5;                  // deadline elevator's read_expire (HZ/2)
};

class HddDrive {
 public:
  explicit HddDrive(const HddSpec& spec);

  struct Request {
    std::uint64_t offset;
    std::uint64_t length;
    IoListener* listener;
    std::uint64_t tag;
    sim::Time queued_at;
    double tracks = 0;  // tracks_before(offset) and radial_position(offset), computed once:
    double radial = 0;  // dispatch weighs every queued request at every completion
  };

  // A read joins the queue; true when the drive was idle and has started it
  // (the owner then waits service() before calling complete()).
  bool submit(sim::Time now, std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag);
  // The command in service is done at `now`: the head stops at its end, and
  // the drive starts the next queued one, if any (busy() tells). Returns
  // the finished command, whose listener the owner tells last.
  Request complete(sim::Time now);
  bool busy() const { return busy_; }
  // The command in service takes this long from its start (rounded up).
  sim::Time service() const { return service_; }

  const HddSpec& spec() const { return spec_; }
  std::uint64_t capacity() const { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  DiskStats stats(sim::Time now) const;
  std::size_t queued() const { return queue_.size() + (busy_ ? 1 : 0); }

  // Geometry, public for the tests.
  double radial_position(double offset) const;  // 0 outer .. 1 inner
  double tracks_before(double offset) const;    // integral of 1/track size
  double transfer_rate(double offset) const;
  double rotation_s() const { return rotation_s_; }
  double seek_time(double radial_distance) const;
  // Time to reach `offset` from the current head state at time `at`.
  double positioning_time(std::uint64_t offset, sim::Time at) const;

 private:
  // Where the head is, for positioning: computed once per dispatch.
  struct Head {
    double tracks;
    double radial;
  };
  Head head() const;
  double positioning(std::uint64_t offset, double tracks, double radial, const Head& head, sim::Time at) const;
  void dispatch(sim::Time now);
  void start(sim::Time now, const Request& r);
  double service_time(const Request& r, sim::Time at) const;

  HddSpec spec_;
  double rotation_s_;
  double seek_full_s_;
  double rho2_;           // (inner radius / outer radius)^2
  double tracks_scale_;   // tracks per unit of (1 - r)
  sim::FifoQueue<Request> queue_;
  bool busy_ = false;
  Request current_{};
  sim::Time service_ = 0;
  // Head state: where the last transfer ended, and when.
  std::uint64_t head_offset_ = 0;
  sim::Time head_time_ = 0;
  sim::Time busy_since_ = 0;
  double busy_s_ = 0;
  sim::TimeAverage depth_;
  std::uint64_t reads_ = 0;
  std::uint64_t read_bytes_ = 0;
};

}  // namespace models
