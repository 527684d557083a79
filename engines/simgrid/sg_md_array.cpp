// md arrays (models/hardware/md_array.h: the layer of RAID0, RAID1 and RAID10,
// the same as the native engine's) over SimGrid drives: SgHdd members, each
// behind its own request queue when the block layer is modelled, or SgSsd
// members without one, as native_md_members builds them. The layer itself
// takes no time; the members' actors do.
#include <stdexcept>

#include "engines/simgrid/sg_disks.h"
#include "engines/simgrid/sg_hdd.h"
#include "engines/simgrid/sg_ssd.h"
#include "models/hardware/md_array.h"
#include "models/scenario/disks/md.h"
#include "models/scenario/stream_ids.h"

namespace sgengine {

namespace {

models::MdMemberFactory sg_md_members(simgrid::s4u::Host* host, const models::MdMember& member,
                                      const models::BlockQueueSpec* block, const sim::RandomStreams& streams) {
  return [host, member, block, &streams](std::uint32_t i) -> std::unique_ptr<models::BlockDevice> {
    // An SSD member draws from the disk's stream of its own index, as on the native engine (md.cpp).
    if (const auto* ssd = std::get_if<models::SsdSpec>(&member))
      return std::make_unique<SgSsd>(host, *ssd, streams.stream(models::kStreamDisk, i));
    auto d = std::make_unique<SgHdd>(host, std::get<models::HddSpec>(member));
    if (!block) return d;
    return std::make_unique<models::QueuedDevice>(std::move(d), *block, now_ns);
  };
}

}  // namespace

// The "raid0", "raid1" and "raid10" kinds (models/scenario/disks/md.h).
std::unique_ptr<models::BlockDevice> make_sg_md(const Platform& platform, const models::HardwareSpec& hw,
                                                const sim::RandomStreams& streams) {
  const models::MdArraySpec spec = models::md_as_built(models::md_array_spec(hw.disk), hw);
  return std::make_unique<models::MdArray>(
      spec, sg_md_members(platform.server, spec.member, hw.block_queue ? &hw.block : nullptr, streams));
}

}  // namespace sgengine
