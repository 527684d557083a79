// The disk kind "hdd" (disk_kinds.h): one spinning drive, behind the block
// layer's request queue unless [block] request_queue is off.
#include "models/scenario/disks/hdd.h"

#include "models/hardware/hdd.h"
#include "models/hardware/queued_device.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"

namespace models {

using limits::kMaxBlockBytes;

HddSpec read_hdd(Section& s) {
  HddSpec h;
  h.capacity_bytes = static_cast<double>(s.size("capacity", 0, 1 << 20, true));
  h.rpm = s.number("rpm", 7200, 1, 100000, true);
  h.seek_average_s = s.duration("seek_average", 0, 0, true);
  h.seek_track_s = s.duration("seek_track_to_track", 0, 0, true);
  if (h.seek_track_s > h.seek_average_s) s.fail("seek_track_to_track", "must not exceed seek_average");
  h.rate_outer_Bps = s.rate("transfer_outer", 0, true);
  h.rate_inner_Bps = s.rate("transfer_inner", 0, true);
  if (h.rate_inner_Bps > h.rate_outer_Bps) s.fail("transfer_inner", "must not exceed transfer_outer");
  h.ncq_depth = static_cast<std::uint32_t>(s.integer("ncq_depth", 32, 1, 256));
  h.interface_Bps = s.rate("interface", 300e6);
  h.readahead_bytes = s.size("readahead", 128 * 1024, 4096, false, kMaxBlockBytes);
  s.retired("read_expire", "has moved to [block] read_expire (the deadline elevator's, not the drive's)");
  return h;
}

// One drive's datasheet (models/hardware/hdd.h): a disk of type "hdd", or
// each member of an md array.
std::vector<KeyDoc> hdd_docs(const char* table, const char* when) {
  return {
      {table, when, "capacity", "", "datasheet: capacity", "", "The drive's capacity; the data set is laid out on it and seek distances follow from where files land."},
      {table, when, "rpm", "rev/min", "datasheet: spindle speed", "", "Spindle speed: rotational latency is half a revolution on average."},
      {table, when, "seek_average", "", "datasheet: average seek (read)", "", "Average seek time over random positions; with seek_track_to_track it fixes the seek curve."},
      {table, when, "seek_track_to_track", "", "datasheet: track-to-track seek", "", "The shortest seek, to the next track."},
      {table, when, "transfer_outer", "", "datasheet: sustained transfer rate (outer diameter)", "", "Media rate at the outer edge, where the first files are laid out."},
      {table, when, "transfer_inner", "", "datasheet: sustained transfer rate (inner diameter)", "", "Media rate at the inner edge; the rate falls linearly in between."},
      {table, when, "ncq_depth", "commands", "hdparm -I: queue depth", "SATA NCQ's 32 tags", "Commands the drive holds and reorders itself (NCQ)."},
      {table, when, "interface", "", "SATA link speed", "SATA 3 Gbit/s: 300 MB/s", "The link between host and drive."},
      {table, when, "readahead", "", "/sys/block/DEV/queue/read_ahead_kb", "Linux's default read_ahead_kb, 128 KiB", "How much a sequential read fetches ahead (page cache readahead)."},
      {table, when, "read_expire", "", "", "", "", "", "", true},
  };
}

std::string hdd_probe_keys() {
  return "capacity = \"1t\"\nrpm = 7200\nseek_average = \"8ms\"\nseek_track_to_track = \"1ms\"\n"
         "transfer_outer = \"150MB/s\"\ntransfer_inner = \"80MB/s\"\n";
}

HddSpec hdd_as_built(const HddSpec& drive, const HardwareSpec& hw) {
  HddSpec d = drive;
  d.read_expire_s = hw.block_queue ? limits::kMaxSpanSeconds : hw.block.deadline.read_expire_s;
  return d;
}

namespace {

std::unique_ptr<BlockDevice> make_hdd(const DiskSpec& spec, const DiskBuild& b) {
  const HddSpec drive = hdd_as_built(std::get<HddSpec>(spec), b.hardware);
  if (!b.hardware.block_queue) return std::make_unique<Hdd>(b.engine, drive);
  sim::Engine& engine = b.engine;
  return std::make_unique<QueuedDevice>(std::make_unique<Hdd>(engine, drive), b.hardware.block,
                                        [&engine] { return engine.now(); });
}

}  // namespace

const DiskKind& hdd_disk_kind() {
  static const DiskKind row{
      .name = "hdd",
      .label = "one drive alone",
      .brief = "one drive",
      .doc = "\"hdd\" one drive (hdd.h)",
      .read = [](Section& disk) -> DiskSpec { return read_hdd(disk); },
      .docs = [] { return hdd_docs("disk", "type = \"hdd\""); },
      .probes = {hdd_probe_keys()},
      .capacity = stated_capacity<HddSpec>,
      .make = make_hdd,
      .drive = [](const DiskSpec& s) { return &std::get<HddSpec>(s); },
      .of_drive = [](const HddSpec& drive) -> DiskSpec { return drive; },
  };
  return row;
}

}  // namespace models
