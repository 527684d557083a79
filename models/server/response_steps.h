// NGINX's decisions along one response (ngx_http_request.c,
// ngx_http_write_filter_module.c), the same in both engines, which differ
// only in how the time between them passes: taking a request, how much the
// next sendfile() may send, and what follows a sendfile() chunk.
#pragma once
#include <cstdint>

#include "models/os/direct_io.h"
#include "models/os/host.h"
#include "models/server/http_connection.h"
#include "models/server/server_stats.h"
#include "models/server/nginx_config.h"

namespace models {

// A request was read: the connection takes the file it asks for, from its
// start, through a fresh struct file (a new open() has its own readahead).
void begin_request(HttpConnection& c, ServerStats& stats);

// directio: a file of at least `directio` bytes is opened with O_DIRECT
// (ngx_open_and_stat_file: of->directio <= ngx_file_size -> ngx_directio_on)
// and read through output_buffers instead of sent with sendfile().
inline bool reads_direct(const NginxConfig& config, std::uint64_t file_size) {
  return config.directio != 0 && file_size >= config.directio;
}
// The next pass of ngx_output_chain over such a file; each write at most
// sendfile_max_chunk (direct_io.h), the reads offloaded as the aio mode says.
DirectReadCall direct_call(const NginxConfig& config, HttpConnection& c);
// The `limit` after_chunk is given for a pass that ended (kDone): the chunk
// when a write was delayed by it, else 0 (no timer: the socket is full).
std::uint64_t direct_limit(const NginxConfig& config, const DirectReadCall& call);

// What the next sendfile() may send: sendfile_max_chunk, or the rest of the file.
std::uint64_t chunk_limit(const NginxConfig& config, std::uint64_t file_size, const HttpConnection& c);

// What follows a chunk of `sent` bytes out of `limit`; the connection's
// phase is set accordingly.
enum class AfterChunk : std::uint8_t {
  kNothing,       // the connection was closed meanwhile
  kResponseDone,  // the whole response is in the socket (phase kIdle, or kClosed
                  // once keepalive_requests responses were served)
  kTimer,         // a full chunk: the next write after a 1 ms timer (phase kDelayed)
  kPostedNext,    // a full chunk, NGINX 1.21.4+: the next write in the loop's next turn (phase kDelayed)
  kWaitWritable,  // a short chunk, the socket is full: wait for EPOLLOUT
};
AfterChunk after_chunk(const NginxConfig& config, std::uint64_t file_size, HttpConnection& c, ServerStats& stats,
                       std::uint64_t sent, std::uint64_t limit);

// Linux reports a TCP socket writable when its free space is at least half
// of what is queued: queued <= 2/3 of the buffer.
inline double writable_below(const KernelSpec& kernel) { return kernel.tcp_wmem_max * 2.0 / 3.0; }

}  // namespace models
