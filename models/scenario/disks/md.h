// The disk kinds of Linux md arrays, "raid0", "raid1" and "raid10"
// (models/hardware/md_array.h), and what the SimGrid engine's array
// (engines/simgrid/sg_md_array.h) shares of their rows.
#pragma once
#include "models/hardware/md_array.h"
#include "models/scenario/disk_kinds.h"

namespace models {

// The array of a spec of any of the three kinds.
const MdArraySpec& md_array_spec(const DiskSpec& spec);
// The array as the rest of the hardware has it: each spinning member as the
// block layer has it (hdd_as_built), raid10's read_balance from [md].
MdArraySpec md_as_built(const MdArraySpec& raid, const HardwareSpec& hw);

const DiskKind& raid0_disk_kind();
const DiskKind& raid1_disk_kind();
const DiskKind& raid10_disk_kind();

}  // namespace models
