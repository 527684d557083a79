// Checking a user-given output path before any measurement, so that a run
// of minutes does not end in "cannot write" (issue 21, finding 8). The rules
// are those of the project's one writer, common::check_output_path
// (common/output_file.h): the folder must exist and be writable; a folder, a link to
// a regular file or a dangling link is refused; a special file (FIFO,
// /dev/stdout onto a pipe) is allowed and written directly.
#pragma once
#include <string>

namespace common {

// "" when `path` can be written, else why not, naming `option`:
// "--json /x/y.json: no folder '/x'".
std::string output_path_problem(const std::string& path, const std::string& option);

}  // namespace common
