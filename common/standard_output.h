// Standard output at a front end's end (clerk, clerk-ui): the report on it
// flushed, and a report lost said, so that a run whose report went nowhere
// does not pass for one that printed it.
#pragma once
#include <string_view>

namespace common {

// The report on standard output, flushed: a report lost to a full disk
// (/dev/full), a closed stdout or an I/O error is said as `failure` (the
// program's name and what was lost, "clerk: cannot write the report to
// standard output") with the reason after it, and a run that would have
// exited 0 exits 2 instead (it exited 0 with nothing written). Returns the
// status to exit with.
int flush_standard_output(int status, std::string_view failure);

}  // namespace common
