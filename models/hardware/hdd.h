// A spinning disk: seek, rotation, zoned transfer rate, command queueing.
//
// Geometry. Data is laid out from the outer edge inwards; the transfer rate is
// proportional to the radius (zoned recording at constant areal density), so
// a byte offset maps to a radius, to a track count (the integral of 1/track
// size) and from that to an angle. Transfer time and rotational position are
// therefore consistent: a read that starts where the last one ended, with no
// gap in time, needs no positioning.
//
// Seek: t(d) = t_track + (t_full - t_track) * sqrt(d) over the radial
// distance d in [0,1] (the usual square-root law for short seeks); t_full is
// set so that the mean over random pairs (E[sqrt d] = 8/15) equals the
// datasheet's average seek.
//
// Queueing: the drive sees the oldest `ncq_depth` commands (NCQ) and serves
// the one it can reach first (shortest positioning time first); the benefit
// grows with queue depth, as real elevators plus NCQ do. Reordering never
// starves a read: as Linux's deadline elevator does, a read that has waited
// `read_expire` is served next, oldest first.
//
// Track buffer: after a read, while no command waits, the head keeps reading
// to the end of the track into the drive's cache; a command for those bytes
// completes as the head passes them.
#pragma once
#include <cstdint>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/engine.h"
#include "sim/fifo_queue.h"

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

class Hdd final : public BlockDevice, public sim::EventTarget {
 public:
  Hdd(sim::Engine& engine, const HddSpec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(spec_.capacity_bytes); }
  std::uint64_t readahead_bytes() const override { return spec_.readahead_bytes; }
  DiskStats stats() const override;

  // Geometry, public for tests and for the RAID layer's distance estimate.
  double radial_position(double offset) const;  // 0 outer .. 1 inner
  double tracks_before(double offset) const;    // integral of 1/track size
  double transfer_rate(double offset) const;
  double rotation_s() const { return rotation_s_; }
  double seek_time(double radial_distance) const;
  // Time to reach `offset` from the current head state at time `at`.
  double positioning_time(std::uint64_t offset, sim::Time at) const;
  std::size_t queued() const { return queue_.size() + (busy_ ? 1 : 0); }

  void on_event(std::uint64_t arg) override;

 private:
  struct Request {
    std::uint64_t offset;
    std::uint64_t length;
    IoListener* listener;
    std::uint64_t tag;
    sim::Time queued_at;
    double tracks = 0;  // tracks_before(offset) and radial_position(offset), computed once:
    double radial = 0;  // dispatch weighs every queued request at every completion
  };
  // Where the head is, for positioning: computed once per dispatch.
  struct Head {
    double tracks;
    double radial;
  };
  Head head() const;
  double positioning(std::uint64_t offset, double tracks, double radial, const Head& head, sim::Time at) const;
  void dispatch();
  void start(const Request& r);
  double service_time(const Request& r, sim::Time at) const;

  sim::Engine& engine_;
  HddSpec spec_;
  double rotation_s_;
  double seek_full_s_;
  double rho2_;           // (inner radius / outer radius)^2
  double tracks_scale_;   // tracks per unit of (1 - r)
  sim::FifoQueue<Request> queue_;
  bool busy_ = false;
  Request current_{};
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
