// The disk kind "raid10" (disk_kinds.h): md RAID10 of "hdd" drives, each
// behind its own request queue unless [block] request_queue is off.
#include "models/scenario/disks/raid10.h"

#include "models/scenario/disks/hdd.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"

namespace models {

namespace {

constexpr const char* kWhen = "type = \"raid10\"";

Raid10Spec read_raid10(Section& disk) {
  Raid10Spec r;
  r.devices = static_cast<std::uint32_t>(disk.integer("devices", 4, 1, 256, true));
  r.near_copies = static_cast<std::uint32_t>(disk.integer("near_copies", 2, 1, 8));
  if (r.near_copies > r.devices) disk.fail("near_copies", "must not exceed devices");
  r.chunk_bytes = disk.size("chunk", 512 * 1024, 4096, false, limits::kMaxBlockBytes);
  Section member = disk.sub("member");
  member.choice("type", hdd_disk_kind().name, {hdd_disk_kind().name});
  r.member = read_hdd(member);
  member.done();
  return r;
}

std::vector<KeyDoc> raid10_docs() {
  std::vector<KeyDoc> d = {
      {"disk", kWhen, "devices", "drives", "mdadm --raid-devices", "", "Member drives of the array."},
      {"disk", kWhen, "near_copies", "copies", "mdadm --layout=n2", "md's default layout n2", "Copies of each chunk, on adjacent members."},
      {"disk", kWhen, "chunk", "", "mdadm --chunk", "mdadm's default chunk, 512 KiB", "The chunk a read is split at."},
      {"disk", kWhen, "member", "", "", "", "Each member drive's datasheet: [disk.member], the keys of a disk of type \"hdd\"."},
      {"disk.member", "", "type", "", "", "", "The members' model: drives only (\"hdd\")."},
  };
  const std::vector<KeyDoc> member = hdd_docs("disk.member", "");
  d.insert(d.end(), member.begin(), member.end());
  return d;
}

// Raid10Layer: whole chunks per device, near_copies of each.
std::uint64_t raid10_capacity(const DiskSpec& spec) {
  const Raid10Spec& r = std::get<Raid10Spec>(spec);
  const std::uint64_t chunks = static_cast<std::uint64_t>(r.member.capacity_bytes) / r.chunk_bytes;
  return chunks * r.devices / r.near_copies * r.chunk_bytes;
}

std::unique_ptr<BlockDevice> make_raid10(const DiskSpec& spec, const DiskBuild& b) {
  return std::make_unique<Raid10>(b.engine, raid10_as_built(std::get<Raid10Spec>(spec), b.hardware),
                                  b.hardware.block_queue ? &b.hardware.block : nullptr);
}

}  // namespace

Raid10Spec raid10_as_built(const Raid10Spec& raid, const HardwareSpec& hw) {
  Raid10Spec r = raid;
  r.member = hdd_as_built(raid.member, hw);
  r.read_balance = hw.md_read_balance;
  return r;
}

const DiskKind& raid10_disk_kind() {
  static const DiskKind row{
      .name = "raid10",
      .label = "md RAID10 of the drives",
      .brief = "RAID10",
      .doc = "\"raid10\" an md RAID10 of drives (raid10.h)",
      .read = [](Section& disk) -> DiskSpec { return read_raid10(disk); },
      .docs = raid10_docs,
      .probes = {"devices = 4\n[disk.member]\n" + hdd_probe_keys()},
      .capacity = raid10_capacity,
      .make = make_raid10,
      .drive = [](const DiskSpec& s) { return &std::get<Raid10Spec>(s).member; },
      .of_drive = [](const HddSpec& drive) -> DiskSpec {
        Raid10Spec r;
        r.member = drive;
        return r;
      },
      .preset = "nginx-2015-raid10",
      .preset_words = "md RAID10 of 4 HDDs",
  };
  return row;
}

}  // namespace models
