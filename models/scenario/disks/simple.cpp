// The disk kind "simple" (disk_kinds.h): a device of two datasheet figures
// (models/hardware/simple_disk.h).
#include "models/hardware/simple_disk.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/limits.h"
#include "models/scenario/section.h"

namespace models {

namespace {

using limits::kMaxBlockBytes;
constexpr const char* kWhen = "type = \"simple\"";

// A device of two datasheet figures (models/hardware/simple_disk.h).
SimpleDiskSpec read_simple_disk(Section& s) {
  SimpleDiskSpec d;
  d.capacity_bytes = static_cast<double>(s.size("capacity", 0, 1 << 20, true));
  d.latency_s = s.duration("latency", 0, 0, true);
  d.bandwidth_Bps = s.rate("bandwidth", 0, true);
  d.shared = s.choice("sharing", "shared", {"shared", "fcfs"}) == "shared";
  d.readahead_bytes = s.size("readahead", 128 * 1024, 4096, false, kMaxBlockBytes);
  return d;
}

std::vector<KeyDoc> simple_disk_docs() {
  return {
      {"disk", kWhen, "capacity", "", "datasheet: capacity", "", "The device's capacity."},
      {"disk", kWhen, "latency", "", "datasheet: access time", "", "Time of every read before its transfer."},
      {"disk", kWhen, "bandwidth", "", "datasheet: sequential read", "", "Transfer rate."},
      {"disk", kWhen, "sharing", "", "", "shared", "\"shared\": reads in flight share the bandwidth; \"fcfs\": one read at a time, in arrival order."},
      {"disk", kWhen, "readahead", "", "/sys/block/DEV/queue/read_ahead_kb", "Linux's default read_ahead_kb, 128 KiB", "How much a sequential read fetches ahead."},
  };
}

}  // namespace

const DiskKind& simple_disk_kind() {
  static const DiskKind row{
      .name = "simple",
      .label = "simple disk (latency + bandwidth)",
      .brief = "simple disk",
      .doc = "\"simple\" a latency and a bandwidth (simple_disk.h)",
      .read = [](Section& disk) -> DiskSpec { return read_simple_disk(disk); },
      .docs = simple_disk_docs,
      .probes = {"capacity = \"1t\"\nlatency = \"1ms\"\nbandwidth = \"100MB/s\"\n"},
      .capacity = stated_capacity<SimpleDiskSpec>,
      .make = [](const DiskSpec& s, const DiskBuild& b) -> std::unique_ptr<BlockDevice> {
        return std::make_unique<SimpleDisk>(b.engine, std::get<SimpleDiskSpec>(s));
      },
  };
  return row;
}

}  // namespace models
