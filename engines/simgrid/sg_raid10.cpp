#include "engines/simgrid/sg_raid10.h"

#include "engines/simgrid/sg_disks.h"
#include "models/scenario/disks/raid10.h"

namespace sgengine {

SgRaid10::SgRaid10(simgrid::s4u::Host* host, const models::Raid10Spec& spec, const models::BlockQueueSpec* block)
    : members_(make_members(host, spec)),
      queues_(block ? models::queue_each(models::raid10_drives(members_), *block, now_ns)
                    : std::vector<std::unique_ptr<models::QueuedDevice>>{}),
      layer_(spec, block ? models::raid10_drives(queues_) : models::raid10_drives(members_)) {}

std::vector<std::unique_ptr<SgHdd>> SgRaid10::make_members(simgrid::s4u::Host* host,
                                                           const models::Raid10Spec& spec) {
  std::vector<std::unique_ptr<SgHdd>> members;
  for (std::uint32_t i = 0; i < spec.devices; ++i) members.push_back(std::make_unique<SgHdd>(host, spec.member));
  return members;
}

// The "raid10" kind (models/scenario/disks/raid10.h).
std::unique_ptr<models::BlockDevice> make_sg_raid10(const Platform& platform, const models::HardwareSpec& hw) {
  return std::make_unique<SgRaid10>(platform.server, models::raid10_as_built(std::get<models::Raid10Spec>(hw.disk), hw),
                                    hw.block_queue ? &hw.block : nullptr);
}

}  // namespace sgengine
