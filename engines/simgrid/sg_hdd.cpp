#include "engines/simgrid/sg_hdd.h"

#include <simgrid/s4u/Actor.hpp>

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

}  // namespace sgengine
