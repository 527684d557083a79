// One worker's Linux native AIO context, as NGINX uses it with `aio on`
// (NGINX built --with-file-aio).
//
// ngx_epoll_module.c's ngx_epoll_aio_init: each worker calls
// io_setup(worker_aio_requests) (events { worker_aio_requests N; },
// default 32) and registers an eventfd with epoll; ngx_file_aio_read
// (src/os/unix/ngx_linux_aio_read.c) submits one IOCB_CMD_PREAD with
// IOCB_FLAG_RESFD for a buffer of a directio file and returns NGX_AGAIN: the
// worker goes on with other events. The read goes from the device to the
// buffer (O_DIRECT: no page cache). Its completion increments the eventfd;
// ngx_epoll_eventfd_handler reads it, io_getevents() the done events and
// posts each one's handler (ngx_file_aio_event_handler ->
// ngx_http_copy_aio_event_handler), which runs the request's writer again.
//
// When io_submit fails with EAGAIN (nginx.org's worker_aio_requests: "the
// maximum number of outstanding asynchronous I/O operations for a single
// worker process"), ngx_file_aio_read falls back to ngx_read_file(): a
// pread() on the O_DIRECT descriptor, which blocks the worker until the
// device is done (submit() returns false; the worker reads itself).
//
// Left out: the kernel's own rounding of the context (fs/aio.c's
// ioctx_alloc sizes the ring for max(nr, 4 x CPUs) x 2 events, so io_submit
// may take more than worker_aio_requests before EAGAIN): the limit here is
// the directive's documented one. io_submit sleeping for a block request
// slot is not the worker's D state here (the read is submitted for no task).
#pragma once
#include <cstdint>

#include "models/os/direct_io.h"
#include "models/os/page_cache.h"

namespace models {

// Told of each read done (the eventfd's completion), with its tag.
class AioOwner {
 public:
  virtual void on_aio_done(std::uint32_t conn) = 0;

 protected:
  ~AioOwner() = default;
};

struct NativeAioStats {
  std::uint64_t submitted = 0;  // reads io_submit took
  std::uint64_t eagain = 0;     // reads refused (EAGAIN): read by the worker, blocking
  std::uint32_t max_in_flight = 0;
};

class NativeAio final : public PageWaiter {
 public:
  NativeAio(PageCache& cache, std::uint32_t requests, AioOwner& owner) : cache_(cache), requests_(requests), owner_(owner) {}

  // io_submit of the O_DIRECT read a directio pass stopped before
  // (DirectPass::kOffload), for connection `conn`: false when the context
  // is full (EAGAIN).
  bool submit(const DirectReadCall& call, std::uint32_t conn);
  std::uint32_t in_flight() const { return in_flight_; }
  const NativeAioStats& stats() const { return stats_; }

  void on_page_ready(std::uint64_t tag) override;

 private:
  PageCache& cache_;
  std::uint32_t requests_;
  AioOwner& owner_;
  std::uint32_t in_flight_ = 0;
  NativeAioStats stats_;
};

}  // namespace models
