#include "engines/simgrid/sg_worker.h"

#include <algorithm>
#include <simgrid/s4u/Actor.hpp>
#include <string>

#include "engines/simgrid/sg_server.h"
#include "models/server/accept_cost.h"
#include "models/server/accept_event.h"
#include "models/server/pool_steps.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;
using Phase = models::HttpConnection::Phase;

SgWorker::SgWorker(SgServer& server, std::uint32_t index)
    : DiskWaiter(server.host().tasks,
                 server.host().tasks.add_task(now_ns(), index, models::TaskState::kSleeping)),
      server_(server),
      index_(index) {
  const models::NginxConfig& cfg = server.config();
  if (cfg.aio->thread_pool)
    pool_ = std::make_unique<SgPool>(server.host(), cfg.thread_pool, *this, cfg.worker_processes + index);
  sg4::Actor::create("worker", server.host().platform.server, [this] { main(); })->daemonize();
}

double SgWorker::disk_wait_so_far() const {
  return server_.host().tasks.group_integral(index_, models::TaskState::kDiskWait, now_ns());
}

void SgWorker::post(EventKind kind, std::uint32_t conn) {
  if (loop_.post(kind, conn, [this] { return disk_wait_so_far(); }) && sleeping_) wake_.notify();
}

void SgWorker::listen_ready() {
  listen_pending_ = true;
  if (!sleeping_) return;
  // Off the epoll's wait queue from the wake-up on (ep_autoremove_wake_function):
  // the next connection's walk passes this worker (wake_order.h).
  sleeping_ = false;
  wake_.notify();
}

double SgWorker::epoll_timeout() const {
  // A turn ngx_accept_disabled kept from the mutex waits without accept_mutex_delay's cap.
  const sim::Time timeout = loop_.epoll_timeout(server_.config(), mutex_held_ || server_.accept_mutex_skipped(*this));
  return timeout == sim::kNever ? -1.0 : sim::to_seconds(timeout);
}

void SgWorker::main() {
  // A worker starts with a loop turn (which takes the accept mutex if it is on).
  for (;;) {
    for (;;) {
      turn();
      // ngx_trylock_accept_mutex comes before epoll_wait; a holder keeps it while it sleeps.
      if (server_.config().accept->accept_mutex) mutex_held_ = server_.try_accept_mutex(*this);
      if (!loop_.ready() && !server_.listen_ready_for(*this)) break;
      sg4::this_actor::yield();  // epoll_wait returns at once: another turn
      ++resumptions();
    }
    sleeping_ = true;
    idle_since_ = now_ns();
    set_state(models::TaskState::kSleeping);
    wake_.wait(epoll_timeout());
    sleeping_ = false;
  }
}

void SgWorker::turn() {
  SgHost& host = server_.host();
  set_state(models::TaskState::kRunning);
  loop_.begin_turn(now_ns(), server_.config().epoll_events);
  const bool woken_for_listen = listen_pending_;
  listen_pending_ = false;
  const bool accept_first = server_.listen_ready_for(*this);
  if (accept_first) {
    // As models::Worker: accept() takes a connection once this worker has
    // had the CPU to get there; whatever is left of `accept` follows if it got one.
    use_cpu(models::accept_claim_cpu(host.costs));
    const bool got = models::accept_event(server_, *this) == models::Accepted::kTaken;
    server_.release_accept_mutex(*this);
    if (got) use_cpu(host.costs.accept - models::accept_claim_cpu(host.costs));
  } else {
    server_.release_accept_mutex(*this);
    // Woken for a connection another worker took first: accept() says EAGAIN.
    if (woken_for_listen) use_cpu(host.costs.wakeup);
  }
  Ready ev{};
  while (take_next(ev)) handle(ev);
}

// The next event of this turn: the epoll batch, then the expired timers.
bool SgWorker::take_next(Ready& ev) {
  return loop_.take_next([this](std::uint32_t id) -> models::HttpConnection& { return server_.conn(id); },
                         [this] { return disk_wait_so_far(); }, blocked_wait_s, ev);
}

void SgWorker::handle(const Ready& ev) {
  SgHost& host = server_.host();
  switch (ev.kind) {
    case EventKind::kPoolDone: {
      loop_.pool_event_read();
      pool_->take_done(done_);
      models::pool_tasks_done(server_, *this, *pool_, done_);
      use_cpu(host.costs.pool_complete() * static_cast<double>(done_.size()));
      return;
    }
    case EventKind::kRead: {
      ++requests;
      server_.begin_request(ev.conn);
      use_cpu(host.costs.request);
      // Writing a new cache file: open(O_CREAT) and rename(), in this process.
      if (server_.draw_cache_fill() && !host.walk.metadata_writes(2, this, 0)) wait_for_disk(models::WaitCause::kDiskMetadata);
      if (pool_ && server_.config().aio_open) {
        post_to_pool(ev.conn, true);
        use_cpu(host.costs.pool_post());
        return;
      }
      // open() walks the path in this process: upstream NGINX never offloads it.
      std::uint64_t keys[8];
      const std::uint32_t n = server_.files().components(server_.conn(ev.conn).file, keys);
      if (!host.walk.open(keys, n, this, 0)) wait_for_disk(models::WaitCause::kDiskMetadata);
      // The file is open and its size known: the response header goes out.
      server_.start_response(ev.conn);
      send_chunk(ev.conn);
      return;
    }
    case EventKind::kWrite:
      send_chunk(ev.conn);
      return;
  }
}

void SgWorker::send_chunk(std::uint32_t id) {
  SgHost& host = server_.host();
  models::HttpConnection& c = server_.conn(id);
  if (c.phase == Phase::kClosed) return;
  if (pool_) {
    post_to_pool(id, false);
    use_cpu(host.costs.pool_post());
    return;
  }
  const std::uint64_t limit = server_.chunk_limit(c);
  call_ = models::SendfileCall{c.file, c.flow, c.position, limit, 0, &c.ra, false, 0};
  sendfile(host, call_, *this);
  c.position = call_.position;
  use_cpu(host.costs.sendfile_byte * static_cast<double>(call_.sent) + server_.receive_path_s(id, call_.sent));
  server_.after_chunk(*this, id, call_.sent, call_.limit);
}

double SgWorker::receive_path_s(std::uint32_t conn, std::uint64_t bytes) { return server_.receive_path_s(conn, bytes); }

// A task for the pool: the next sendfile() chunk, or (aio_open) the open().
void SgWorker::post_to_pool(std::uint32_t id, bool open) { models::post_to_pool(server_, *pool_, id, open); }

}  // namespace sgengine
