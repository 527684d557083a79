// The text a person reads after `clerk run`: for each client group wrk's
// own report, then the server seen through ifstat and top, then the thread
// pools, the page cache and the disks.
#pragma once
#include <string>

#include "models/scenario/result.h"

namespace models {

std::string text_report(const RunResult& r);

}  // namespace models
