// Reading /proc and /sys through one method, so that the parsers built on it
// (realrun's wait sampler, calibrate's kernel facts) can be tested on a
// hand-made tree in a temporary directory instead of this machine's.
#pragma once
#include <memory>
#include <string>

namespace common {

class ProcFiles {
 public:
  virtual ~ProcFiles() = default;
  // The bytes of the file at `path` ("/proc/1/stat"), "" if it cannot be
  // read. A path ending in '/' names a directory: its entries' names, sorted,
  // one a line ("" if it cannot be listed).
  virtual std::string read(const std::string& path) const = 0;
};

// The files under `root` ("" for this machine: "/proc/1/stat" is read as is;
// "/tmp/fake" reads "/tmp/fake/proc/1/stat"). One open() and read() loop
// a file, no iostream: the wait sampler reads hundreds a second.
std::unique_ptr<ProcFiles> files_under(const std::string& root);

}  // namespace common
