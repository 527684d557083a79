// clerk-serve --aio io_uring: a ring per worker (liburing, io_uring_setup),
// which reads file chunks into a connection's buffer. The kernel tries each
// read inline without blocking (IOCB_NOWAIT); one that would block waits on
// the page's wait queue (Linux 5.9+, async buffered reads) or runs in the
// ring's io-wq workers. Completions reach the worker's Asio loop through an
// eventfd registered with the ring (io_uring_register_eventfd), so the loop
// never waits in io_uring_enter.
//
// A read's buffer and the connection that owns it stay alive until its CQE:
// the callback holds them. The destructor tears the ring down first
// (io_uring_queue_exit cancels and waits for what is in flight), then drops
// the callbacks.
#pragma once

#include <liburing.h>
#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>

namespace clerk::serve {

class Ring {
 public:
  // Reads complete with the byte count or -errno.
  using Done = std::function<void(int result)>;

  // entries: io_uring_setup()'s SQ size; max_workers: io-wq's bounded
  // workers (IORING_REGISTER_IOWQ_MAX_WORKERS, 0: the kernel's default).
  // Throws std::system_error when the kernel refuses the ring.
  Ring(boost::asio::io_context& io, unsigned entries, unsigned max_workers);
  ~Ring();
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  // Queues and submits an IORING_OP_READ; false (and `done` not kept) when the
  // SQ stays full or the submission fails.
  bool read(int fd, char* buffer, std::size_t length, off_t offset, Done done);
  std::size_t in_flight() const { return pending_.size(); }

 private:
  void wait_completions();
  void reap();
  void submit_queued();

  io_uring ring_{};
  int event_fd_ = -1;
  boost::asio::posix::stream_descriptor events_;
  std::unordered_map<std::uint64_t, Done> pending_;
  std::uint64_t next_id_ = 1;
  bool stopped_ = false;
};

}  // namespace clerk::serve
