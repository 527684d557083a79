// Which worker gets a connection, policy by policy, on small hand-made cases.
#include <catch2/catch.hpp>
#include <string>

#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"

namespace {
models::RunResult run(const std::vector<std::string>& overrides) {
  const auto sc = models::load_scenario(std::string(CLERK_TEST_DATA) + "/policies.toml", overrides);
  models::World w(sc, sc.seed, sc.duration_s);
  w.run();
  return w.result(0);
}
std::vector<std::uint64_t> connections(const models::RunResult& r) {
  std::vector<std::uint64_t> v;
  for (const auto& w : r.workers) v.push_back(w.connections);
  return v;
}
}  // namespace

TEST_CASE("accept_mutex off: the most recently idle worker wins each connection") {
  // Connections 10 ms apart reach a nearly idle server (an open loop of 20
  // requests/s): whoever served the last request went idle last, so it is
  // woken first and takes the next connection too.
  const auto r = run({"clients.wrk.rate=20"});
  const auto c = connections(r);
  CHECK(*std::max_element(c.begin(), c.end()) == 40);
  CHECK(r.busiest_share == Approx(1.0));
}

TEST_CASE("accept_mutex on: the worker holding the mutex takes them") {
  const auto r = run({"nginx.accept_mutex=on"});
  const auto c = connections(r);
  CHECK(*std::max_element(c.begin(), c.end()) == 40);
}

TEST_CASE("reuseport: the kernel's hash spreads connections over every worker") {
  const auto r = run({"nginx.reuseport=true", "clients.wrk.connections=400", "clients.wrk.threads=1",
                      "cpu.client_connect=1us"});
  const auto c = connections(r);
  for (auto n : c) {
    CHECK(n > 60);  // binomial(400, 1/4): mean 100, sd 8.7
    CHECK(n < 140);
  }
  CHECK(r.fairness > 0.9);
}

TEST_CASE("a recorded placement puts each group's connections where the real run had them") {
  // accept_mutex on alone would give all 40 to one worker (above); the
  // placement from a real run overrides it, worker by worker.
  const auto r = run({"nginx.accept_mutex=on", "clients.wrk.placement=[25, 0, 10, 5]"});
  CHECK(connections(r) == std::vector<std::uint64_t>{25, 0, 10, 5});
}

TEST_CASE("a placement must name every worker") {
  CHECK_THROWS_WITH(run({"clients.wrk.placement=[20, 20]"}),
                    Catch::Contains("placement") && Catch::Contains("worker_processes = 4"));
}

TEST_CASE("accept_mutex off under load: busy workers are not woken and others get connections") {
  // Closed loop: the worker serving the first connections is often running
  // when the next arrives, and a running worker is not in epoll_wait.
  const auto r = run({});
  const auto c = connections(r);
  CHECK(*std::max_element(c.begin(), c.end()) < 40);
  CHECK(*std::min_element(c.begin(), c.end()) > 0);
}

TEST_CASE("an open-loop client sends at its rate whatever the latency") {
  const auto r = run({"clients.wrk.rate=2000", "cpu.client_connect=1us", "duration=5s"});
  const auto& c = r.clients.front();
  CHECK(static_cast<double>(c.issued) == Approx(10000).epsilon(0.01));
  const auto p = run({"clients.wrk.rate=2000", "clients.wrk.arrival=poisson", "cpu.client_connect=1us", "duration=5s"});
  CHECK(static_cast<double>(p.clients.front().issued) == Approx(10000).epsilon(0.05));  // Poisson: sd 100
  std::uint64_t failed = 0;
  for (const auto& [k, n] : p.clients.front().failed) failed += n;
  CHECK(p.clients.front().issued == p.clients.front().complete + failed + p.clients.front().in_flight);
}
