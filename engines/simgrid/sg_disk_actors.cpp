// The disk's actors on SimGrid, by kind (sg_actors.h): the engine's devices
// start them, so this file is one of theirs (tests/registry_test.sh). A kind
// added to DiskSpec does not compile here until it is counted.
#include <variant>

#include "engines/simgrid/sg_actors.h"

namespace sgengine {

namespace {

// One operator per alternative of DiskSpec (the md levels' specs are all an
// MdArraySpec).
struct Count {
  std::uint64_t reads_at_once;

  ActorCount operator()(const models::HddSpec&) const { return {"disk", 1, "drives"}; }  // sg_hdd.cpp
  ActorCount operator()(const models::SsdSpec& ssd) const {
    return {"disk.parallelism", ssd.parallelism, "SSD units"};  // sg_ssd.cpp
  }
  // sg_simple_disk.cpp: "fcfs" one drive; "shared" an actor per read in flight.
  ActorCount operator()(const models::SimpleDiskSpec& simple) const {
    if (!simple.shared) return {"disk", 1, "drives"};
    return {"disk.sharing", reads_at_once, "shared disk's reads in flight at most (one per reader)"};
  }
  ActorCount operator()(const models::NoDiskSpec&) const { return {"disk", 0, "drives"}; }
  // An md array: its members' actors, none of its own (sg_md_array.cpp).
  ActorCount operator()(const models::MdArraySpec& md) const {
    const std::uint64_t devices = md.layout.devices;
    if (const auto* ssd = std::get_if<models::SsdSpec>(&md.member))
      return {"disk.devices x disk.member.parallelism", devices * ssd->parallelism, "members' SSD units"};
    return {"disk.devices", devices, "member drives"};
  }
};

}  // namespace

ActorCount disk_actors(const models::DiskSpec& disk, std::uint64_t reads_at_once) {
  return std::visit(Count{reads_at_once}, disk);
}

}  // namespace sgengine
