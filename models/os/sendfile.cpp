#include "models/os/sendfile.h"

#include <algorithm>

namespace models {

bool sendfile_run(Host& host, SendfileCall& call, PageWaiter* waiter, std::uint64_t tag) {
  PageCache& cache = host.cache;
  const std::uint64_t size = cache.file_size(call.file);
  const std::uint64_t unit_bytes = cache.unit_bytes();
  while (call.sent < call.limit && call.position < size) {
    const double space = host.kernel.tcp_wmem_max - host.nic.backlog(call.flow);
    if (space < 1.0) break;  // the send buffer is full: return what was sent
    const std::uint64_t unit = call.position / unit_bytes;
    if (call.waiting) {
      call.waiting = false;
      cache.access_after_wait(call.file, unit);
    } else {
      const std::uint64_t want = std::min(call.limit - call.sent, host.kernel.pipe_bytes);
      const std::uint64_t request_units = std::max<std::uint64_t>(1, (want + unit_bytes - 1) / unit_bytes);
      if (cache.read(call.file, unit, request_units, *call.ra, waiter, tag) == PageCache::Result::kWait) {
        call.waiting = true;
        host.nic.flush();
        return false;
      }
    }
    const std::uint64_t unit_end = std::min(size, (unit + 1) * unit_bytes);
    const std::uint64_t bytes = std::min({unit_end - call.position, call.limit - call.sent,
                                          static_cast<std::uint64_t>(space)});
    // The pieces of one call reach the NIC's share together (the same result
    // as one send() each, computed once).
    host.nic.send_deferred(call.flow, static_cast<double>(bytes));
    call.position += bytes;
    call.sent += bytes;
  }
  host.nic.flush();
  return true;
}

}  // namespace models
