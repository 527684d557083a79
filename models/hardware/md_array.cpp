#include "models/hardware/md_array.h"

#include "models/hardware/ssd.h"

namespace models {

MdMembers md_members(const MdMember& member) {
  if (const auto* h = std::get_if<HddSpec>(&member))
    return MdMembers{static_cast<std::uint64_t>(h->capacity_bytes), h->readahead_bytes, false};
  const auto& s = std::get<SsdSpec>(member);
  return MdMembers{static_cast<std::uint64_t>(s.capacity_bytes), s.readahead_bytes, true};
}

MdMemberFactory native_md_members(sim::Engine& engine, const MdMember& member, const BlockQueueSpec* block,
                                  std::function<sim::RandomStream(std::uint32_t)> ssd_stream) {
  return [&engine, member, block, ssd_stream = std::move(ssd_stream)](std::uint32_t i) -> std::unique_ptr<BlockDevice> {
    if (const auto* s = std::get_if<SsdSpec>(&member)) return std::make_unique<Ssd>(engine, *s, ssd_stream(i));
    auto drive = std::make_unique<Hdd>(engine, std::get<HddSpec>(member));
    if (!block) return drive;
    return std::make_unique<QueuedDevice>(std::move(drive), *block, [&engine] { return engine.now(); });
  };
}

MdArray::MdArray(const MdArraySpec& spec, const MdMemberFactory& make_member)
    : members_(make_members(spec, make_member)), layer_(spec.layout, md_members(spec.member), md_drives(members_)) {}

std::vector<std::unique_ptr<BlockDevice>> MdArray::make_members(const MdArraySpec& spec, const MdMemberFactory& make) {
  std::vector<std::unique_ptr<BlockDevice>> members;
  for (std::uint32_t i = 0; i < spec.layout.devices; ++i) members.push_back(make(i));
  return members;
}

}  // namespace models
