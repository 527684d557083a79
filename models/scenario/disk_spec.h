// A scenario's disk: the spec of one registered kind (disk_kinds.h), one
// alternative per row of disk_kinds.cpp, in its order.
#pragma once
#include <variant>

#include "models/hardware/hdd_drive.h"
#include "models/hardware/no_disk.h"
#include "models/hardware/md_array.h"
#include "models/hardware/simple_disk.h"
#include "models/hardware/ssd.h"

namespace models {

using DiskSpec = std::variant<HddSpec, Raid10Spec, SimpleDiskSpec, NoDiskSpec, SsdSpec, Raid1Spec, Raid0Spec>;

}  // namespace models
