// md arrays (models/hardware/md_array.h: the layer of RAID0, RAID1 and RAID10,
// the same as the native engine's) over SimGrid drives: SgHdd members, each
// behind its own request queue when the block layer is modelled. The layer
// itself takes no time; the members' actors do. SSD members are refused
// before (sg_support.cpp, with the "ssd" row's words).
#include <stdexcept>

#include "engines/simgrid/sg_disks.h"
#include "engines/simgrid/sg_hdd.h"
#include "models/hardware/md_array.h"
#include "models/scenario/disks/md.h"

namespace sgengine {

// The "raid0", "raid1" and "raid10" kinds (models/scenario/disks/md.h).
std::unique_ptr<models::BlockDevice> make_sg_md(const Platform& platform, const models::HardwareSpec& hw) {
  const models::MdArraySpec spec = models::md_as_built(models::md_array_spec(hw.disk), hw);
  const auto* drive = std::get_if<models::HddSpec>(&spec.member);
  if (!drive) throw std::logic_error("SimGrid engine: md members that are not spinning drives (sg_support.cpp should refuse them)");
  simgrid::s4u::Host* host = platform.server;
  const models::BlockQueueSpec* block = hw.block_queue ? &hw.block : nullptr;
  const models::HddSpec member = *drive;
  return std::make_unique<models::MdArray>(spec, [host, block, member](std::uint32_t) -> std::unique_ptr<models::BlockDevice> {
    auto d = std::make_unique<SgHdd>(host, member);
    if (!block) return d;
    return std::make_unique<models::QueuedDevice>(std::move(d), *block, now_ns);
  });
}

}  // namespace sgengine
