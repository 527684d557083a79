#include "engines/simgrid/sg_ssd.h"

#include <optional>
#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_disks.h"
#include "models/scenario/stream_ids.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgSsd::SgSsd(sg4::Host* host, const models::SsdSpec& spec, sim::RandomStream rng) : drive_(spec, rng) {
  units_.resize(spec.parallelism);
  for (std::uint32_t slot = 0; slot < spec.parallelism; ++slot)
    sg4::Actor::create("ssd-unit", host, [this, slot] { run(slot); })->daemonize();
}

void SgSsd::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                        std::uint64_t tag) {
  if (const auto started = drive_.submit(now_ns(), offset, length, listener, tag)) begin(*started);
}

void SgSsd::begin(const models::SsdDrive::Started& started) {
  Unit& u = units_[started.slot];
  u.done_at = now_ns() + started.service;
  u.wake.notify();
}

void SgSsd::run(std::uint32_t slot) {
  Unit& u = units_[slot];
  for (;;) {
    while (u.done_at < 0) u.wake.wait();
    sg4::this_actor::sleep_until(sim::to_seconds(u.done_at));
    ++resumptions();
    u.done_at = -1;
    // As models::Ssd::on_event: the unit takes its next read, then the finished read's owner hears.
    std::optional<models::SsdDrive::Started> next;
    const models::SsdDrive::Read done = drive_.complete(now_ns(), slot, next);
    if (next) begin(*next);
    done.listener->on_io_done(done.tag);
  }
}

// The "ssd" kind (models/scenario/disks/ssd.h): no request queue, as on the
// native engine; the drive draws from the disk's stream, as models::Ssd does.
std::unique_ptr<models::BlockDevice> make_sg_ssd(const Platform& platform, const models::HardwareSpec& hw,
                                                 const sim::RandomStreams& streams) {
  return std::make_unique<SgSsd>(platform.server, std::get<models::SsdSpec>(hw.disk),
                                 streams.stream(models::kStreamDisk));
}

}  // namespace sgengine
