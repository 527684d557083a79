// Checking a user-given output path before any measurement, so that a run
// of minutes does not end in "cannot write" (issue 21, finding 8): the
// folder must exist, be a folder and be writable, and the path itself must
// not be a folder. A special file (FIFO, /dev/stdout) is allowed: the
// project's writer (cli/output.h) writes those directly.
#pragma once
#include <string>

namespace testbed::common {

// "" when `path` can be written, else why not, naming `option`:
// "--json /x/y.json: no folder /x".
std::string output_path_problem(const std::string& path, const std::string& option);

}  // namespace testbed::common
