#include "http_connection.h"

#include <algorithm>
#include <sys/socket.h>
#include <sys/uio.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>

#include "response.h"

namespace clerk::serve {

namespace asio = boost::asio;

// nginx's lingering_timeout: how long a closing connection keeps reading
// (and discarding) what the client still sends, so that the close does not
// turn into a reset that destroys our last response in the client's buffers.
static constexpr int kLingeringTimeoutSeconds = 5;

// nginx's client_header_buffer_size (1k by default): what a connection holds
// for its request head until a head needs more. More comes in doublings up
// to --header-limit (nginx's large_client_header_buffers, allocated in
// ngx_http_alloc_large_header_buffer only when a head outgrows the first),
// so an idle connection costs a kilobyte, not the limit.
static constexpr std::size_t kFirstHeadBuffer = 1024;

HttpConnection::HttpConnection(WorkerContext& context, asio::ip::tcp::socket socket)
    : context_(context),
      socket_(std::move(socket)),
      timer_(context.io),
      buffer_(std::min(kFirstHeadBuffer, context.options.header_limit)),
      slots_(context.slots) {
  slots_->take();
}

// Not through context_: a connection still queued in the loop at the
// worker's end is destroyed with the io_context, after the context.
HttpConnection::~HttpConnection() { give_back_slot(); }

void HttpConnection::give_back_slot() {
  if (!holds_slot_) return;
  holds_slot_ = false;
  slots_->set_reusable(*this, false);
  slots_->give_back();
}

void HttpConnection::start() { read_request(); }

void HttpConnection::read_request() {
  if (closed_) return;
  const std::size_t limit = context_.options.header_limit;
  if (buffered_ > 0 && head_progress_.worth_parsing(buffer_.data(), buffered_, limit)) {
    const RequestHead request = parse_request_head(buffer_.data(), buffered_, limit);
    if (request.state != RequestHead::State::need_more || buffered_ == limit) {
      disarm_timer();
      header_deadline_set_ = false;
    }
    if (request.state == RequestHead::State::complete) {
      // Keep whatever follows (pipelined requests) for the next round.
      buffered_ -= request.consumed;
      std::copy(buffer_.begin() + static_cast<std::ptrdiff_t>(request.consumed),
                buffer_.begin() + static_cast<std::ptrdiff_t>(request.consumed + buffered_), buffer_.begin());
      head_progress_.next_head();
      release_large_head_buffer();
      handle_request(request);
      return;
    }
    if (request.state == RequestHead::State::bad) {
      ++requests_;
      head_only_ = false;
      respond_error(request.error_status, false);
      return;
    }
    if (buffered_ == limit) {
      head_only_ = false;
      respond_error(431, false);
      return;
    }
  }
  if (buffered_ == buffer_.size()) buffer_.resize(std::min(2 * buffer_.size(), limit));
  // Between requests nginx waits keepalive_timeout. Once a request has begun
  // (or on a new connection) the whole head must arrive within
  // client_header_timeout, however it trickles in: the deadline is set once.
  const auto& options = context_.options;
  if (buffered_ == 0 && requests_ > 0) {
    header_deadline_set_ = false;
    arm_timer(options.keepalive_timeout_s);
  } else if (!header_deadline_set_) {
    header_deadline_set_ = true;
    arm_timer(options.client_header_timeout_s);
  }
  // Waiting with nothing buffered (a new connection's first request, or
  // the next one on a kept-alive connection) is what nginx may reuse; a head
  // begun, or pipelined bytes waiting, make the connection busy.
  set_reusable(buffered_ == 0);
  socket_.async_read_some(asio::buffer(buffer_.data() + buffered_, buffer_.size() - buffered_),
                          [self = shared_from_this()](const boost::system::error_code& ec, std::size_t bytes) {
                            self->on_read(ec, bytes);
                          });
}

// Back to the first buffer once a large head is served and what follows it
// fits (nginx frees its large header buffers between keep-alive requests).
void HttpConnection::release_large_head_buffer() {
  const std::size_t first = std::min(kFirstHeadBuffer, context_.options.header_limit);
  if (buffer_.size() <= first || buffered_ > first) return;
  std::vector<char>(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(first)).swap(buffer_);
}

void HttpConnection::on_read(const boost::system::error_code& ec, std::size_t bytes) {
  if (closed_) return;
  set_reusable(false);  // bytes of a request, or the end: busy until it waits again
  // End of stream, a reset or anything else: nothing more to answer.
  if (ec) {
    close();
    return;
  }
  buffered_ += bytes;
  read_request();
}

void HttpConnection::handle_request(const RequestHead& request) {
  ++requests_;
  const auto& options = context_.options;
  keep_alive_ = request.keep_alive && requests_ < options.keepalive_requests && options.keepalive_timeout_s > 0;
  head_only_ = request.head_only;
  if (!request.method_allowed) {
    respond_error(405, keep_alive_);
    return;
  }
  auto relative = target_to_relative_path(request.target);
  if (!relative) {
    respond_error(400, false);
    return;
  }
  open_file(*relative);
}

// Whole seconds of a clock that never steps back: nginx's ngx_time() for the
// open-file cache's valid and inactive.
static std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void HttpConnection::open_file(const std::string& relative) {
  bool counted = false;
  if (context_.open_cache != nullptr) {
    // A hit within open_file_cache_valid: no walk, no open(), no fstat().
    OpenFileCache::Lookup lookup = context_.open_cache->lookup(relative, now_seconds());
    if (lookup.action == OpenFileCache::Action::kHit) {
      file_name_ = relative;
      serve_file(std::move(lookup.hit));
      return;
    }
    counted = lookup.counted;
  }
  pending_path_ = relative;
  if (context_.pool == nullptr || !context_.options.aio_open) {
    resolved_ = resolve_file(context_.root_fd, relative);
    on_file_opened(counted);
    return;
  }
  // --aio-open on: the path walk, open() and fstat() of an uncached inode
  // block on disk; the pool thread does them and the loop never waits.
  in_pool_ = true;
  const bool queued = context_.pool->try_post([self = shared_from_this(), counted] {
    self->resolved_ = resolve_file(self->context_.root_fd, self->pending_path_);
    asio::post(self->context_.io, [self, counted] {
      self->in_pool_ = false;
      self->on_file_opened(counted);
    });
  });
  if (!queued) {
    in_pool_ = false;
    // A refused open has no nginx reference: Cloudflare's aio_open patch is
    // not in nginx 1.22. Nothing is sent yet, so clerk-serve answers 503 and
    // keeps the connection; that is its own choice.
    respond_error(503, keep_alive_);
  }
}

void HttpConnection::on_file_opened(bool counted) {
  ResolvedFile opened = std::move(resolved_);
  // The cache takes the result even when the client has gone: the walk was
  // done, and an entry the lookup counted must be completed.
  OpenOutcome outcome = context_.open_cache != nullptr
                            ? context_.open_cache->complete(pending_path_, std::move(opened), counted, now_seconds())
                            : outcome_of(std::move(opened));
  file_name_ = pending_path_;
  if (closed_) {
    file_ = std::move(outcome.file);
    close();
    return;
  }
  serve_file(std::move(outcome));
}

void HttpConnection::serve_file(OpenOutcome outcome) {
  if (outcome.status != 200) {
    respond_error(outcome.status, outcome.status == 500 ? false : keep_alive_);
    return;
  }
  const auto size = static_cast<std::uint64_t>(outcome.file->size);
  head_ = response_head(200, size, keep_alive_);
  head_sent_ = 0;
  file_offset_ = 0;
  file_left_ = head_only_ ? 0 : static_cast<std::size_t>(size);
  file_ = std::move(outcome.file);  // held until the response ends, even for HEAD: release_file() gives it back
  uring_read_ = uring_sent_ = 0;
  send_next();
}

void HttpConnection::release_file() {
  if (!file_) return;
  if (context_.open_cache != nullptr)
    context_.open_cache->release(file_name_, std::move(file_), now_seconds());
  file_.reset();
}

void HttpConnection::respond_error(int status, bool keep_alive) {
  keep_alive_ = keep_alive;
  head_ = error_response(status, keep_alive, head_only_);
  head_sent_ = 0;
  release_file();
  file_offset_ = 0;
  file_left_ = 0;
  uring_read_ = uring_sent_ = 0;
  send_next();
}

bool HttpConnection::probe_resident(std::size_t& chunk) {
  std::vector<char>& buffer = *context_.probe_buffer;
  chunk = std::min(chunk, buffer.size());  // the probe covers what the loop then sends, no more
  iovec v{buffer.data(), chunk};
  ssize_t n;
  do {
    n = ::preadv2(file_fd(), &v, 1, file_offset_, RWF_NOWAIT);
  } while (n < 0 && errno == EINTR);
  // EAGAIN: the first page is not in the cache; a short read: a later one is
  // not (or the file shrank: sendfile() in the pool says so); EOPNOTSUPP
  // before Linux 4.14: the pool, as --aio threads.
  return n >= 0 && static_cast<std::size_t>(n) == chunk;
}

void HttpConnection::send_next() {
  if (closed_) return;
  if (context_.ring != nullptr) {
    send_next_uring();
    return;
  }
  std::size_t chunk = file_left_;
  const std::size_t max_chunk = context_.options.sendfile_max_chunk;
  if (max_chunk > 0 && chunk > max_chunk) chunk = max_chunk;
  // --aio nowait: a chunk all in the page cache is sent by the loop itself;
  // it can still block if its pages are evicted before sendfile() reads them.
  const bool resident =
      context_.pool != nullptr && context_.probe_buffer != nullptr && chunk > 0 && probe_resident(chunk);
  if (context_.pool == nullptr || chunk == 0 || resident) {
    step_result_ = send_step(socket_.native_handle(), std::string_view(head_).substr(head_sent_), file_fd(),
                             file_offset_, chunk);
    on_step(chunk);
    return;
  }
  // --aio threads: the sendfile() call, which reads the file, runs in the pool.
  in_pool_ = true;
  const bool queued = context_.pool->try_post([self = shared_from_this(), chunk] {
    self->step_result_ = send_step(self->socket_.native_handle(), std::string_view(self->head_).substr(self->head_sent_),
                                   self->file_fd(), self->file_offset_, chunk);
    asio::post(self->context_.io, [self, chunk] {
      self->in_pool_ = false;
      self->on_step(chunk);
    });
  });
  if (queued) return;
  in_pool_ = false;
  send_head_then_close();
}

// nginx 1.22's ngx_linux_sendfile_chain writes the head with writev() before
// it reaches the file buffer and posts the sendfile task; a refused post fails
// the chain (ngx_linux_sendfile_thread returns NGX_ERROR) and
// ngx_http_terminate_request closes the connection: the client gets the head,
// then end of stream, and no error page (wrk counts a read error). Here the
// head rides with the first chunk's task, so what is unsent of it goes out
// now, without blocking and at best effort, before the close. Mid-response
// the head is all sent and only the close is left.
void HttpConnection::send_head_then_close() {
  while (head_sent_ < head_.size()) {
    const ssize_t n =
        ::send(socket_.native_handle(), head_.data() + head_sent_, head_.size() - head_sent_, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EAGAIN, EPIPE, ECONNRESET: the close is all that is left
    head_sent_ += static_cast<std::size_t>(n);
  }
  close();
}

void HttpConnection::send_next_uring() {
  // The head, then whatever of the last read is still unsent, each with a
  // non-blocking send(); a full socket waits for writability.
  while (head_sent_ < head_.size() || uring_sent_ < uring_read_) {
    const bool head = head_sent_ < head_.size();
    const char* data = head ? head_.data() + head_sent_ : uring_buffer_.data() + uring_sent_;
    const std::size_t length = head ? head_.size() - head_sent_ : uring_read_ - uring_sent_;
    const bool more = head ? (file_left_ > 0 || uring_read_ > uring_sent_) : file_left_ > 0;
    const ssize_t n = ::send(socket_.native_handle(), data, length, MSG_NOSIGNAL | MSG_DONTWAIT | (more ? MSG_MORE : 0));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait_writable();
      return;
    }
    if (n <= 0) {
      close();  // EPIPE, ECONNRESET
      return;
    }
    (head ? head_sent_ : uring_sent_) += static_cast<std::size_t>(n);
  }
  if (file_left_ == 0) {
    finish_response();
    return;
  }
  // The next read: a buffer of sendfile_max_chunk (512 KiB when unlimited,
  // 16 MiB at most), no more than what is left.
  const std::size_t max_chunk = context_.options.sendfile_max_chunk;
  const std::size_t buffer = max_chunk > 0 ? std::min(max_chunk, std::size_t{16} << 20) : std::size_t{512} << 10;
  const std::size_t want = std::min(file_left_, buffer);
  if (uring_buffer_.size() < want) uring_buffer_.resize(want);
  in_pool_ = true;
  const bool queued = context_.ring->read(file_fd(), uring_buffer_.data(), want, file_offset_,
                                          [self = shared_from_this()](int result) { self->on_uring_read(result); });
  if (queued) return;
  in_pool_ = false;
  // A full ring (--aio io_uring, never in nginx): 503 while nothing is sent.
  if (head_sent_ == 0 && file_offset_ == 0)
    respond_error(503, keep_alive_);
  else
    close();
}

void HttpConnection::on_uring_read(int result) {
  in_pool_ = false;
  if (closed_) {
    close();
    return;
  }
  if (result <= 0) {
    close();  // -errno, or 0: the file shrank under us
    return;
  }
  const auto n = static_cast<std::size_t>(result);
  uring_read_ = n;
  uring_sent_ = 0;
  file_offset_ += static_cast<off_t>(n);
  file_left_ -= std::min(n, file_left_);
  // Sent from the loop's next turn, as a whole sendfile_max_chunk is.
  asio::post(context_.io, [self = shared_from_this()] { self->send_next(); });
}

void HttpConnection::on_step(std::size_t chunk) {
  if (closed_) {
    close();
    return;
  }
  const StepResult result = step_result_;
  head_sent_ += result.head_sent;
  file_offset_ += static_cast<off_t>(result.file_sent);
  file_left_ -= result.file_sent;
  if (result.error != 0 && result.error != EAGAIN) {
    close();  // EPIPE, ECONNRESET, a file that shrank
    return;
  }
  if (head_sent_ == head_.size() && file_left_ == 0) {
    finish_response();
    return;
  }
  if (result.error == EAGAIN || result.file_sent < chunk) {
    wait_writable();
    return;
  }
  // A whole sendfile_max_chunk went out: back to the loop before the next
  // one, so that the worker's other connections get their turn.
  asio::post(context_.io, [self = shared_from_this()] { self->send_next(); });
}

void HttpConnection::wait_writable() {
  arm_timer(context_.options.send_timeout_s);
  socket_.async_wait(asio::ip::tcp::socket::wait_write, [self = shared_from_this()](const boost::system::error_code& ec) {
    if (self->closed_) return;
    self->disarm_timer();
    if (ec) {
      self->close();
      return;
    }
    self->send_next();
  });
}

void HttpConnection::finish_response() {
  release_file();
  head_.clear();
  if (!keep_alive_) {
    linger_close();
    return;
  }
  // Through the loop: a client pipelining many requests must not keep the
  // worker to itself.
  asio::post(context_.io, [self = shared_from_this()] { self->read_request(); });
}

void HttpConnection::linger_close() {
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  if (ignored) {
    close();
    return;
  }
  buffered_ = 0;
  head_progress_.next_head();
  arm_timer(kLingeringTimeoutSeconds);
  // nginx's ngx_http_set_lingering_close makes the connection reusable: a
  // drain may end its lingering early.
  set_reusable(true);
  struct Discard {
    std::shared_ptr<HttpConnection> self;
    void operator()(const boost::system::error_code& ec, std::size_t) const {
      if (self->closed_) return;
      if (ec) {
        self->close();
        return;
      }
      self->socket_.async_read_some(asio::buffer(self->buffer_), *this);
    }
  };
  socket_.async_read_some(asio::buffer(buffer_), Discard{shared_from_this()});
}

void HttpConnection::close() {
  closed_ = true;
  set_reusable(false);
  disarm_timer();
  // A pool task may still be using the fds: its completion calls close() again.
  if (in_pool_) return;
  boost::system::error_code ignored;
  socket_.close(ignored);
  release_file();
  give_back_slot();
}

void HttpConnection::arm_timer(int seconds) {
  const std::uint64_t generation = ++timer_generation_;
  timer_.expires_after(std::chrono::seconds(seconds));
  timer_.async_wait([self = shared_from_this(), generation](const boost::system::error_code& ec) {
    if (ec || generation != self->timer_generation_ || self->closed_) return;
    self->close();
  });
}

void HttpConnection::disarm_timer() {
  ++timer_generation_;
  timer_.cancel();
}

}  // namespace clerk::serve
