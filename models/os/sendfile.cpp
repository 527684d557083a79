#include "models/os/sendfile.h"

namespace models {

bool sendfile_run(Host& host, SendfileCall& call, PageWaiter* waiter, std::uint64_t tag) {
  // The pieces of one call reach the NIC's share together (the same result
  // as one send() each, computed once, by the flush).
  const std::uint64_t submitted = host.cache.submitted_bytes();
  const bool done = sendfile_pieces(
      host.cache, host.kernel, call, waiter, tag, [&host](std::uint32_t flow) { return host.sockets.backlog(flow); },
      [&host](std::uint32_t flow, double bytes) { host.sockets.send_deferred(flow, bytes); });
  host.sockets.flush();
  call.filled += host.cache.submitted_bytes() - submitted;
  return done;
}

}  // namespace models
