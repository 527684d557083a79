// Which worker a shared listen socket wakes, and which workers' epoll
// reports it (wake_order.h, listen_sockets.h), on hand-made cases worked out
// by the kernel's rule: __wake_up_common walks the socket's wait queue from
// the head, ep_poll_callback puts the socket on every passed epoll's ready
// list and, with EPOLLEXCLUSIVE, stops at the first worker asleep in
// epoll_wait; NGINX >= 1.21.6 re-adds the socket (to the tail) after a
// worker's 1st, 17th, 33rd... accept event.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "models/server/nginx_config.h"
#include "models/server/wake_order.h"
#include "sim/random.h"
#include "sim/time.h"

namespace {

struct FakeWorker {
  std::uint32_t i = 0;
  bool asleep = true;
  sim::Time idle = 0;
  int wakeups = 0;
  bool sleeping() const { return asleep; }
  sim::Time idle_since() const { return idle; }
  std::uint32_t index() const { return i; }
  bool accept_mutex_held() const { return false; }
  // ep_autoremove_wake_function: off ep->wq at once, busy until it sleeps again.
  void listen_ready() {
    asleep = false;
    ++wakeups;
  }
};

struct Server {
  models::NginxConfig config;
  std::unique_ptr<models::ListenSockets> sockets;
  std::vector<std::unique_ptr<FakeWorker>> workers;
  std::vector<FakeWorker*> scratch;
  sim::RandomStream rng{1};
  std::uint32_t next_conn = 0;

  // `version`: 1.21.5 has no ngx_reorder_accept_events, 1.21.6 re-adds every 16.
  Server(bool exclusive, const char* version) {
    config.version = version;
    config.worker_processes = 4;
    config.accept = &models::accept_policy(false, false);
    config.epoll_exclusive = exclusive;
    sockets = std::make_unique<models::ListenSockets>(config);
    for (std::uint32_t w = 0; w < 4; ++w) {
      workers.push_back(std::make_unique<FakeWorker>());
      workers.back()->i = w;
    }
  }
  // A connection finishes its handshake: queued, then the wake-up walk.
  void connect() {
    models::wake_for_connection(sockets->queue(next_conn++, 0, rng), workers, *sockets, config.epoll_exclusive,
                                scratch);
  }
  // Worker w gets to epoll_wait and, if the socket is reported, accept()
  // (one connection: multi_accept off); then it sleeps again.
  bool poll_and_accept(std::uint32_t w) {
    std::uint32_t conn = 0;
    const bool got = sockets->poll(w, false) && sockets->accept(w, conn);
    if (got) sockets->accept_event_done(w);
    return got;
  }
  void sleep(std::uint32_t w) {
    REQUIRE_FALSE(sockets->poll(w, false));  // epoll_wait finds nothing: the worker sleeps
    workers[w]->asleep = true;
  }
  std::vector<int> wakeups() const {
    std::vector<int> v;
    for (const auto& w : workers) v.push_back(w->wakeups);
    return v;
  }
};

// One connection at a time, each accepted by the worker it woke before the next arrives.
std::vector<std::uint32_t> serve_one_by_one(Server& s, int connections) {
  std::vector<std::uint32_t> who;
  for (int n = 0; n < connections; ++n) {
    const std::vector<int> before = s.wakeups();
    s.connect();
    for (std::uint32_t w = 0; w < 4; ++w)
      if (s.workers[w]->wakeups != before[w]) {
        REQUIRE(s.poll_and_accept(w));
        s.sleep(w);
        who.push_back(w);
      }
  }
  return who;
}

}  // namespace

TEST_CASE("EPOLLEXCLUSIVE: an idle server's connections all go to the first-registered worker") {
  // NGINX 1.11.3 to 1.21.5: no re-add, so the wait queue never changes.
  Server s(true, "1.21.5");
  const auto who = serve_one_by_one(s, 40);
  REQUIRE(who.size() == 40);
  for (std::uint32_t w : who) CHECK(w == 0);
}

TEST_CASE("EPOLLEXCLUSIVE with ngx_reorder_accept_events: first a round, then 16 accept events each") {
  // Each worker's 1st accept event moves it to the tail (c->requests 0 % 16
  // == 0): connections 1-4 go to workers 0-3. Then worker 0 is at the head
  // again and keeps it until its 17th accept event: connections 5-20, and
  // so on.
  Server s(true, "1.22.1");
  const auto who = serve_one_by_one(s, 4 + 16 * 5);
  REQUIRE(who.size() == 84);
  for (std::uint32_t n = 0; n < 4; ++n) CHECK(who[n] == n);
  for (std::uint32_t n = 4; n < 84; ++n) CHECK(who[n] == ((n - 4) / 16) % 4);
}

TEST_CASE("EPOLLEXCLUSIVE: a burst wakes each idle worker once, in wait-queue order, and all see the socket") {
  // Eight connections before any worker runs: the 1st wakes worker 0, which
  // is off its epoll's wait queue from then on, so the 2nd passes it (the
  // socket stays on its ready list) and wakes worker 1, and so on. From the
  // 5th on nobody sleeps: the walk passes all four.
  Server s(true, "1.22.1");
  for (int n = 0; n < 8; ++n) s.connect();
  CHECK(s.wakeups() == std::vector<int>{1, 1, 1, 1});
  for (std::uint32_t w = 0; w < 4; ++w) CHECK(s.sockets->ready_for(w, false));
  // Who gets each connection is then whoever reaches accept() first: worker
  // 2 taking all eight, one accept event per epoll_wait, is one outcome; the
  // others find the socket gone at their next epoll_wait.
  for (int n = 0; n < 8; ++n) CHECK(s.poll_and_accept(2));
  for (std::uint32_t w = 0; w < 4; ++w) CHECK_FALSE(s.sockets->poll(w, false));
}

TEST_CASE("EPOLLEXCLUSIVE: a busy first worker gets the socket on its ready list and races the woken one") {
  Server s(true, "1.21.5");
  s.workers[0]->asleep = false;  // busy in a handler (or in D state)
  s.connect();
  CHECK(s.wakeups() == std::vector<int>{0, 1, 0, 0});
  CHECK(s.sockets->ready_for(0, false));        // passed by the walk: reported at its next epoll_wait
  CHECK(s.sockets->ready_for(1, false));        // woken
  CHECK_FALSE(s.sockets->ready_for(2, false));  // after the woken worker: never told
  CHECK_FALSE(s.sockets->ready_for(3, false));
  // The busy worker gets there first and takes it; the woken one finds EAGAIN.
  CHECK(s.poll_and_accept(0));
  CHECK_FALSE(s.poll_and_accept(1));
  // At its next epoll_wait the busy worker finds the queue empty: the item is
  // dropped, and once both sleep the next connection wakes worker 0 alone.
  CHECK_FALSE(s.sockets->poll(0, false));
  s.sleep(0);
  s.sleep(1);
  s.connect();
  CHECK(s.wakeups() == std::vector<int>{1, 1, 0, 0});
  CHECK_FALSE(s.sockets->ready_for(1, false));
}

TEST_CASE("EPOLLEXCLUSIVE: the socket stays on a busy worker's ready list until its epoll_wait") {
  Server s(true, "1.21.5");
  for (std::uint32_t w = 0; w < 3; ++w) s.workers[w]->asleep = false;
  s.connect();  // passes workers 0-2, wakes 3
  CHECK(s.wakeups() == std::vector<int>{0, 0, 0, 1});
  CHECK(s.poll_and_accept(3));
  s.sleep(3);
  s.sleep(0);  // worker 0 polls (nothing left) and sleeps
  s.connect();  // wakes worker 0 and stops there
  CHECK(s.wakeups() == std::vector<int>{1, 0, 0, 1});
  // Workers 1 and 2 have not polled since the first walk: their epoll still
  // holds the socket and reports this connection too.
  CHECK(s.sockets->ready_for(1, false));
  CHECK(s.sockets->ready_for(2, false));
  CHECK_FALSE(s.sockets->ready_for(3, false));
}

TEST_CASE("without EPOLLEXCLUSIVE every sleeping worker is woken, most recently idle first, and every epoll sees the socket") {
  Server s(false, "1.9.0");
  s.workers[0]->asleep = false;
  s.workers[2]->idle = 5;
  s.workers[3]->idle = 7;
  s.connect();
  CHECK(s.wakeups() == std::vector<int>{0, 1, 1, 1});
  for (std::uint32_t w = 0; w < 4; ++w) CHECK(s.sockets->ready_for(w, false));
  CHECK(s.scratch == std::vector<FakeWorker*>{s.workers[3].get(), s.workers[2].get(), s.workers[1].get()});
}
