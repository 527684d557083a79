// What follows a sendfile() chunk (after_chunk in response_steps.h decides),
// carried out the same way on both engines: the response is done, or the
// 1 ms timer of sendfile_max_chunk is set (1.21.4+: the write is posted to
// the loop's next turn), or the worker waits for EPOLLOUT.
// A template over the engine's NIC and worker: no virtual call.
#pragma once
#include <cstdint>

#include "models/os/host.h"
#include "models/server/connection_table.h"
#include "models/server/response_steps.h"

namespace models {

// `w`: the engine's worker that sent the chunk (it needs add_timer); `nic`:
// the engine's NIC the table runs on.
template <class NicT, class W>
void carry_out(AfterChunk next, std::uint32_t id, std::uint64_t sent, ConnectionTable<NicT>& conns, NicT& nic, W& w,
               const KernelSpec& kernel) {
  switch (next) {
    case AfterChunk::kNothing:
      return;
    case AfterChunk::kResponseDone:
      conns.response_done(id);
      return;
    case AfterChunk::kTimer:
      conns.chunk_sent(id, sent);
      w.add_timer(id, conns[id].timer_generation);
      return;
    case AfterChunk::kPostedNext:
      conns.chunk_sent(id, sent);
      w.post_next(id, conns[id].timer_generation);
      return;
    case AfterChunk::kWaitWritable:
      conns.chunk_sent(id, sent);
      nic.notify_below(conns[id].flow, writable_below(kernel));
      return;
  }
}

}  // namespace models
