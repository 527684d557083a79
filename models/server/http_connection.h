// The server's side of one client connection.
#pragma once
#include <cstdint>

#include "models/os/page_cache.h"

namespace models {

struct HttpConnection {
  enum class Phase : std::uint8_t {
    kUnused,
    kBacklog,        // established, waiting in a listen queue for accept()
    kIdle,           // keep-alive, waiting for the next request
    kQueued,         // a ready event is in its worker's epoll list
    kSending,        // a handler is sending its response
    kDelayed,        // after a full sendfile_max_chunk: the 1 ms timer
    kWaitWritable,   // send buffer full: waiting for EPOLLOUT
    kWaitPool,       // a thread-pool task (or, aio on, an io_submit read) is under way
    kClosed,
  };
  Phase phase = Phase::kUnused;
  std::int32_t worker = -1;
  std::uint32_t flow = 0;
  std::uint32_t group = 0;
  bool request_pending = false;  // a request arrived and is not yet being handled
  std::uint32_t pending_file = 0;
  std::uint32_t file = 0;
  std::uint64_t position = 0;    // file bytes handed to the socket
  std::uint64_t timer_generation = 0;
  std::uint32_t served = 0;      // responses on this connection (keepalive_requests)
  double blocked_s = 0;          // this request's events' waits while their loop was in D state
  std::int64_t arrived_at = 0;   // when the request reached the server (ns)
  std::int64_t started_at = 0;   // when a worker began reading it: $request_time's start (ns)
  ReadaheadState ra;
  // directio: bytes read into output_buffers, not yet in the socket (direct_io.h).
  std::uint64_t direct_pending = 0;
  // aio on: the bytes of the O_DIRECT read io_submit has in flight (native_aio.h).
  std::uint64_t direct_reading = 0;
  // os = "freebsd": sendfile(SF_NODISKIO) calls in a row that said EBUSY
  // and sent nothing (ngx_connection_t's busy_count).
  std::uint8_t busy_count = 0;
};

}  // namespace models
