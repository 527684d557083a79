#include "models/server/response_steps.h"

#include <algorithm>

#include "models/server/aio_modes.h"

namespace models {

namespace {
constexpr std::uint64_t kPage = 4096;
}

void begin_request(HttpConnection& c, ServerStats& stats) {
  ++stats.requests;
  c.request_pending = false;
  c.file = c.pending_file;
  c.position = 0;
  c.ra = ReadaheadState{};
  c.direct_pending = 0;
  c.direct_reading = 0;
  c.busy_count = 0;
  c.phase = HttpConnection::Phase::kSending;
}

DirectReadCall direct_call(const NginxConfig& config, HttpConnection& c) {
  DirectReadCall call;
  call.file = c.file;
  call.flow = c.flow;
  call.position = c.position;
  call.chunk = config.sendfile_max_chunk;
  call.pending = &c.direct_pending;
  call.ra = &c.ra;
  call.buffer_bytes = config.output_buffers_size;
  call.buffers = config.output_buffers_number;
  call.alignment = config.directio_alignment;
  // aio threads: every read is a pool task (ngx_thread_read), the tail's
  // too; aio on: the O_DIRECT reads are io_submit's (ngx_file_aio_read),
  // the tail is read in blocking mode (nginx.org's aio: "File's unaligned
  // end is read in blocking mode").
  call.offload_direct = config.aio->thread_pool || config.aio->native_aio;
  call.offload_tail = config.aio->thread_pool;
  return call;
}

std::uint64_t direct_limit(const NginxConfig& config, const DirectReadCall& call) {
  return call.delayed ? config.sendfile_max_chunk : 0;
}

std::uint64_t chunk_limit(const NginxConfig& config, std::uint64_t file_size, const HttpConnection& c) {
  const std::uint64_t left = file_size - c.position;
  return config.sendfile_max_chunk ? std::min(config.sendfile_max_chunk, left) : left;
}

AfterChunk after_chunk(const NginxConfig& config, std::uint64_t file_size, HttpConnection& c, ServerStats& stats,
                       std::uint64_t sent, std::uint64_t limit) {
  if (c.phase == HttpConnection::Phase::kClosed) return AfterChunk::kNothing;
  if (c.position >= file_size) {
    // The whole response is in the socket: the request is finished here, and
    // the connection waits for the next one (keep-alive).
    ++stats.responses;
    if (c.blocked_s > 0) ++stats.responses_delayed;
    stats.blocked_wait_s += c.blocked_s;
    // keepalive_requests: after that many responses NGINX closes the
    // connection (lingering until the response has left).
    const bool close = config.keepalive_requests && ++c.served >= config.keepalive_requests;
    c.phase = close ? HttpConnection::Phase::kClosed : HttpConnection::Phase::kIdle;
    return AfterChunk::kResponseDone;
  }
  // ngx_http_write_filter: a chunk that reached sendfile_max_chunk (less two
  // pages) defers the next write, by a 1 ms timer or (1.21.4+) to the loop's
  // next turn; a short one means the socket was full, so wait until it is
  // writable.
  if (config.sendfile_max_chunk && limit == config.sendfile_max_chunk && sent + 2 * kPage >= limit) {
    c.phase = HttpConnection::Phase::kDelayed;
    ++c.timer_generation;
    return config.write_posted_next ? AfterChunk::kPostedNext : AfterChunk::kTimer;
  }
  c.phase = HttpConnection::Phase::kWaitWritable;
  return AfterChunk::kWaitWritable;
}

}  // namespace models
