// What a device without geometry reports of its reads (DiskStats), kept as
// reads come and go: busy while any read is outstanding, the time-average
// number outstanding, reads and bytes done. Both engines' simple disks keep
// it the same way; only how a read's time passes differs.
#pragma once
#include <cstdint>

#include "models/hardware/block_device.h"
#include "sim/time.h"
#include "sim/time_average.h"

namespace models {

class DiskActivity {
 public:
  void submitted(sim::Time now) {
    if (outstanding_.value() == 0) busy_since_ = now;
    outstanding_.add(now, 1);
  }
  void done(sim::Time now, std::uint64_t bytes) {
    ++reads_;
    bytes_ += bytes;
    outstanding_.add(now, -1);
    if (outstanding_.value() == 0) busy_s_ += sim::to_seconds(now - busy_since_);
  }
  std::size_t outstanding() const { return static_cast<std::size_t>(outstanding_.value()); }
  DiskStats stats(sim::Time now) const {
    DiskStats s;
    s.reads = reads_;
    s.read_bytes = bytes_;
    s.busy_s = busy_s_ + (outstanding_.value() > 0 ? sim::to_seconds(now - busy_since_) : 0.0);
    s.queue_depth_integral = outstanding_.integral(now);
    s.drives = 1;
    return s;
  }

 private:
  sim::TimeAverage outstanding_;  // reads submitted and not yet done
  sim::Time busy_since_ = 0;
  double busy_s_ = 0;
  std::uint64_t reads_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace models
