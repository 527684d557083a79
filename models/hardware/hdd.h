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
// grows with queue depth, as real elevators plus NCQ do. With the block
// layer in front (block_queue.h, the default) the drive holds at most
// libata's 31 commands and the deadline elevator decides expiry; without it
// the drive approximates the elevator itself: a read that has waited
// `read_expire` is served next, oldest first.
//
// Track buffer: after a read, while no command waits, the head keeps reading
// to the end of the track into the drive's cache; a command for those bytes
// completes as the head passes them.
// The drive itself (geometry, head, queue, counters) is HddDrive, which the
// SimGrid engine's drive actor owns too; this class only keeps its time on
// the event heap.
#pragma once
#include <cstdint>

#include "models/hardware/block_device.h"
#include "models/hardware/hdd_drive.h"
#include "sim/engine.h"

namespace models {

class Hdd final : public BlockDevice, public sim::EventTarget {
 public:
  Hdd(sim::Engine& engine, const HddSpec& spec) : engine_(engine), drive_(spec) {}

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                   std::uint64_t tag) override {
    if (drive_.submit(engine_.now(), offset, length, listener, tag)) engine_.schedule_in(drive_.service(), this, 0);
  }
  std::uint64_t capacity() const override { return drive_.capacity(); }
  std::uint64_t readahead_bytes() const override { return drive_.spec().readahead_bytes; }
  DiskStats stats() const override { return drive_.stats(engine_.now()); }
  std::vector<DriveView> drive_views() const override { return {{queued(), nullptr}}; }

  // Geometry, public for the tests.
  double radial_position(double offset) const { return drive_.radial_position(offset); }  // 0 outer .. 1 inner
  double tracks_before(double offset) const { return drive_.tracks_before(offset); }  // integral of 1/track size
  double transfer_rate(double offset) const { return drive_.transfer_rate(offset); }
  double rotation_s() const { return drive_.rotation_s(); }
  double seek_time(double radial_distance) const { return drive_.seek_time(radial_distance); }
  // Time to reach `offset` from the current head state at time `at`.
  double positioning_time(std::uint64_t offset, sim::Time at) const { return drive_.positioning_time(offset, at); }
  std::size_t queued() const { return drive_.queued(); }

  // The command in service is done.
  void on_event(std::uint64_t) override {
    const HddDrive::Request done = drive_.complete(engine_.now());
    if (drive_.busy()) engine_.schedule_in(drive_.service(), this, 0);
    done.listener->on_io_done(done.tag);
  }

 private:
  sim::Engine& engine_;
  HddDrive drive_;
};

}  // namespace models
