// What a worker hands to its thread pool, and what a pool reports.
#pragma once
#include <cstdint>

#include "models/os/direct_io.h"
#include "models/os/sendfile.h"

namespace models {

// One task: a sendfile() call of one chunk, one read of one output buffer
// of a directio file (ngx_thread_read: `direct_read` holds the pass that
// stopped before it, direct_io.h), or (with aio_open) the open() of a file:
// its path walk.
struct PoolTask {
  std::uint32_t conn = 0;
  std::uint64_t limit = 0;  // sendfile_max_chunk, or the rest of the file
  SendfileCall call;
  bool direct = false;  // directio: the read `direct_read` stopped before is the task, not `call`
  DirectReadCall direct_read;
  bool open = false;
  std::uint32_t levels = 0;
  // When a thread finished it (the native engine): a worker with several
  // pools takes their done tasks in this order, as NGINX's one done list
  // (ngx_thread_pool_done, shared by every pool of the process) holds them.
  std::int64_t done_at = 0;
  std::uint64_t keys[8] = {};
};

struct PoolStats {
  std::uint64_t tasks = 0;
  std::uint64_t overflows = 0;
  std::uint64_t max_waiting = 0;
  double waiting_integral = 0;
  double busy_integral = 0;  // threads running a task x seconds
};

}  // namespace models
