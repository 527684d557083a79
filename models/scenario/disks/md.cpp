// The disk kinds "raid0", "raid1" and "raid10" (disk_kinds.h): Linux md
// arrays (models/hardware/md_layer.h) of alike member drives, each a disk of
// type "hdd" (behind its own request queue unless [block] request_queue is
// off) or "ssd", its datasheet in [disk.member]. Keys are mdadm's:
//   mdadm --create --level=1 --raid-devices=2            -> type = "raid1", devices = 2
//   mdadm --create --level=0 --raid-devices=4 --chunk=512 -> type = "raid0", devices = 4, chunk = "512k"
//   mdadm --create --level=10 --layout=n2 ...            -> type = "raid10", near_copies = 2
#include "models/scenario/disks/md.h"

#include "models/hardware/ssd.h"
#include "models/scenario/disks/hdd.h"
#include "models/scenario/disks/ssd.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"
#include "models/scenario/stream_ids.h"

namespace models {

namespace {

// mdadm(8), --chunk: "RAID4, RAID5, RAID6, and RAID10 require the chunk size
// to be a power of 2. In any case it must be a multiple of 4KB." Its
// default when creating an array is 512 KiB (since mdadm 3.1).
constexpr std::uint64_t kMdadmChunk = 512 * 1024;

std::uint64_t read_chunk(Section& disk, bool power_of_two) {
  const std::uint64_t chunk = disk.size("chunk", kMdadmChunk, 4096, false, limits::kMaxBlockBytes);
  if (chunk % 4096) disk.fail("chunk", "must be a multiple of 4 KiB (mdadm --chunk)");
  if (power_of_two && (chunk & (chunk - 1))) disk.fail("chunk", "must be a power of two for RAID10 (mdadm --chunk)");
  return chunk;
}

// [disk.member]: `type` picks the drive's model, and its keys are that kind's.
MdMember read_member(Section& disk) {
  Section member = disk.sub("member");
  const std::string type = member.choice("type", hdd_disk_kind().name, {hdd_disk_kind().name, ssd_disk_kind().name});
  member.set_when("type = \"" + type + "\"");
  MdMember out;
  if (type == ssd_disk_kind().name)
    out = read_ssd(member);
  else
    out = read_hdd(member);
  member.done();
  return out;
}

std::uint32_t read_devices(Section& disk, std::int64_t least) {
  return static_cast<std::uint32_t>(disk.integer("devices", least, least, 256, true));
}

DiskSpec read_raid0(Section& disk) {
  Raid0Spec r;
  r.layout.level = MdLevel::kRaid0;
  r.layout.devices = read_devices(disk, 1);
  r.layout.near_copies = 1;
  r.layout.chunk_bytes = read_chunk(disk, false);
  r.member = read_member(disk);
  return r;
}

DiskSpec read_raid1(Section& disk) {
  Raid1Spec r;
  r.layout.level = MdLevel::kRaid1;
  r.layout.devices = read_devices(disk, 1);
  r.layout.near_copies = r.layout.devices;
  r.member = read_member(disk);
  return r;
}

DiskSpec read_raid10(Section& disk) {
  Raid10Spec r;
  r.layout.level = MdLevel::kRaid10;
  r.layout.devices = read_devices(disk, 1);
  r.layout.near_copies = static_cast<std::uint32_t>(disk.integer("near_copies", 2, 1, 8));
  if (r.layout.near_copies > r.layout.devices) disk.fail("near_copies", "must not exceed devices");
  r.layout.chunk_bytes = read_chunk(disk, true);
  r.member = read_member(disk);
  return r;
}

KeyDoc devices_doc(const char* when) {
  return {"disk", when, "devices", "drives", "mdadm --raid-devices", "", "Member drives of the array."};
}
KeyDoc member_doc(const char* when) {
  return {"disk", when, "member", "", "", "",
          "Each member drive's datasheet: [disk.member], with type = \"hdd\" or \"ssd\" and that kind's keys."};
}
KeyDoc chunk_doc(const char* when, const char* rule) {
  return {"disk", when, "chunk", "", "mdadm --chunk", "mdadm's default chunk, 512 KiB", rule};
}

// The keys of [disk.member], the same for every md kind: documented once, with raid10's.
std::vector<KeyDoc> member_table_docs() {
  std::vector<KeyDoc> d = {
      {"disk.member", "", "type", "", "", "", "The members' model: \"hdd\" (spinning drives) or \"ssd\"; its keys follow, as for a disk of that type."},
  };
  const std::vector<KeyDoc> hdd = hdd_docs("disk.member", "type = \"hdd\"");
  const std::vector<KeyDoc> ssd = ssd_docs("disk.member", "type = \"ssd\"");
  d.insert(d.end(), hdd.begin(), hdd.end());
  d.insert(d.end(), ssd.begin(), ssd.end());
  return d;
}

constexpr const char* kRaid0 = "type = \"raid0\"";
constexpr const char* kRaid1 = "type = \"raid1\"";
constexpr const char* kRaid10 = "type = \"raid10\"";

std::vector<KeyDoc> raid0_docs() {
  return {devices_doc(kRaid0), chunk_doc(kRaid0, "The stripe unit: chunk k is on member k mod devices, and a read is split at chunk boundaries (raid0.c)."),
          member_doc(kRaid0)};
}

std::vector<KeyDoc> raid1_docs() { return {devices_doc(kRaid1), member_doc(kRaid1)}; }

std::vector<KeyDoc> raid10_docs() {
  std::vector<KeyDoc> d = {
      devices_doc(kRaid10),
      {"disk", kRaid10, "near_copies", "copies", "mdadm --layout=n2", "md's default layout n2", "Copies of each chunk, on adjacent members."},
      chunk_doc(kRaid10, "The chunk a read is split at; a power of two."),
      member_doc(kRaid10),
  };
  const std::vector<KeyDoc> member = member_table_docs();
  d.insert(d.end(), member.begin(), member.end());
  return d;
}

std::uint64_t md_capacity_of(const DiskSpec& spec) {
  const MdArraySpec& r = md_array_spec(spec);
  return md_capacity(r.layout, md_members(r.member));
}

std::unique_ptr<BlockDevice> make_md(const DiskSpec& spec, const DiskBuild& b) {
  const MdArraySpec r = md_as_built(md_array_spec(spec), b.hardware);
  const sim::RandomStreams& streams = b.streams;
  // An SSD member draws from the disk's stream of its own index (member 0 as a lone SSD would).
  return std::make_unique<MdArray>(
      r, native_md_members(b.engine, r.member, b.hardware.block_queue ? &b.hardware.block : nullptr,
                           [&streams](std::uint32_t i) { return streams.stream(kStreamDisk, i); }));
}

const HddSpec* hdd_member(const DiskSpec& spec) { return std::get_if<HddSpec>(&md_array_spec(spec).member); }

const DiskKind* member_kind(const DiskSpec& spec) {
  return std::holds_alternative<SsdSpec>(md_array_spec(spec).member) ? &ssd_disk_kind() : &hdd_disk_kind();
}

// Every member, each of an SSD's units or a spinning drive's one.
DiskUnits md_units(const DiskSpec& spec) {
  const MdArraySpec& r = md_array_spec(spec);
  const auto* ssd = std::get_if<SsdSpec>(&r.member);
  return {static_cast<double>(r.layout.devices), ssd ? static_cast<double>(ssd->parallelism) : 1.0};
}

std::string hdd_member_probe() { return "[disk.member]\n" + hdd_probe_keys(); }
std::string ssd_member_probe() { return "[disk.member]\ntype = \"ssd\"\n" + ssd_probe_keys(); }

}  // namespace

const MdArraySpec& md_array_spec(const DiskSpec& spec) {
  if (const auto* r = std::get_if<Raid0Spec>(&spec)) return *r;
  if (const auto* r = std::get_if<Raid1Spec>(&spec)) return *r;
  return std::get<Raid10Spec>(spec);
}

MdArraySpec md_as_built(const MdArraySpec& raid, const HardwareSpec& hw) {
  MdArraySpec r = raid;
  if (const auto* h = std::get_if<HddSpec>(&raid.member)) r.member = hdd_as_built(*h, hw);
  r.layout.read_balance = hw.md_read_balance;
  return r;
}

const DiskKind& raid0_disk_kind() {
  static const DiskKind row{
      .name = "raid0",
      .label = "md RAID0 of the drives",
      .brief = "RAID0",
      .doc = "\"raid0\" an md RAID0 (striping) of drives (md_layer.h)",
      .read = read_raid0,
      .docs = raid0_docs,
      .probes = {"devices = 2\nchunk = \"64k\"\n" + hdd_member_probe()},
      .capacity = md_capacity_of,
      .make = make_md,
      .drive = hdd_member,
      .member = member_kind,
      .units = md_units,
  };
  return row;
}

const DiskKind& raid1_disk_kind() {
  static const DiskKind row{
      .name = "raid1",
      .label = "md RAID1 of the drives",
      .brief = "RAID1",
      .doc = "\"raid1\" an md RAID1 (mirror) of drives (md_layer.h)",
      .read = read_raid1,
      .docs = raid1_docs,
      .probes = {"devices = 2\n" + ssd_member_probe()},
      .capacity = md_capacity_of,
      .make = make_md,
      .drive = hdd_member,
      .member = member_kind,
      .preset = "edge-sata-ssd-raid1",
      .preset_words = "md RAID1 of 2 SATA SSDs",
      .units = md_units,
  };
  return row;
}

const DiskKind& raid10_disk_kind() {
  static const DiskKind row{
      .name = "raid10",
      .label = "md RAID10 of the drives",
      .brief = "RAID10",
      .doc = "\"raid10\" an md RAID10 (near layout) of drives (md_layer.h)",
      .read = read_raid10,
      .docs = raid10_docs,
      .probes = {"devices = 4\n" + hdd_member_probe(), "devices = 4\n" + ssd_member_probe()},
      .capacity = md_capacity_of,
      .make = make_md,
      .drive = hdd_member,
      .of_drive = [](const HddSpec& drive) -> DiskSpec {
        Raid10Spec r;
        r.member = drive;
        return r;
      },
      .member = member_kind,
      .preset = "nginx-2015-raid10",
      .preset_words = "md RAID10 of 4 HDDs",
      .units = md_units,
  };
  return row;
}

}  // namespace models
