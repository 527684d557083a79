// Whether a scenario's data set fits its disk, told before any layout is
// built: the loader asks it of the files the scenario names (naming
// dataset.files), and the run asks it again of the data set an access log
// made (world.cpp, with_traces, naming the group's trace key), whose files
// the loader cannot count.
#pragma once
#include <string>

#include "models/scenario/scenario.h"

namespace models {

// "" when the data set fits; else why not, in words for an error message:
// the inodes ext4 has on the disk (one per file and directory), the page
// cache when the disk keeps nothing (disk.type = "none"), the device's
// bytes for the least the files can take (ext4 placement: sizes are drawn
// later, and the run checks those) or for a slot of the largest file each
// (spread placement).
std::string dataset_misfit(const Scenario& sc);

}  // namespace models
