// sendfile() from a regular file to a non-blocking TCP socket, as Linux does
// it: through a pipe, one pipe's worth (64 KiB) at a time, each piece read
// from the page cache (with readahead) and pushed into the socket's send
// buffer, until the requested count is sent, the file ends or the buffer is
// full. A piece that is not cached makes the caller wait for the disk: the
// socket's O_NONBLOCK does not apply to the file.
#pragma once
#include <cstdint>

#include "models/os/host.h"

namespace models {

struct SendfileCall {
  std::uint32_t file = 0;
  std::uint32_t flow = 0;
  std::uint64_t position = 0;  // file offset
  std::uint64_t limit = 0;     // bytes to send in this call
  std::uint64_t sent = 0;
  ReadaheadState* ra = nullptr;
  bool waiting = false;        // blocked on the unit at `position`
};

// Runs the call until it finishes (true) or must wait for a page (false; the
// waiter is called with `tag`, then call sendfile_run again).
bool sendfile_run(Host& host, SendfileCall& call, PageWaiter* waiter, std::uint64_t tag);

}  // namespace models
