#include "engines/simgrid/sg_disks.h"

#include <stdexcept>
#include <vector>

#include "models/hardware/no_disk.h"
#include "models/scenario/disk_kinds.h"

namespace sgengine {

namespace {

const std::vector<SgDiskKind>& sg_disk_kinds() {
  static const std::vector<SgDiskKind> rows{
      {"hdd", nullptr, make_sg_hdd},
      {"ssd", nullptr, make_sg_ssd},
      {"raid10", nullptr, make_sg_md},
      {"raid1", nullptr, make_sg_md},
      {"raid0", nullptr, make_sg_md},
      {"simple", add_sg_simple_disk, make_sg_simple_disk},
      {"none", nullptr,
       [](const Platform&, const models::HardwareSpec&, const sim::RandomStreams&) -> std::unique_ptr<models::BlockDevice> {
         return std::make_unique<models::NoDisk>();
       }},
  };
  return rows;
}

}  // namespace

const SgDiskKind* find_sg_disk_kind(const std::string& name) {
  for (const SgDiskKind& k : sg_disk_kinds())
    if (name == k.name) return &k;
  return nullptr;
}

std::unique_ptr<models::BlockDevice> make_sg_disk(const Platform& platform, const models::HardwareSpec& hardware,
                                                  const sim::RandomStreams& streams) {
  const char* name = models::disk_kind(hardware.disk).name;
  const SgDiskKind* kind = find_sg_disk_kind(name);
  if (!kind)
    throw std::logic_error(std::string("SimGrid engine: disk type \"") + name +
                           "\" not set up (sg_support.cpp unsupported() should refuse it)");
  return kind->make(platform, hardware, streams);
}

}  // namespace sgengine
