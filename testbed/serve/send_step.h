// One step of sending a response: what is left of the head, then at most one
// sendfile() chunk of the file. Plain system calls on a non-blocking socket,
// safe on any thread: the event loop runs it inline (--aio off) or a pool
// thread runs it (--aio threads), since sendfile() of an uncached file is the
// call that blocks on disk.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string_view>

namespace clerk::serve {

struct StepResult {
  std::size_t head_sent = 0;
  std::size_t file_sent = 0;
  int error = 0;  // 0, EAGAIN (socket full: wait for writability) or fatal
};

// file_fd may be -1 when chunk is 0.
StepResult send_step(int socket_fd, std::string_view head, int file_fd, off_t file_offset, std::size_t chunk);

}  // namespace clerk::serve
