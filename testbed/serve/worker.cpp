#include "worker.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <algorithm>
#include <optional>
#include <system_error>
#include <vector>

#include "http_connection.h"
#include "thread_pool.h"

namespace clerk::serve {

namespace asio = boost::asio;

namespace {

// nginx stops accepting for a while when accept() fails for lack of fds
// (EMFILE, ENFILE): the pending connection stays in the backlog and the
// socket stays readable, so retrying at once would spin.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);

class Acceptor {
 public:
  Acceptor(WorkerContext& context, int listen_fd) : context_(context), acceptor_(context.io), backoff_(context.io) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    ::getsockname(listen_fd, reinterpret_cast<sockaddr*>(&address), &length);
    acceptor_.assign(address.ss_family == AF_INET6 ? asio::ip::tcp::v6() : asio::ip::tcp::v4(), listen_fd);
  }

  void start() { accept_next(); }

  void stop() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    backoff_.cancel();
  }

 private:
  void accept_next() {
    acceptor_.async_accept([this](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
      if (ec) {
        on_accept_error(ec);
        return;
      }
      drain();
      if (context_.slots->full()) {
        refuse(std::move(socket));
        accept_next();
        return;
      }
      boost::system::error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);  // nginx's tcp_nodelay on
      socket.native_non_blocking(true, ignored);                  // sendfile() must never block on the socket
      std::make_shared<HttpConnection>(context_, std::move(socket))->start();
      accept_next();
    });
  }

  // ngx_get_connection first calls ngx_drain_connections (ngx_connection.c):
  // with slots short, the connections reusable the longest (idle keep-alive,
  // waiting for a first request, lingering) are closed to make room. nginx
  // says so at most once a second, at warn; here once.
  void drain() {
    if (context_.slots->drain() == 0 || said_reusing_) return;
    said_reusing_ = true;
    std::fprintf(stderr, "clerk-serve: worker %d: %zu worker_connections are not enough, reusing connections\n",
                 static_cast<int>(::getpid()), context_.options.worker_connections);
  }

  // Every connection slot taken, none reusable: the new connection is closed
  // at once, as ngx_event_accept does when ngx_get_connection finds none free
  // ("N worker_connections are not enough", said once here).
  void refuse(asio::ip::tcp::socket socket) {
    if (!said_full_)
      std::fprintf(stderr, "clerk-serve: worker %d: %zu worker_connections are not enough, closing new connections\n",
                   static_cast<int>(::getpid()), context_.options.worker_connections);
    said_full_ = true;
    boost::system::error_code ignored;
    socket.close(ignored);
  }

  void on_accept_error(const boost::system::error_code& ec) {
    const int err = ec.value();
    if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
      std::fprintf(stderr, "clerk-serve: accept() failed (%s), pausing accepts for %lld ms\n", ec.message().c_str(),
                   static_cast<long long>(kAcceptBackoff.count()));
      backoff_.expires_after(kAcceptBackoff);
      backoff_.async_wait([this](const boost::system::error_code& wait_ec) {
        if (!wait_ec) accept_next();
      });
      return;
    }
    accept_next();  // ECONNABORTED and the like concern one connection only
  }

  WorkerContext& context_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer backoff_;
  bool said_full_ = false;
  bool said_reusing_ = false;
};

// An exception out of a handler concerns the connection it served (whose
// handler, and with it the connection, is gone): say so and go on; Asio
// allows run() to be called again after one.
void run_loop(asio::io_context& io) {
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "clerk-serve: worker: a connection failed: %s\n", e.what());
    }
  }
}

}  // namespace

int run_worker(const ServeOptions& options, int listen_fd, int root_fd, const sigset_t& signal_mask) {
  // Outlives the io_context, whose destruction ends the connections still
  // queued in it, each giving its slot back.
  ConnectionSlots slots(options.worker_connections);
  // Declared first, destroyed last: connections still queued in the pool or
  // the loop go away while their sockets' io_context still exists.
  asio::io_context io(1);
  // Pool threads start while the master's signals are still blocked, so
  // SIGTERM always reaches the loop thread.
  // open_file_cache: this worker's descriptors (after the loop, before the
  // pool: destroyed after the pool's threads are joined).
  std::optional<OpenFileCache> open_cache;
  if (options.open_file_cache.max > 0) open_cache.emplace(options.open_file_cache);
  // A pool that cannot start its threads (a pids cgroup's limit, say) would
  // fail again on a restart: the server stops, as nginx's worker exits.
  std::optional<ThreadPool> pool;
  if (options.aio_threads) {
    try {
      pool.emplace(options.threads, options.max_queue);
    } catch (const ThreadPoolError& e) {
      std::fprintf(stderr, "clerk-serve: worker %d: %s\n", static_cast<int>(::getpid()), e.what());
      return kWorkerFatal;
    }
  }
  // --aio io_uring: this worker's ring; a kernel that refuses it stops the worker.
  std::optional<Ring> ring;
  if (options.aio_uring) {
    try {
      ring.emplace(io, options.uring_entries, options.uring_max_workers);
    } catch (const std::system_error& e) {
      std::fprintf(stderr, "clerk-serve: worker: no io_uring ring: %s\n", e.what());
      return 1;
    }
  }
  // --aio nowait: the probes' buffer, a chunk's size (2 MiB when chunks are
  // unlimited, 16 MiB at most): a longer chunk is probed and sent in pieces.
  std::vector<char> probe_buffer;
  if (options.aio_nowait) {
    const std::size_t max_chunk = options.sendfile_max_chunk;
    probe_buffer.resize(max_chunk > 0 ? std::min(max_chunk, std::size_t{16} << 20) : std::size_t{2} << 20);
  }
  WorkerContext context{io, options, root_fd, pool ? &*pool : nullptr, ring ? &*ring : nullptr,
                        options.aio_nowait ? &probe_buffer : nullptr, open_cache ? &*open_cache : nullptr,
                        &slots};
  Acceptor acceptor(context, listen_fd);

  // SIGTERM/SIGINT from the master: nginx's fast shutdown, drop everything;
  // SIGQUIT too. HUP, USR1 and USR2 are the master's (sent to the process
  // group, by a closed terminal or killall, they must not end a worker);
  // ALRM and IO end no nginx worker either (they are the master's, above).
  asio::signal_set signals(io, SIGTERM, SIGINT, SIGQUIT);
  for (const int ignored : {SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGIO}) ::signal(ignored, SIG_IGN);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (ec) return;
    acceptor.stop();
    io.stop();
  });
  ::sigprocmask(SIG_SETMASK, &signal_mask, nullptr);

  acceptor.start();
  run_loop(io);
  if (pool) pool->stop();
  if (open_cache) open_cache->clear();  // every cached descriptor closed before the worker exits
  return 0;
}

}  // namespace clerk::serve
