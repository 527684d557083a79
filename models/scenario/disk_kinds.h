// The disk kinds: one registry row each, in the style of SimGrid's model
// registration (SIMGRID_REGISTER_DISK_MODEL) and OMNeT++'s factories. A row
// says everything the rest of clerk needs of a kind:
//  - its name, the scenario's `[disk] type = "NAME"`;
//  - its spec reader (config_loader's Section for its own keys of [disk]) and
//    what the key reference says of them, with probe tables that take every
//    branch of the reader (key_reference.cpp);
//  - its native factory, and the capacity it offers to files;
//  - whether the SimGrid engine builds it (engines/simgrid/sg_disks.cpp), or
//    why not;
//  - its words in clerk-ui, and what clerk-ui may turn it into.
// A kind is its model (models/hardware/), its row (models/scenario/disks/),
// one line in disk_kinds.cpp and one alternative of DiskSpec (disk_spec.h);
// nothing else names it (tests/registry_test.sh checks that).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/hardware/block_device.h"
#include "models/scenario/disk_spec.h"
#include "models/scenario/key_reference.h"
#include "sim/engine.h"
#include "sim/random.h"

namespace models {

class Section;
struct HardwareSpec;

// What a native factory builds a device from: the engine, the rest of the
// hardware ([block] and [md] apply to the drives of every kind made of
// them) and the run's random streams.
struct DiskBuild {
  sim::Engine& engine;
  const HardwareSpec& hardware;
  const sim::RandomStreams& streams;
};

// What a device's model keeps grows with its drives and, in each drive, the
// units that serve reads at once (an SSD's `parallelism`: a slot and a free
// list entry each); the memory estimate counts both (resource_estimate.h).
struct DiskUnits {
  double drives = 1;
  double units_per_drive = 1;
};

struct DiskKind {
  const char* name;   // [disk] type = "NAME"
  const char* label;  // clerk-ui's menu
  const char* brief;  // a title's words
  const char* doc;    // the key reference's words on `type = "NAME"`
  // Its own keys of [disk] (the loader has read `type`).
  DiskSpec (*read)(Section& disk);
  // What the key reference says of those keys.
  std::vector<KeyDoc> (*docs)();
  // [disk] tables (without the type line) that together take every branch of `read`.
  std::vector<std::string> probes;
  // The bytes the device offers to files.
  std::uint64_t (*capacity)(const DiskSpec& spec);
  std::unique_ptr<BlockDevice> (*make)(const DiskSpec& spec, const DiskBuild& build);
  // No device: every file is in the page cache from the start, and the data set must fit there.
  bool in_memory = false;
  // Why the SimGrid engine cannot run this kind; nullptr when it builds it (engines/simgrid/sg_disks.cpp).
  const char* simgrid_refusal = nullptr;
  // The spinning drive's datasheet the kind is built of, if any (null when
  // the spec's drives are not spinning ones), and the
  // kind built of a given one (clerk-ui offers the kinds that share a drive).
  const HddSpec* (*drive)(const DiskSpec& spec) = nullptr;
  DiskSpec (*of_drive)(const HddSpec& drive) = nullptr;
  // An array's: the kind of its member drives (the SimGrid engine refuses an
  // array whose members' kind it refuses, with that kind's words).
  const DiskKind* (*member)(const DiskSpec& spec) = nullptr;
  // `clerk new --disk NAME`: the hardware preset (scenarios/hardware/) it
  // writes, and its words in the help; null: not offered.
  const char* preset = nullptr;
  const char* preset_words = nullptr;
  // Its drives and their units (DiskUnits); null: one drive of one unit.
  DiskUnits (*units)(const DiskSpec& spec) = nullptr;
};

// The row's DiskUnits of `spec`, or one drive of one unit.
DiskUnits disk_units(const DiskSpec& spec);

// A row's capacity for a spec that states its own (capacity_bytes).
template <typename Spec>
std::uint64_t stated_capacity(const DiskSpec& spec) {
  return static_cast<std::uint64_t>(std::get<Spec>(spec).capacity_bytes);
}

// Every kind, in DiskSpec's order (the first is the default).
const std::vector<const DiskKind*>& disk_kinds();
// The row of a spec.
const DiskKind& disk_kind(const DiskSpec& spec);
// The row named `name`, or null.
const DiskKind* find_disk_kind(const std::string& name);
// The names, for the loader's "must be one of".
std::vector<std::string> disk_kind_names();

}  // namespace models
