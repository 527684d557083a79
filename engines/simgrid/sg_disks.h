// The SimGrid engine's disk factories: the engine's half of the disk
// registry (models/scenario/disk_kinds.h), keyed by the kind's name, as
// SimGrid registers its own disk models by name. A model row without a
// SimGrid refusal has a row here, and a row here a model row without one
// (tests/simgrid_agreement_test.cpp checks both).
#pragma once
#include <memory>
#include <string>

#include "engines/simgrid/sg_platform.h"
#include "models/hardware/block_device.h"
#include "models/scenario/scenario.h"
#include "sim/random.h"

namespace sgengine {

struct SgDiskKind {
  const char* name;  // the model row's name ([disk] type)
  // SimGrid resources the kind needs, added to the platform before it is sealed; null for none.
  void (*add_resources)(Platform& platform, const models::DiskSpec& spec);
  // `streams`: the run's random streams, for the kinds that draw (an SSD's access times).
  std::unique_ptr<models::BlockDevice> (*make)(const Platform& platform, const models::HardwareSpec& hardware,
                                               const sim::RandomStreams& streams);
};

// The row of the kind named `name`, or null when the engine does not build it.
const SgDiskKind* find_sg_disk_kind(const std::string& name);
// The device of the scenario's [disk] on `platform` (a logic_error for a
// kind it does not build: sg_support.cpp's unsupported() refuses those first).
std::unique_ptr<models::BlockDevice> make_sg_disk(const Platform& platform, const models::HardwareSpec& hardware,
                                                  const sim::RandomStreams& streams);

// The kinds' factories, each in its device's file.
std::unique_ptr<models::BlockDevice> make_sg_hdd(const Platform& platform, const models::HardwareSpec& hardware,
                                                 const sim::RandomStreams& streams);
std::unique_ptr<models::BlockDevice> make_sg_ssd(const Platform& platform, const models::HardwareSpec& hardware,
                                                 const sim::RandomStreams& streams);
std::unique_ptr<models::BlockDevice> make_sg_md(const Platform& platform, const models::HardwareSpec& hardware,
                                                const sim::RandomStreams& streams);
void add_sg_simple_disk(Platform& platform, const models::DiskSpec& spec);
std::unique_ptr<models::BlockDevice> make_sg_simple_disk(const Platform& platform, const models::HardwareSpec& hardware,
                                                         const sim::RandomStreams& streams);

}  // namespace sgengine
