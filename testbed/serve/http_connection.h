// One client connection on a worker's event loop: read a request head, open
// the file, send head + file with sendfile() in chunks, then keep the
// connection for the next request or close it, as nginx's
// ngx_http_request.c does. Every step runs on the worker's one loop thread,
// except the disk calls that --aio threads hands to the pool; while such a
// task runs, the loop does not touch the connection (no timer is armed).
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "connection_slots.h"
#include "file_resolver.h"
#include "http_request.h"
#include "open_file_cache.h"
#include "options.h"
#include "send_step.h"
#include "thread_pool.h"
#include "uring.h"

namespace clerk::serve {

// What a worker shares with its connections.
struct WorkerContext {
  boost::asio::io_context& io;
  const ServeOptions& options;
  int root_fd;
  ThreadPool* pool;  // null with --aio off and io_uring
  Ring* ring;        // --aio io_uring, else null
  // --aio nowait: the worker's buffer its RWF_NOWAIT probes read into.
  std::vector<char>* probe_buffer;
  OpenFileCache* open_cache;  // --open-file-cache N, else null
  // Slots taken against --worker-connections and the connections that may be
  // reused; declared before the io_context, which destroys the connections
  // still queued in it.
  ConnectionSlots* slots;
};

// A slot is taken from construction until its socket is closed (nginx's
// ngx_close_connection frees it then), not until the last handler holding
// the object has run: a drained connection's slot is free at once.
class HttpConnection final : public std::enable_shared_from_this<HttpConnection>, private Reusable {
 public:
  HttpConnection(WorkerContext& context, boost::asio::ip::tcp::socket socket);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;
  void start();

 private:
  void read_request();
  void release_large_head_buffer();
  void on_read(const boost::system::error_code& ec, std::size_t bytes);
  void handle_request(const RequestHead& request);
  // The file of a request: from the open-file cache, or opened (on the
  // loop, or with --aio-open in the pool) and then given to the cache.
  void open_file(const std::string& relative);
  void on_file_opened(bool counted);
  void serve_file(OpenOutcome outcome);
  int file_fd() const { return file_ ? file_->fd.get() : -1; }
  // The response is done with its file: back to the cache (nginx's
  // ngx_open_file_cleanup), or closed.
  void release_file();
  void respond_error(int status, bool keep_alive);
  void send_next();
  // The pool refused a sendfile task: the rest of the head, then close (nginx).
  void send_head_then_close();
  // --aio nowait: whether the first `chunk` bytes from file_offset_ are all
  // in the page cache, by one preadv2(RWF_NOWAIT) into the probe buffer.
  bool probe_resident(std::size_t& chunk);
  // --aio io_uring: the head, then the read buffer, then the next read.
  void send_next_uring();
  void on_uring_read(int result);
  void on_step(std::size_t chunk);
  void wait_writable();
  void finish_response();
  void linger_close();
  void close();
  // ngx_drain_connections closes a reusable connection to free its slot.
  void reuse() override { close(); }
  void set_reusable(bool reusable) { slots_->set_reusable(*this, reusable && !closed_); }
  void give_back_slot();
  void arm_timer(int seconds);
  void disarm_timer();

  WorkerContext& context_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  std::uint64_t timer_generation_ = 0;  // a stale expiry must not close a live step
  bool header_deadline_set_ = false;    // client_header_timeout runs for the current head
  std::vector<char> buffer_;            // request bytes: 1 KiB, grown up to header_limit
  std::size_t buffered_ = 0;
  HeadProgress head_progress_;          // when the buffered head is worth parsing
  ConnectionSlots* slots_;
  bool holds_slot_ = true;
  int requests_ = 0;
  bool keep_alive_ = false;
  bool head_only_ = false;
  bool in_pool_ = false;  // a pool task is using the socket or file: do not close them
  bool closed_ = false;

  // The response being sent.
  std::string head_;
  std::size_t head_sent_ = 0;
  OpenFileRef file_;
  std::string file_name_;  // file_'s path under the root, its key in the open-file cache
  off_t file_offset_ = 0;
  std::size_t file_left_ = 0;
  // --aio io_uring: file bytes read but not yet sent, [uring_sent_, uring_read_) of uring_buffer_.
  std::vector<char> uring_buffer_;
  std::size_t uring_read_ = 0, uring_sent_ = 0;

  // Written by a pool thread, read on the loop after the completion is posted.
  std::string pending_path_;
  ResolvedFile resolved_;
  StepResult step_result_;
};

}  // namespace clerk::serve
