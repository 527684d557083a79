#include "models/os/direct_io.h"

#include <algorithm>

namespace models {

AlignedExtent align_out(std::uint64_t offset, std::uint64_t length, std::uint64_t alignment) {
  const std::uint64_t mask = alignment - 1;
  const std::uint64_t start = offset & ~mask;
  const std::uint64_t end = (offset + length + mask) & ~mask;
  return AlignedExtent{start, end - start};
}

namespace {

constexpr std::uint64_t kPage = 4096;

// One send_chain() call: what the buffers hold goes to the socket, as far as
// it takes it and at most `chunk`; a write of `chunk` less two pages or more
// delays the next (ngx_http_write_filter).
void write_pending(Host& host, DirectReadCall& call) {
  if (call.delayed) return;
  const double space = host.kernel.tcp_wmem_max - host.sockets.backlog(call.flow);
  const std::uint64_t room = space < 1.0 ? 0 : static_cast<std::uint64_t>(space);
  std::uint64_t bytes = std::min(*call.pending, room);
  if (call.chunk) bytes = std::min(bytes, call.chunk);
  if (bytes == 0) return;
  host.sockets.send_deferred(call.flow, static_cast<double>(bytes));
  *call.pending -= bytes;
  call.position += bytes;
  call.sent += bytes;
  if (call.chunk && bytes + 2 * kPage >= call.chunk) call.delayed = true;
}

// Buffers holding data not yet in the socket.
std::uint64_t busy_buffers(const DirectReadCall& call) {
  return (*call.pending + call.buffer_bytes - 1) / call.buffer_bytes;
}

// The tail (less than a buffer) with O_DIRECT off: a buffered read of its
// page cache units, one after another. false: waiting for `tail_unit`.
bool read_tail(Host& host, DirectReadCall& call, std::uint64_t from, PageWaiter* waiter, std::uint64_t tag) {
  PageCache& cache = host.cache;
  const std::uint64_t unit_bytes = cache.unit_bytes();
  const std::uint64_t last = (from + call.reading - 1) / unit_bytes;
  std::uint64_t unit = from / unit_bytes;
  if (call.waiting) {
    call.waiting = false;
    cache.access_after_wait(call.file, call.tail_unit);
    unit = call.tail_unit + 1;
  }
  for (; unit <= last; ++unit) {
    if (cache.read(call.file, unit, last - unit + 1, *call.ra, waiter, tag) == PageCache::Result::kWait) {
      call.tail_unit = unit;
      call.waiting = true;
      return false;
    }
  }
  return true;
}

// The read under way (`reading` bytes after what the buffers hold): true
// when it is done.
bool read_piece(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag) {
  const std::uint64_t from = call.position + *call.pending;
  if (call.tail) return read_tail(host, call, from, waiter, tag);
  if (call.waiting) {
    call.waiting = false;
    return true;
  }
  // ngx_read_file() (pread) with O_DIRECT: the device reads the aligned extent.
  const AlignedExtent e = align_out(from, call.reading, call.alignment);
  call.waiting = true;
  host.cache.read_direct(call.file, e.offset, e.length, waiter, tag);
  return false;
}

DirectPass run_pass(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag) {
  const std::uint64_t size = host.cache.file_size(call.file);
  for (;;) {
    if (call.reading) {
      if (!call.waiting && !call.read_here_once && (call.tail ? call.offload_tail : call.offload_direct))
        return DirectPass::kOffload;
      if (!read_piece(host, call, waiter, tag)) return DirectPass::kWait;
      call.read_here_once = false;
      *call.pending += call.reading;
      call.reading = 0;
      ++call.reads;
    }
    write_pending(host, call);
    const std::uint64_t read_to = call.position + *call.pending;
    if (read_to >= size) return DirectPass::kDone;
    // The socket did not take it all (or the writes are delayed): one more
    // buffer is read while fewer than `buffers` hold data, then the pass ends.
    if (*call.pending > 0 && busy_buffers(call) >= call.buffers) return DirectPass::kDone;
    call.reading = std::min(call.buffer_bytes, size - read_to);
    call.tail = call.reading < call.buffer_bytes && read_to % call.alignment == 0;
  }
}

}  // namespace

DirectPass direct_read_run(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag) {
  const DirectPass r = run_pass(host, call, waiter, tag);
  host.sockets.flush();
  return r;
}

bool direct_read_piece(Host& host, DirectReadCall& call, PageWaiter* waiter, std::uint64_t tag) {
  return read_piece(host, call, waiter, tag);
}

}  // namespace models
