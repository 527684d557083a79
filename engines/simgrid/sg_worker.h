// One NGINX worker process on SimGrid: an actor running the event loop of
// models::Worker (ngx_process_events_and_timers) as straight-line code, over
// the same ready list, timers and batch (models/server/event_loop.h).
//
// It sleeps in epoll_wait until an event, a timer or the accept mutex delay
// wakes it; each turn takes the ready events (at most events_per_wait),
// accepts first when its listen socket is ready, handles the events one
// after another, then runs the timers due by the turn's cached time. Every
// CPU cost is spent on the server's cores; every page or directory block not
// in cache makes the actor (and so every connection it holds) wait in D state.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "engines/simgrid/sg_host.h"
#include "engines/simgrid/sg_pool.h"
#include "models/server/event_loop.h"

namespace sgengine {

class SgServer;

class SgWorker final : public DiskWaiter {
 public:
  SgWorker(SgServer& server, std::uint32_t index);
  // The loopback receive path its pool's sendfile() of `bytes` on `conn` runs (sg_server.h).
  double receive_path_s(std::uint32_t conn, std::uint64_t bytes);

  using EventKind = models::LoopEvent;
  void post(EventKind kind, std::uint32_t conn);
  void listen_ready();
  bool sleeping() const { return sleeping_; }
  sim::Time idle_since() const { return idle_since_; }  // when it last entered epoll_wait
  void add_timer(std::uint32_t conn, std::uint64_t generation) { loop_.add_timer(conn, generation); }
  void post_next(std::uint32_t conn, std::uint64_t generation) { loop_.post_next(conn, generation); }
  void on_pool_done() { post(EventKind::kPoolDone, 0); }
  // A done pool task's handler runs the connection's write next in this turn
  // (models::pool_tasks_done; only directio's reads do, which SimGrid refuses).
  void run_now(std::uint32_t conn) { loop_.run_now(conn, [this] { return disk_wait_so_far(); }); }

  std::uint32_t index() const { return index_; }
  SgPool* pool() { return pool_.get(); }
  bool accept_mutex_held() const { return mutex_held_; }

  std::uint64_t accepted = 0;
  std::uint64_t requests = 0;
  double blocked_wait_s = 0;  // time ready events waited while this loop was in D state

 private:
  using Ready = models::EventLoop::Ready;
  double disk_wait_so_far() const;

  void main();
  void turn();
  bool take_next(Ready& ev);
  void handle(const Ready& ev);
  void send_chunk(std::uint32_t conn);
  void post_to_pool(std::uint32_t conn, bool open);
  double epoll_timeout() const;  // seconds, or -1 for none

  SgServer& server_;
  std::uint32_t index_;
  std::unique_ptr<SgPool> pool_;
  Wakeup wake_;  // epoll_wait
  bool sleeping_ = false;  // a worker starts with a loop turn
  bool listen_pending_ = false;
  bool mutex_held_ = false;
  sim::Time idle_since_ = 0;

  models::EventLoop loop_;
  models::SendfileCall call_;
  std::vector<models::PoolTask> done_;
};

}  // namespace sgengine
