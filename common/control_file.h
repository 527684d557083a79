// Writing a kernel control file (cgroup.procs, memory.max,
// /proc/sys/vm/drop_caches): one write() of the value to the file as it is.
// Not common::write_file_atomically: these files cannot be replaced by a
// rename, and the kernel acts on each write as it comes.
#pragma once
#include <string>
#include <string_view>

namespace common {

// "" on success, else why not, naming the path and the value:
// "cannot write '+memory' to /sys/fs/cgroup/cgroup.subtree_control: Permission denied".
std::string write_control_file(const std::string& path, std::string_view value);

}  // namespace common
