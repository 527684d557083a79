// The disk kind "none" (disk_kinds.h): no device, every file in the page
// cache from the start (models/hardware/no_disk.h).
#include "models/hardware/no_disk.h"
#include "models/scenario/disk_kinds.h"

namespace models {

const DiskKind& no_disk_kind() {
  static const DiskKind row{
      .name = "none",
      .label = "no disk (every file in the page cache)",
      .brief = "no disk",
      .doc = "\"none\" every file in the page cache",
      .read = [](Section&) -> DiskSpec { return NoDiskSpec{}; },
      .docs = [] { return std::vector<KeyDoc>{}; },
      .probes = {""},
      .capacity = [](const DiskSpec&) { return std::uint64_t{0}; },
      .make = [](const DiskSpec&, const DiskBuild&) -> std::unique_ptr<BlockDevice> { return std::make_unique<NoDisk>(); },
      .in_memory = true,
      .preset = "aws-36-core",
      .preset_words = "every file in memory",
  };
  return row;
}

}  // namespace models
