// The disk kind "ssd": one solid-state drive (models/hardware/ssd.h), and
// the parts of its row that the arrays built of such drives (md.h) share.
#pragma once
#include <string>
#include <vector>

#include "models/hardware/ssd_drive.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/key_reference.h"

namespace models {

// The drive's datasheet keys, in [disk] or in an array's [disk.member].
SsdSpec read_ssd(Section& s);
std::vector<KeyDoc> ssd_docs(const char* table, const char* when);
// The datasheet keys a probe scenario gives (key_reference.cpp).
std::string ssd_probe_keys();

const DiskKind& ssd_disk_kind();

}  // namespace models
