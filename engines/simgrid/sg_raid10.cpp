#include "engines/simgrid/sg_raid10.h"

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

}  // namespace sgengine
