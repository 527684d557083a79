// The special files clerk writes directly rather than replacing (a FIFO, a
// character device such as /dev/null, /dev/full or a terminal), and how they
// are opened: shared by the writer (common/output_file.h) and the sweep's
// row appender (cli/sweep/sweep_files.h), which both write through a
// symbolic link only when it leads to such a file.
#pragma once
#include <string>
#include <sys/types.h>

namespace common {

// A FIFO or a character device. (A socket cannot be opened at all: it is
// refused up front, not after the run.)
bool is_special(mode_t mode);

// Opens `path` for writing with O_WRONLY | O_NOCTTY | O_CLOEXEC and
// `extra_flags` (O_APPEND for the appender), as it is: never created,
// truncated or replaced (a FIFO waits for its reader; an interrupted open is
// tried again). What was opened must still be special: a link swapped for a
// regular file in between is refused. Returns the descriptor; throws
// OutputError naming the path ("open: REASON", "it changed while being opened").
int open_special(const std::string& path, int extra_flags = 0);  // in output_file.cpp, beside the writer

}  // namespace common
