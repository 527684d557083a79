#include "engines/simgrid/sg_hdd.h"

#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_disks.h"
#include "models/hardware/queued_device.h"
#include "models/scenario/disks/hdd.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgHdd::SgHdd(sg4::Host* host, const models::HddSpec& spec) : drive_(spec) {
  sg4::Actor::create("drive", host, [this] { run(); })->daemonize();
}

void SgHdd::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                        std::uint64_t tag) {
  const sim::Time now = now_ns();
  if (drive_.submit(now, offset, length, listener, tag)) {
    done_at_ = now + drive_.service();
    wake_.notify();
  }
}

void SgHdd::run() {
  for (;;) {
    while (!drive_.busy()) wake_.wait();
    sg4::this_actor::sleep_until(sim::to_seconds(done_at_));
    ++resumptions();
    const sim::Time now = now_ns();
    const models::HddDrive::Request done = drive_.complete(now);
    if (drive_.busy()) done_at_ = now + drive_.service();
    done.listener->on_io_done(done.tag);
  }
}

// The "hdd" kind (models/scenario/disks/hdd.h), behind its request queue unless [block] request_queue is off.
std::unique_ptr<models::BlockDevice> make_sg_hdd(const Platform& platform, const models::HardwareSpec& hw,
                                                 const sim::RandomStreams&) {
  const models::HddSpec drive = models::hdd_as_built(std::get<models::HddSpec>(hw.disk), hw);
  if (!hw.block_queue) return std::make_unique<SgHdd>(platform.server, drive);
  return std::make_unique<models::QueuedDevice>(std::make_unique<SgHdd>(platform.server, drive), hw.block, now_ns);
}

}  // namespace sgengine
