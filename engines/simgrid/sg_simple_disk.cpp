#include "engines/simgrid/sg_simple_disk.h"

#include <simgrid/s4u/Actor.hpp>
#include <stdexcept>

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgSimpleDisk::SgSimpleDisk(sg4::Host* host, sg4::Disk* disk, const models::SimpleDiskSpec& spec)
    : host_(host), disk_(disk), spec_(spec) {
  if (!spec.shared) sg4::Actor::create("drive", host_, [this] { drive(); })->daemonize();
}

void SgSimpleDisk::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                               std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("simple disk: read beyond the end of the disk");
  const sim::Time now = now_ns();
  if (outstanding_.value() == 0) busy_since_ = now;
  outstanding_.add(now, 1);
  const Read r{length, listener, tag};
  if (spec_.shared) {
    sg4::Actor::create("read", host_, [this, r] { serve(r); })->daemonize();
    return;
  }
  fifo_.push_back(r);
  drive_wake_.notify();
}

void SgSimpleDisk::drive() {
  for (;;) {
    while (fifo_.empty()) drive_wake_.wait();
    const Read r = fifo_.front();
    fifo_.pop_front();
    serve(r);
  }
}

void SgSimpleDisk::serve(const Read& r) {
  sg4::this_actor::sleep_for(spec_.latency_s);
  disk_->read(r.length);
  resumptions() += 2;
  const sim::Time now = now_ns();
  ++done_reads_;
  done_bytes_ += r.length;
  outstanding_.add(now, -1);
  if (outstanding_.value() == 0) busy_s_ += sim::to_seconds(now - busy_since_);
  r.listener->on_io_done(r.tag);
}

models::DiskStats SgSimpleDisk::stats() const {
  const sim::Time now = now_ns();
  models::DiskStats s;
  s.reads = done_reads_;
  s.read_bytes = done_bytes_;
  s.busy_s = busy_s_ + (outstanding_.value() > 0 ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = outstanding_.integral(now);
  s.drives = 1;
  return s;
}

}  // namespace sgengine
