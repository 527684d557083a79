// Opens a file under the root, never anything outside it: no "..", no
// symbolic link in any component, only regular files. The answer is an open
// fd and its size, or the HTTP status to send instead.
#pragma once

#include <sys/types.h>

#include <string>

#include "unique_fd.h"

namespace clerk::serve {

struct ResolvedFile {
  int status = 500;  // 200, 403, 404 or 500
  UniqueFd fd;
  off_t size = 0;
  dev_t dev = 0;  // the file's identity, for a cached entry's retest (ngx_file_uniq)
  ino_t ino = 0;
};

// root_fd: an O_PATH directory fd of --root. relative: from
// target_to_relative_path (no "..", no empty segments). This is the call
// that may block on disk (open + fstat of an uncached inode): --aio-open on
// runs it in the thread pool. force_fallback: use the per-component walk even
// when openat2 exists (for tests).
ResolvedFile resolve_file(int root_fd, const std::string& relative, bool force_fallback = false);

}  // namespace clerk::serve
