// The registry of disk kinds (disk_kinds.h): one line each, in DiskSpec's order.
#include "models/scenario/disk_kinds.h"

#include "models/scenario/disks/hdd.h"
#include "models/scenario/disks/md.h"
#include "models/scenario/disks/ssd.h"

namespace models {

const DiskKind& simple_disk_kind();
const DiskKind& no_disk_kind();

const std::vector<const DiskKind*>& disk_kinds() {
  static const std::vector<const DiskKind*> rows{
      &hdd_disk_kind(), &raid10_disk_kind(), &simple_disk_kind(), &no_disk_kind(), &ssd_disk_kind(),
      &raid1_disk_kind(), &raid0_disk_kind(),
  };
  return rows;
}
static_assert(std::variant_size_v<DiskSpec> == 7, "one row of disk_kinds() per alternative of DiskSpec");

const DiskKind& disk_kind(const DiskSpec& spec) { return *disk_kinds().at(spec.index()); }

DiskUnits disk_units(const DiskSpec& spec) {
  const DiskKind& kind = disk_kind(spec);
  return kind.units ? kind.units(spec) : DiskUnits{};
}

const DiskKind* find_disk_kind(const std::string& name) {
  for (const DiskKind* k : disk_kinds())
    if (name == k->name) return k;
  return nullptr;
}

std::vector<std::string> disk_kind_names() {
  std::vector<std::string> out;
  for (const DiskKind* k : disk_kinds()) out.emplace_back(k->name);
  return out;
}

}  // namespace models
