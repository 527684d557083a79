#include "uring.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

namespace clerk::serve {

namespace {

[[noreturn]] void fail(int negative_errno, const char* what) {
  throw std::system_error(-negative_errno, std::generic_category(), what);
}

}  // namespace

Ring::Ring(boost::asio::io_context& io, unsigned entries, unsigned max_workers) : events_(io) {
  if (const int r = io_uring_queue_init(entries, &ring_, 0); r < 0) fail(r, "io_uring_queue_init");
  event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (event_fd_ < 0) {
    const int err = errno;
    io_uring_queue_exit(&ring_);
    fail(-err, "eventfd");
  }
  if (const int r = io_uring_register_eventfd(&ring_, event_fd_); r < 0) {
    ::close(event_fd_);
    io_uring_queue_exit(&ring_);
    fail(r, "io_uring_register_eventfd");
  }
  if (max_workers > 0) {
    // [bounded, unbounded]; 0 leaves a limit as it is. Before Linux 5.15: EINVAL, said and ignored.
    unsigned values[2] = {max_workers, 0};
    if (const int r = io_uring_register_iowq_max_workers(&ring_, values); r < 0)
      std::fprintf(stderr, "clerk-serve: io-wq max workers not set (%s): the kernel's default applies\n", std::strerror(-r));
  }
  events_.assign(event_fd_);
  wait_completions();
}

Ring::~Ring() {
  stopped_ = true;
  boost::system::error_code ignored;
  events_.cancel(ignored);
  // Cancels what is in flight and waits for it: no buffer is written after this.
  io_uring_queue_exit(&ring_);
  events_.close(ignored);  // closes event_fd_
  pending_.clear();
}

bool Ring::read(int fd, char* buffer, std::size_t length, off_t offset, Done done) {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) {
    io_uring_submit(&ring_);  // make room: entries the kernel has not consumed yet
    sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) return false;
  }
  const std::uint64_t id = next_id_++;
  io_uring_prep_read(sqe, fd, buffer, static_cast<unsigned>(length), static_cast<__u64>(offset));
  io_uring_sqe_set_data64(sqe, id);
  pending_.emplace(id, std::move(done));
  submit_queued();
  return true;
}

// io_uring_submit() moves the queue's tail before io_uring_enter(), so an
// entry stays queued whatever io_uring_enter() answers, and its buffer must
// live until its completion (io_uring_enter(2): EAGAIN, out of resources;
// EBUSY, the completion queue full). So a failed submit is retried after
// reaping what has completed, waiting at most 1 ms a try (a ring with
// nothing in flight would never complete anything); after a second of
// tries the entry stays queued for the next submit, its completion still
// awaited: the connection waits, nothing is freed under the kernel.
void Ring::submit_queued() {
  for (int tries = 0; tries < 1000; ++tries) {
    const int rc = io_uring_submit(&ring_);
    if (rc >= 0 || (rc != -EAGAIN && rc != -EBUSY && rc != -EINTR)) return;
    io_uring_cqe* cqe = nullptr;
    __kernel_timespec wait{0, 1'000'000};
    io_uring_wait_cqe_timeout(&ring_, &cqe, &wait);
    reap();
  }
}

void Ring::wait_completions() {
  events_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
    if (ec || stopped_) return;
    std::uint64_t count = 0;
    while (::read(event_fd_, &count, sizeof count) < 0 && errno == EINTR) {
    }
    reap();
    wait_completions();
  });
}

void Ring::reap() {
  io_uring_cqe* cqe = nullptr;
  while (io_uring_peek_cqe(&ring_, &cqe) == 0 && cqe != nullptr) {
    const std::uint64_t id = io_uring_cqe_get_data64(cqe);
    const int result = cqe->res;
    io_uring_cqe_seen(&ring_, cqe);
    auto it = pending_.find(id);
    if (it == pending_.end()) continue;
    Done done = std::move(it->second);
    pending_.erase(it);
    done(result);  // may submit another read
  }
}

}  // namespace clerk::serve
