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

std::vector<DriveView> MdArray::drive_views() const {
  std::vector<const BlockDevice*> drives;
  for (const auto& m : members_) drives.push_back(m.get());
  return views_of(drives);
}

// read_balance (md_layer.h): why drive d got its reads, and where its mirrors' heads are.
DriveWords MdArray::drive_words(std::uint32_t d) const {
  using Style = DriveLine::Style;
  if (d >= devices()) return {};
  const ReadBalanceCounts& b = layer_.balance_counts(d);
  const std::uint64_t all = b.idle + b.head_at + b.closer + b.fewest;
  std::vector<DriveLine> why = {
      {Style::kSeparator, ""},
      {Style::kText, printed("Why here: md read_balance (\"%s\"), %u copies of each byte",
                             layer_.read_balance_name().c_str(), layer_.copies())},
      {Style::kWrapped, "Each piece of a read goes to one copy: an idle mirror if there is one (of SSDs: the one with "
                        "the fewest reads pending), otherwise the mirror whose head (where its last read ended) is "
                        "closest. Once both mirrors are busy, the drive already reading near a stream keeps getting its "
                        "next pieces, so one drive of a pair can hold most of the queue."}};
  if (all == 0) return {{}, why};
  const auto pct = [&](std::uint64_t x) { return 100.0 * static_cast<double>(x) / static_cast<double>(all); };
  why.push_back({Style::kText, printed("of %llu pieces sent here: %.0f%% it was idle, %.0f%% its head was right there, "
                                       "%.0f%% its head was closer, %.0f%% it had the fewest pending (SSD members)",
                                       static_cast<unsigned long long>(all), pct(b.idle), pct(b.head_at), pct(b.closer),
                                       pct(b.fewest))});
  why.push_back({Style::kText, printed("pieces pending here now: %u, head at %.2f GiB", layer_.pending(d),
                                       static_cast<double>(layer_.head_position(d)) / (1 << 30))});
  // Near layout with whole groups: the mirrors of d are the other drives of its group.
  const std::uint32_t nc = layer_.copies();
  if (nc > 1 && devices() % nc == 0)
    for (std::uint32_t m = d / nc * nc; m < d / nc * nc + nc; ++m)
      if (m != d)
        why.push_back({Style::kText, printed("its mirror, drive %u: %u pieces pending, head at %.2f GiB", m,
                                             layer_.pending(m), static_cast<double>(layer_.head_position(m)) / (1 << 30))});
  return {{}, why};
}

std::vector<std::unique_ptr<BlockDevice>> MdArray::make_members(const MdArraySpec& spec, const MdMemberFactory& make) {
  std::vector<std::unique_ptr<BlockDevice>> members;
  for (std::uint32_t i = 0; i < spec.layout.devices; ++i) members.push_back(make(i));
  return members;
}

}  // namespace models
