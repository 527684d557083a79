// worker_connections and ngx_accept_disabled (listen_sockets.h), on cases
// worked out by hand from NGINX's rules: after each accept() a worker sets
// ngx_accept_disabled = worker_connections / 8 - free slots (before taking
// the connection's slot); its listen socket and its channel take two slots
// from the start; with the mutex in use, a worker whose ngx_accept_disabled
// is above 0 counts it down one per loop turn instead of trying the mutex;
// a connection accepted with no slot free is closed.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"
#include "models/server/listen_sockets.h"
#include "models/server/nginx_config.h"
#include "sim/random.h"

namespace {

// Two workers, accept_mutex on, worker_connections 16: 14 slots free for
// clients, connection_n / 8 = 2.
struct TwoWorkers {
  models::NginxConfig config;
  models::ListenSockets sockets;
  sim::RandomStream rng{1};
  std::uint32_t next = 0;
  static models::NginxConfig make() {
    models::NginxConfig c;
    c.worker_processes = 2;
    c.accept = &models::accept_policy(true, false);
    c.worker_connections = 16;
    return c;
  }
  TwoWorkers() : config(make()), sockets(config) {}
  // A connection waits in the shared queue; worker w accept()s it and asks for a slot.
  bool connect_and_accept(std::uint32_t w, std::uint32_t* conn = nullptr) {
    sockets.queue(next++, 0, rng);
    std::uint32_t id = 0;
    REQUIRE(sockets.accept(w, id));
    if (conn) *conn = id;
    return sockets.take_slot(w, id);
  }
};

}  // namespace

TEST_CASE("worker_connections 16: ngx_accept_disabled after each accept is the connection's number minus 13") {
  TwoWorkers s;
  REQUIRE(s.sockets.free_slots(0) == 14);  // 16 - the listen socket - the channel
  // The k-th accept finds 15 - k free: 16 / 8 - (15 - k) = k - 13.
  for (int k = 1; k <= 14; ++k) {
    CHECK(s.connect_and_accept(0));
    CHECK(s.sockets.accept_disabled(0) == k - 13);
    CHECK(s.sockets.free_slots(0) == static_cast<std::uint32_t>(14 - k));
  }
  // The 15th finds none free: closed ("worker_connections are not enough"), ngx_accept_disabled = 2.
  CHECK_FALSE(s.connect_and_accept(0));
  CHECK(s.sockets.accept_disabled(0) == 2);
  CHECK(s.sockets.not_enough_line() == "16 worker_connections are not enough");
  // The other worker's slots are its own.
  CHECK(s.sockets.free_slots(1) == 14);
  CHECK(s.connect_and_accept(1));
  CHECK(s.sockets.accept_disabled(1) == -12);
}

TEST_CASE("accept_mutex on: a worker with ngx_accept_disabled above 0 skips the mutex one turn per unit, then another takes it") {
  TwoWorkers s;
  REQUIRE(s.sockets.try_mutex(0, false));       // worker 0 holds the mutex
  REQUIRE_FALSE(s.sockets.try_mutex(1, false)); // worker 1 lost it
  std::uint32_t first = 0;
  for (int k = 1; k <= 14; ++k) {
    REQUIRE(s.connect_and_accept(0, k == 1 ? &first : nullptr));
    s.sockets.release_mutex(0);  // ngx_shmtx_unlock after the posted accept events
    if (k < 14) {
      // ngx_accept_disabled <= 0: the next turn tries the mutex and takes it again.
      REQUIRE(s.sockets.try_mutex(0, true));
      REQUIRE_FALSE(s.sockets.mutex_skipped(0));
    }
  }
  // One slot was free before the 14th accept: ngx_accept_disabled = 2 - 1 = 1.
  REQUIRE(s.sockets.accept_disabled(0) == 1);
  // Worker 0's next turn skips the try: ngx_accept_mutex_held stays as it was, the lock stays free.
  CHECK(s.sockets.try_mutex(0, true));
  CHECK(s.sockets.mutex_skipped(0));
  CHECK(s.sockets.accept_disabled(0) == 0);
  // Worker 1's accept_mutex_delay ends: the lock is free, it takes it.
  CHECK(s.sockets.try_mutex(1, false));
  // Both epolls hold the listen socket now (worker 0's is stale): a new
  // connection is reported to both.
  s.sockets.queue(s.next++, 0, s.rng);
  CHECK(s.sockets.ready_for(0, true));
  CHECK(s.sockets.ready_for(1, true));
  // Worker 1 gets there first: a slot of its own.
  std::uint32_t id = 0;
  REQUIRE(s.sockets.accept(1, id));
  CHECK(s.sockets.take_slot(1, id));
  s.sockets.release_mutex(1);
  REQUIRE(s.sockets.try_mutex(1, true));  // worker 1 holds it while it sleeps
  // Worker 0 (0 disabled now) tries the mutex, loses it, and its epoll drops the socket.
  CHECK_FALSE(s.sockets.try_mutex(0, true));
  CHECK_FALSE(s.sockets.mutex_skipped(0));
  CHECK_FALSE(s.sockets.ready_for(0, false));
  // A connection that reaches worker 0 with no slot free is closed and
  // sets ngx_accept_disabled to 2: two turns without trying, then a try.
  s.sockets.release_mutex(1);
  REQUIRE(s.sockets.try_mutex(0, false));
  CHECK_FALSE(s.connect_and_accept(0));
  CHECK(s.sockets.accept_disabled(0) == 2);
  s.sockets.release_mutex(0);
  CHECK(s.sockets.try_mutex(0, true));
  CHECK(s.sockets.mutex_skipped(0));
  CHECK(s.sockets.accept_disabled(0) == 1);
  CHECK(s.sockets.try_mutex(0, true));
  CHECK(s.sockets.mutex_skipped(0));
  CHECK(s.sockets.accept_disabled(0) == 0);
  REQUIRE(s.sockets.try_mutex(1, false));  // worker 1 took the free lock meanwhile
  CHECK_FALSE(s.sockets.try_mutex(0, true));
  CHECK_FALSE(s.sockets.mutex_skipped(0));
  // A connection of worker 0 closes: its slot is free again.
  s.sockets.closed(first);
  CHECK(s.sockets.free_slots(0) == 1);
}

TEST_CASE("worker_connections not set: no slot is counted and no try is skipped") {
  models::NginxConfig c;
  c.worker_processes = 2;
  c.accept = &models::accept_policy(true, false);
  models::ListenSockets sockets(c);
  sim::RandomStream rng{1};
  REQUIRE(sockets.try_mutex(0, false));
  for (std::uint32_t n = 0; n < 100; ++n) {
    sockets.queue(n, 0, rng);
    std::uint32_t id = 0;
    REQUIRE(sockets.accept(0, id));
    CHECK(sockets.take_slot(0, id));
  }
  CHECK(sockets.accept_disabled(0) == 0);
  CHECK(sockets.try_mutex(0, true));
  CHECK_FALSE(sockets.mutex_skipped(0));
}

TEST_CASE("EPOLLEXCLUSIVE: ngx_reorder_accept_events re-adds the socket after every accept event while disabled") {
  models::NginxConfig c;
  c.version = "1.21.6";  // ngx_reorder_accept_events, every 16th accept event
  c.worker_processes = 2;
  c.accept = &models::accept_policy(false, false);
  c.epoll_exclusive = true;
  c.worker_connections = 16;
  models::ListenSockets sockets(c);
  sim::RandomStream rng{1};
  std::uint32_t next = 0;
  auto accept_event = [&](std::uint32_t w) {
    sockets.queue(next++, 0, rng);
    std::uint32_t id = 0;
    REQUIRE(sockets.accept(w, id));
    REQUIRE(sockets.take_slot(w, id));
    sockets.accept_event_done(w);
  };
  using Q = std::vector<std::uint32_t>;
  accept_event(0);  // worker 0's 1st event: re-added, to the tail
  CHECK(sockets.wait_queue() == Q{1, 0});
  accept_event(1);  // worker 1's 1st
  CHECK(sockets.wait_queue() == Q{0, 1});
  // Worker 0's 2nd to 13th events: ngx_accept_disabled = k - 13 <= 0, not a 16th: no re-add.
  for (int k = 2; k <= 13; ++k) accept_event(0);
  CHECK(sockets.accept_disabled(0) == 0);
  CHECK(sockets.wait_queue() == Q{0, 1});
  // The 14th: ngx_accept_disabled = 1, re-added though 13 % 16 != 0.
  accept_event(0);
  CHECK(sockets.accept_disabled(0) == 1);
  CHECK(sockets.wait_queue() == Q{1, 0});
}

TEST_CASE("a whole run: the mutex holder stops at 14 connections and the rest are refused with the reason until another worker takes the mutex") {
  // policies.toml: 4 workers, 40 connections 10 ms apart, keep-alive for the
  // whole run (no slot is freed). Without worker_connections the holder
  // takes all 40 (policy_test.cpp). With 16, it takes 14; its stale
  // ngx_accept_mutex_held keeps the socket in its epoll, so the connections
  // that reach it later are closed, until the others' accept_mutex_delay
  // (500 ms) ends and one of them takes the free lock.
  const auto sc = models::load_scenario(std::string(CLERK_TEST_DATA) + "/policies.toml",
                                        {"nginx.accept_mutex=on", "nginx.worker_connections=16"});
  models::World w(sc, sc.seed, sc.duration_s);
  w.run();
  const models::RunResult r = w.result(0);
  std::vector<std::uint64_t> c;
  for (const auto& wr : r.workers) c.push_back(wr.connections);
  CHECK(*std::max_element(c.begin(), c.end()) == 14);
  REQUIRE(r.server_failed.count("worker_connections are not enough"));
  CHECK(r.server_failed.at("worker_connections are not enough") > 0);
  CHECK(std::find(r.error_log.begin(), r.error_log.end(), "16 worker_connections are not enough") != r.error_log.end());
  // Every request is accounted for: completed, failed with a reason (the
  // refusal's, the only failure here), or in flight at the end; a refused
  // connection's request, if one was sent, is failed, not lost.
  const std::uint64_t refused = r.server_failed.at("worker_connections are not enough");
  for (const auto& g : r.clients) {
    INFO("group " << g.spec.name);
    std::uint64_t failed = 0;
    for (const auto& [reason, n] : g.failed) {
      CHECK(reason == "worker_connections are not enough");
      failed += n;
    }
    CHECK(g.issued == g.complete + failed + g.in_flight);
    CHECK(failed <= refused);
    CHECK(g.in_flight <= g.connections_open);
    CHECK(g.complete > 0);
  }
}
