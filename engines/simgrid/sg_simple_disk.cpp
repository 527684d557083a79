#include "engines/simgrid/sg_simple_disk.h"

#include <simgrid/s4u/Actor.hpp>
#include <stdexcept>

#include "engines/simgrid/sg_disks.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgSimpleDisk::SgSimpleDisk(sg4::Host* host, sg4::Disk* disk, const models::SimpleDiskSpec& spec)
    : host_(host), disk_(disk), spec_(spec) {
  if (!spec.shared) sg4::Actor::create("drive", host_, [this] { drive(); })->daemonize();
}

void SgSimpleDisk::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                               std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("simple disk: read beyond the end of the disk");
  activity_.submitted(now_ns());
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
  activity_.done(now_ns(), r.length);
  r.listener->on_io_done(r.tag);
}

models::DiskStats SgSimpleDisk::stats() const { return activity_.stats(now_ns()); }

// The "simple" kind: a SimGrid disk of its bandwidth, and the device over it.
void add_sg_simple_disk(Platform& platform, const models::DiskSpec& spec) {
  const double bandwidth = std::get<models::SimpleDiskSpec>(spec).bandwidth_Bps;
  platform.disks.push_back(platform.server->create_disk("disk", bandwidth, bandwidth)->seal());
}

std::unique_ptr<models::BlockDevice> make_sg_simple_disk(const Platform& platform, const models::HardwareSpec& hw,
                                                         const sim::RandomStreams&) {
  return std::make_unique<SgSimpleDisk>(platform.server, platform.disks.at(0), std::get<models::SimpleDiskSpec>(hw.disk));
}

}  // namespace sgengine
