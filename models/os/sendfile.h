// sendfile() from a regular file to a non-blocking TCP socket, as Linux does
// it: through a pipe, one pipe's worth (64 KiB) at a time, each piece read
// from the page cache (with readahead) and pushed into the socket's send
// buffer, until the requested count is sent, the file ends or the buffer is
// full. A piece that is not cached makes the caller wait for the disk: the
// socket's O_NONBLOCK does not apply to the file.
#pragma once
#include <algorithm>
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
  std::uint64_t filled = 0;    // bytes its reads sent to the disk (readahead included): sendfile_run counts them
  // FreeBSD's sendfile(SF_NODISKIO): a page not resident ends the call
  // (EBUSY, `busy`) instead of a read the caller would wait for.
  bool nodiskio = false;
  bool busy = false;
};

// With a kernel scheduler the reader's part of filling the page cache runs
// in the task whose read() or sendfile() starts the read:
// page_cache_ra_unbounded() allocates the pages and charges them to the
// memory cgroup (filemap_add_folio() -> mem_cgroup_charge()), which reclaims
// in that task when the cgroup is at its limit (try_charge() ->
// try_to_free_mem_cgroup_pages()), and the block request is built and the
// virtio queue kicked in it too. That part (cpu.cache_fill_reader_byte; all
// of cache_fill_byte when the profile does not split it) is charged in the
// same burst as its sendfile_byte; the rest is the completion's, on the
// CPU that takes it (kernel_work.h). Processor sharing keeps the whole a
// job of its own (kernel_work.h).
inline double reader_fill_s(const Host& host, const SendfileCall& call) {
  return host.cpu.bursts_overlap() ? 0.0 : reader_fill_byte(host.costs) * static_cast<double>(call.filled);
}

// The steps of one sendfile() call, the same in both engines, which differ
// only in how the socket takes the bytes: `backlog(flow)` is what the socket
// holds, `push(flow, bytes)` queues a piece. Runs until the call finishes
// (true) or a piece is not cached (false: `waiter` is called with `tag` when
// it is, and the call is run again from where it stopped).
template <class Backlog, class Push>
bool sendfile_pieces(PageCache& cache, const KernelSpec& kernel, SendfileCall& call, PageWaiter* waiter,
                     std::uint64_t tag, Backlog&& backlog, Push&& push) {
  const std::uint64_t size = cache.file_size(call.file);
  const std::uint64_t unit_bytes = cache.unit_bytes();
  while (call.sent < call.limit && call.position < size) {
    const double space = kernel.tcp_wmem_max - backlog(call.flow);
    if (space < 1.0) break;  // the send buffer is full: return what was sent
    const std::uint64_t unit = call.position / unit_bytes;
    if (call.waiting) {
      call.waiting = false;
      cache.access_after_wait(call.file, unit);
    } else {
      if (call.nodiskio && !cache.cached(call.file, unit)) {
        call.busy = true;
        break;
      }
      const std::uint64_t want = std::min(call.limit - call.sent, kernel.pipe_bytes);
      const std::uint64_t request_units = std::max<std::uint64_t>(1, (want + unit_bytes - 1) / unit_bytes);
      if (cache.read(call.file, unit, request_units, *call.ra, waiter, tag) == PageCache::Result::kWait) {
        call.waiting = true;
        return false;
      }
    }
    const std::uint64_t unit_end = std::min(size, (unit + 1) * unit_bytes);
    const std::uint64_t bytes = std::min({unit_end - call.position, call.limit - call.sent,
                                          static_cast<std::uint64_t>(space)});
    push(call.flow, static_cast<double>(bytes));
    call.position += bytes;
    call.sent += bytes;
  }
  return true;
}

// sendfile_pieces on the native NIC. Runs the call until it finishes (true) or must wait for a page (false; the
// waiter is called with `tag`, then call sendfile_run again).
bool sendfile_run(Host& host, SendfileCall& call, PageWaiter* waiter, std::uint64_t tag);

// Marks the CPU burst of `seconds` that a sendfile() call of `sent` bytes
// costs as kernel work for the preemption model (cpu_scheduler.h): the call
// runs in kernel mode from entry to return. Its preemption points: 6.x's
// splice_direct_to_actor() loops once per pipe fill, and each loop's
// filemap_splice_read() begins with cond_resched(), so one point every
// pipe_bytes (3.13's generic_file_splice_read() has none; its per-page
// lock_sock() in tcp_sendpage() has might_sleep(), acted on only under
// PREEMPT_VOLUNTARY). The CPU time is taken as spread evenly over the bytes
// (it is per byte but for the fixed parts of a pool task or an io_uring
// read), so a point every seconds x pipe_bytes / sent. Nothing marked for
// an empty call.
inline void mark_sendfile_burst(Host& host, std::uint32_t thread, double seconds, std::uint64_t sent) {
  if (seconds <= 0 || sent == 0) return;
  const double point_s =
      sent > host.kernel.pipe_bytes ? seconds * static_cast<double>(host.kernel.pipe_bytes) / static_cast<double>(sent)
                                    : 0.0;
  host.cpu.next_burst_in_kernel(thread, point_s);
}

}  // namespace models
