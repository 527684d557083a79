// The disk kind "raid10": an md RAID10 of spinning drives
// (models/hardware/raid10.h), and what the SimGrid engine's array
// (engines/simgrid/sg_raid10.h) shares of its row.
#pragma once
#include "models/hardware/raid10.h"
#include "models/scenario/disk_kinds.h"

namespace models {

// The array as the rest of the hardware has it: each member as the block
// layer has it (hdd_as_built), md's read_balance from [md].
Raid10Spec raid10_as_built(const Raid10Spec& raid, const HardwareSpec& hw);

const DiskKind& raid10_disk_kind();

}  // namespace models
