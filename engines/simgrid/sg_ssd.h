// A solid-state drive on SimGrid: the counterpart of models::Ssd. The drive
// itself (its units, queue, drawn access times with the rare slow reads and
// stalls, counters) is the same clock-free models::SsdDrive the native
// engine owns, drawing from the same random stream; this class only keeps
// its time on SimGrid: one actor per internal unit waits for the service
// time SsdDrive returned for the read in that unit, then tells the drive,
// which may hand the unit its next queued read.
//
// With the same reads submitted in the same order, both engines draw the
// same access times for them (SsdDrive draws when a unit takes a read), so
// the outliers fall on the same reads.
#pragma once
#include <cstdint>
#include <deque>
#include <simgrid/s4u/Host.hpp>

#include "engines/simgrid/sg_clock.h"
#include "models/hardware/block_device.h"
#include "models/hardware/ssd_drive.h"
#include "sim/random.h"

namespace sgengine {

class SgSsd final : public models::BlockDevice {
 public:
  SgSsd(simgrid::s4u::Host* host, const models::SsdSpec& spec, sim::RandomStream rng);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return drive_.capacity(); }
  std::uint64_t readahead_bytes() const override { return drive_.spec().readahead_bytes; }
  models::DiskStats stats() const override { return drive_.stats(now_ns()); }
  void reset_peaks() override { drive_.reset_peaks(); }
  std::vector<models::DriveView> drive_views() const override { return {{drive_.outstanding(), nullptr}}; }

 private:
  struct Unit {
    sim::Time done_at = -1;  // when its read ends; -1: idle
    Wakeup wake;
  };
  void begin(const models::SsdDrive::Started& started);  // a unit took a read
  void run(std::uint32_t slot);                         // a unit's actor

  models::SsdDrive drive_;
  std::deque<Unit> units_;  // by slot (a deque: a Wakeup does not move)
};

}  // namespace sgengine
