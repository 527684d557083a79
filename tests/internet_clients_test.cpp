// Internet clients end to end (models/clients/network_path.h, models/os/
// tcp_sender.h, models/os/sockets.h): the RTT and rate distributions'
// sampled percentiles, their streams, and a whole run's latencies against
// slow start's closed form, with and without restart after idle.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "models/clients/network_path.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"

namespace {

const std::string kScenarios = std::string(CLERK_TEST_DATA) + "/../../scenarios";

// The share of `draws` at or below x.
double below(const std::vector<double>& draws, double x) {
  double n = 0;
  for (const double d : draws) n += d <= x ? 1 : 0;
  return n / static_cast<double>(draws.size());
}

void check_percentiles(const models::Distribution& d, const std::vector<double>& ps) {
  sim::RandomStream rng(42);
  std::vector<double> draws;
  const int n = 200000;
  for (int i = 0; i < n; ++i) draws.push_back(d.draw(rng));
  for (const double p : ps) {
    INFO("percentile " << p);
    // The share of draws below the p-th percentile is binomial: within 5
    // standard errors of p.
    const double q = p / 100;
    CHECK(std::abs(below(draws, d.quantile(p)) - q) < 5 * std::sqrt(q * (1 - q) / n));
  }
}

// hits.toml: one cached 1 MiB file, one connection, a NIC fast enough (100
// Gbit/s: 84 us for the file) that the client's path decides.
models::Scenario one_connection(std::vector<std::string> more) {
  std::vector<std::string> set = {"clients.hot.threads=1", "clients.hot.connections=1", "nic.line_rate=\"100Gbit/s\"",
                                  "nginx.sendfile_max_chunk=0", "clients.hot.rtt=\"40ms\""};
  set.insert(set.end(), more.begin(), more.end());
  return models::load_scenario(kScenarios + "/agreement/hits.toml", set);
}

models::WrkResult run(const models::Scenario& sc, double seconds) {
  models::World w(sc, sc.seed, seconds);
  w.run();
  return w.result(0).clients.at(0);
}

// Segments of the 1 MiB response with its header: 725 of 1448 bytes, so
// ceil(log2(725 / 10 + 1)) = 7 rounds of slow start on a new window.
constexpr double kRtt = 0.040;
constexpr int kRounds = 7;

}  // namespace

TEST_CASE("internet clients: a lognormal's sampled percentiles are its own, within sampling error") {
  models::Distribution d;
  d.kind = models::Distribution::Kind::kLognormal;
  d.median = 0.040;
  d.sigma = 0.8;
  CHECK(d.quantile(50) == Approx(0.040));
  CHECK(d.quantile(84.134474606854) == Approx(0.040 * std::exp(0.8)).epsilon(1e-6));  // one sigma up
  check_percentiles(d, {1, 10, 25, 50, 75, 90, 99});
}

TEST_CASE("internet clients: a percentile table's draws meet its percentiles, within sampling error") {
  models::Distribution d;
  d.kind = models::Distribution::Kind::kPercentiles;
  d.table = {{10, 0.010}, {50, 0.040}, {90, 0.150}, {99, 0.400}};
  CHECK(d.quantile(50) == Approx(0.040));
  CHECK(d.quantile(5) == Approx(0.010));   // below the lowest: the lowest
  CHECK(d.quantile(99.5) == Approx(0.400));  // above the highest: the highest
  CHECK(d.quantile(30) == Approx(std::sqrt(0.010 * 0.040)));  // halfway, on a log scale
  // (At the top percentile given the rest of the draws pile up: P(X <= 0.4) is 1.)
  check_percentiles(d, {10, 30, 50, 70, 90, 95, 98});
}

TEST_CASE("internet clients: a group's draws come from its own streams") {
  // Group "hot"'s connections draw the same RTTs whatever its bandwidth
  // form and whatever another group does.
  auto rtts = [](std::vector<std::string> set) {
    std::vector<std::string> all = {"clients.hot.rtt={median=\"40ms\", sigma=0.5}"};
    all.insert(all.end(), set.begin(), set.end());
    const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml", all);
    models::World w(sc, sc.seed, 0.5);
    w.run();
    std::vector<sim::Time> out;
    for (std::uint32_t c = 0; c < w.clients().connections_opened(); ++c)
      if (const models::TcpPath* p = w.clients().path(c)) out.push_back(p->rtt);
    return out;
  };
  const std::vector<sim::Time> base = rtts({});
  REQUIRE(base.size() == 32);
  CHECK(base != std::vector<sim::Time>(32, base.front()));  // drawn, not one value
  CHECK(rtts({"clients.hot.bandwidth=[[\"5Mbit/s\", 0.1], [\"50Mbit/s\", 0.9]]"}) == base);
  const std::vector<sim::Time> with_other = rtts({"clients.other={threads=1, connections=4, path=\"/1/2\", rtt=\"80ms\"}"});
  CHECK(std::vector<sim::Time>(with_other.begin(), with_other.begin() + 32) == base);
}

TEST_CASE("internet clients: a whole run's latencies meet slow start's closed form") {
  SECTION("closed loop: the first response takes 7 RTTs, the kept-alive ones 1 (cwnd kept: idle below an RTO)") {
    const models::WrkResult r = run(one_connection({}), 2);
    REQUIRE(r.raw.count() > 30);
    // The server's own time per response: 17 us of request CPU and 0.25 ms
    // of sendfile CPU, and the NIC's 84 us: under 1 ms.
    CHECK(r.raw.min() >= kRtt);
    CHECK(r.raw.percentile(90) <= (kRtt + 1e-3) * 1.01);  // 0.96% bins
    CHECK(r.raw.max() >= kRounds * kRtt);
    CHECK(r.raw.max() <= (kRounds * kRtt + 1e-3) * 1.01);
    // nginx's $request_time ends when the response is in the socket, which
    // holds all of it (4 MiB): none of the network's time.
    REQUIRE(r.request_time.count() >= r.raw.count());
    CHECK(r.request_time.max() < 1e-3);
  }
  // Open loop, one request every 2 s: the connection idles 2 s less the
  // response, 8 RTOs (RTT + 200 ms): cwnd halves back to 10.
  SECTION("open loop with 2 s gaps: every response after idle starts slow start again") {
    const models::WrkResult r = run(one_connection({"clients.hot.rate=0.5"}), 10);
    REQUIRE(r.raw.count() == 5);
    // The first waits for the handshake (one RTT) too; the others take 7 rounds.
    CHECK(r.raw.min() >= kRounds * kRtt);
    CHECK(r.raw.percentile(80) <= (kRounds * kRtt + 1e-3) * 1.01);
  }
  SECTION("the same with net.ipv4.tcp_slow_start_after_idle = 0: one round after the first") {
    const models::WrkResult r = run(one_connection({"clients.hot.rate=0.5", "kernel.tcp_slow_start_after_idle=\"off\""}), 10);
    REQUIRE(r.raw.count() == 5);
    CHECK(r.raw.min() >= kRtt);
    CHECK(r.raw.percentile(80) <= (kRtt + 1e-3) * 1.01);
  }
}

TEST_CASE("internet clients: a bandwidth-bound response takes bytes / rate + RTT") {
  // 8 Mbit/s and 10 ms: 10 segments cross in 14.5 ms, more than the RTT;
  // every response after the first (cwnd grown, no idle) takes
  // 1,048,820 bytes / 1 MB/s + 10 ms.
  const models::WrkResult r = run(one_connection({"clients.hot.rtt=\"10ms\"", "clients.hot.bandwidth=\"8Mbit/s\""}), 5);
  REQUIRE(r.raw.count() >= 4);
  const double expected = 1048820 / 1e6 + 0.010;
  CHECK(r.raw.percentile(50) >= expected * 0.99);
  CHECK(r.raw.percentile(50) <= (expected + 1e-3) * 1.01);
}

TEST_CASE("internet clients: a send buffer smaller than the response keeps nginx's request open for the network") {
  // tcp_wmem max 256 KiB: sendfile() stops at 256 KiB and the worker waits
  // for EPOLLOUT while slow start drains the buffer; $request_time then
  // covers most rounds, where on the LAN it would be the NIC's 84 us.
  const models::WrkResult r = run(one_connection({"kernel.tcp_wmem_max=262144"}), 3);
  REQUIRE(r.request_time.count() > 0);
  CHECK(r.request_time.percentile(50) > kRtt / 2);
  CHECK(r.request_time.percentile(50) < r.raw.percentile(50));
}

TEST_CASE("internet clients: bad keys name file, line and key") {
  auto error_of = [](const std::string& set) {
    try {
      models::load_scenario(kScenarios + "/agreement/hits.toml", {set});
    } catch (const models::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("clients.hot.bandwidth=\"20Mbit/s\"").find("key 'clients.hot.bandwidth': needs rtt") != std::string::npos);
  CHECK(error_of("clients.hot.rtt=\"fast\"").find("key 'clients.hot.rtt': its value must be a time") != std::string::npos);
  CHECK(error_of("clients.hot.rtt={median=\"40ms\"}").find("key 'clients.hot.rtt.sigma': is required") != std::string::npos);
  CHECK(error_of("clients.hot.rtt={median=\"40ms\", sigma=0.5, mean=\"1ms\"}").find("key 'clients.hot.rtt.mean': unknown key") !=
        std::string::npos);
  CHECK(error_of("clients.hot.rtt=[[\"40ms\", 0.5], [\"10ms\", 0.9]]").find("must rise") != std::string::npos);
  CHECK(error_of("clients.hot.rtt=[[\"40ms\", 0.5]]").find("two or more") != std::string::npos);
}
