#include "models/hardware/raid10.h"

namespace models {

Raid10::Raid10(sim::Engine& engine, const Raid10Spec& spec, const BlockQueueSpec* block)
    : members_(make_members(engine, spec)),
      queues_(block ? queue_each(raid10_drives(members_), *block, [&engine] { return engine.now(); })
                    : std::vector<std::unique_ptr<QueuedDevice>>{}),
      layer_(spec, block ? raid10_drives(queues_) : raid10_drives(members_)) {}

std::vector<std::unique_ptr<Hdd>> Raid10::make_members(sim::Engine& engine, const Raid10Spec& spec) {
  std::vector<std::unique_ptr<Hdd>> members;
  for (std::uint32_t i = 0; i < spec.devices; ++i) members.push_back(std::make_unique<Hdd>(engine, spec.member));
  return members;
}

}  // namespace models
