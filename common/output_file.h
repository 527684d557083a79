// Writing result files, the one way every command does it (run, validate,
// compare, sweep, plot, calibrate, realrun, clerk-ui's exports). In common/,
// beneath every front end (cli/, ui/, testbed/): it knows nothing of clerk.
//
// A regular file (or a name that does not exist yet) is written to an
// exclusive temporary file in the same folder (mkstemp: an unpredictable
// name, created with O_EXCL, so nothing planted beforehand is followed),
// flushed with fsync, renamed over the target and the folder fsync'd: a
// reader sees the old file or the whole new one, never half of it, and a
// crash leaves no half-written result under the target's name.
//
// A special file (a FIFO, a character device such as /dev/null or a
// terminal) is written directly, never replaced; a socket is refused. A symbolic link
// is followed only when it leads to such a special file (so /dev/stdout
// works); a link to a regular file, a folder, nothing or a loop is refused:
// replacing it would break the link, and writing through it would write
// somewhere other than the folder the user named (the planted-symlink
// attack). A folder, a block device or a missing parent folder is refused.
#pragma once
#include "common/bad_input.h"
#include <stdexcept>
#include <string>
#include <string_view>

namespace common {

// "cannot write 'PATH': REASON"; reason() is REASON alone ("is a folder",
// "no folder 'x'"), for callers that name the option themselves.
class OutputError : public BadInput {
 public:
  OutputError(const std::string& path, const std::string& reason)
      : BadInput("cannot write '" + path + "': " + reason), reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// The one way to write a file (the contract above: a temporary file in the
// same folder, fsync, rename, fsync of the folder; nothing half-written
// under the target's name). Throws OutputError naming the path and the
// reason; common::guarded turns it into "clerk: cannot write ..." and exit 2.
void write_file_atomically(const std::string& path, std::string_view content);

// Checks, before any work is done, that `path` could be written as above
// (its folder exists and is writable, it is not a folder or a link to a
// regular file). Throws OutputError. Commands call it on every output path
// before they measure or simulate anything.
void check_output_path(const std::string& path);

}  // namespace common
