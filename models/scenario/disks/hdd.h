// The disk kind "hdd": one spinning drive (models/hardware/hdd.h), and the
// parts of its row that the kinds built of such drives (raid10.h) and the
// SimGrid engine's drive (engines/simgrid/sg_hdd.h) share.
#pragma once
#include <string>
#include <vector>

#include "models/hardware/hdd_drive.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/key_reference.h"

namespace models {

// The drive's datasheet keys, in [disk] or in an array's [disk.member].
HddSpec read_hdd(Section& s);
std::vector<KeyDoc> hdd_docs(const char* table, const char* when);
// The datasheet keys a probe scenario gives (key_reference.cpp).
std::string hdd_probe_keys();
// The drive as the block layer in front of it has it: without the request
// queue the drive keeps the old approximation and serves an expired read
// first itself ([block] read_expire); with it, the elevator does.
HddSpec hdd_as_built(const HddSpec& drive, const HardwareSpec& hw);

const DiskKind& hdd_disk_kind();

}  // namespace models
