// TCP towards internet clients (models/os/tcp_sender.h) against closed forms:
// slow start's rounds, a bandwidth-bound transfer, restart after idle.
#include <catch2/catch.hpp>
#include <cmath>

#include "models/os/tcp_sender.h"

namespace {

constexpr std::uint32_t kMss = 1448;
constexpr sim::Time kRtt = sim::milliseconds(40);

models::TcpSenderSpec spec(bool restart_after_idle = true) {
  return models::TcpSenderSpec{.mss = kMss,
                               .initial_window = 10,
                               .slow_start_after_idle = restart_after_idle,
                               .rto_min = sim::milliseconds(200),
                               .send_buffer = 4194304};
}

// Runs the sender's rounds until everything written has left the bottleneck;
// returns when the last byte left.
sim::Time drain(models::TcpSender& tcp) {
  while (tcp.when_departed() == sim::kNever) {
    REQUIRE(tcp.next_round() != sim::kNever);
    tcp.round(tcp.next_round());
  }
  return tcp.when_departed();
}

// Finishes the pending rounds (the window grows by what they sent).
void settle(models::TcpSender& tcp) {
  while (tcp.next_round() != sim::kNever) tcp.round(tcp.next_round());
}

// Slow start with an initial window of 10 and no bottleneck: the number of
// rounds K with 10 (2^K - 1) >= N.
std::int64_t rounds_for(std::int64_t segments) {
  return static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(segments) / 10.0 + 1.0)));
}

}  // namespace

TEST_CASE("slow start: N segments on a new connection take ceil(log2(N/10 + 1)) round trips") {
  for (const std::int64_t n : {1, 9, 10, 11, 30, 31, 70, 71, 150, 1000}) {
    INFO("segments " << n);
    models::TcpSender tcp(spec(), models::TcpPath{kRtt});
    tcp.write(0, static_cast<double>(n * kMss));
    const sim::Time departed = drain(tcp);
    const std::int64_t k = rounds_for(n);
    // The last round leaves K - 1 RTTs after the first; the request's way
    // in and the last byte's way out add one RTT: the client waits K RTTs.
    CHECK(departed == (k - 1) * kRtt);
    CHECK(kRtt / 2 + departed + kRtt / 2 == k * kRtt);
    CHECK(static_cast<std::int64_t>(tcp.rounds()) == k);
  }
}

TEST_CASE("slow start: a response written in sendfile()'s 64 KiB pieces at one instant leaves as one write") {
  const double total = 300 * kMss;
  models::TcpSender whole(spec(), models::TcpPath{kRtt});
  whole.write(0, total);
  models::TcpSender pieces(spec(), models::TcpPath{kRtt});
  for (double left = total; left > 0; left -= 65536) pieces.write(0, std::min(65536.0, left));
  CHECK(drain(pieces) == drain(whole));
  CHECK(drain(whole) == (rounds_for(300) - 1) * kRtt);
}

TEST_CASE("a bandwidth-bound transfer takes bytes / rate + RTT") {
  // 1 Mbit/s and a 10 ms RTT: 10 segments take 116 ms to cross the
  // bottleneck, more than an RTT, so it never idles.
  const double rate = 125000;
  const sim::Time rtt = sim::milliseconds(10);
  for (const double bytes : {14480.0, 100000.0, 1e6}) {
    INFO("bytes " << bytes);
    models::TcpSender tcp(spec(), models::TcpPath{rtt, rate});
    tcp.write(0, bytes);
    const sim::Time latency = rtt / 2 + drain(tcp) + rtt / 2;
    // Each window's crossing is rounded up to the nanosecond.
    CHECK(std::abs(sim::to_seconds(latency) - (bytes / rate + sim::to_seconds(rtt))) < 1e-6);
  }
}

TEST_CASE("the send buffer holds a byte until its ACK returns, one RTT after it left the bottleneck") {
  const double rate = 125000;
  const sim::Time rtt = sim::milliseconds(10);
  models::TcpSender tcp(spec(), models::TcpPath{rtt, rate});
  tcp.write(0, 10 * kMss);  // one window, leaving over [0, 115.84 ms]
  CHECK(tcp.unacked(0) == 10 * kMss);
  CHECK(tcp.unacked(rtt) == 10 * kMss);
  const sim::Time half_left = sim::from_seconds_ceil(5 * kMss / rate);
  CHECK(tcp.unacked(half_left + rtt) == Approx(5 * kMss).margin(1));
  CHECK(tcp.unacked(sim::from_seconds_ceil(10 * kMss / rate) + rtt) == 0);
  // The time the backlog falls to a mark, as EPOLLOUT would fire.
  CHECK(std::abs(tcp.when_unacked_at_most(5 * kMss) - (half_left + rtt)) <= 1);
}

TEST_CASE("the window is bounded by the send buffer") {
  models::TcpSenderSpec s = spec();
  s.send_buffer = 100 * kMss;
  models::TcpSender tcp(s, models::TcpPath{kRtt});
  tcp.write(0, 10000.0 * kMss);
  drain(tcp);
  settle(tcp);
  CHECK(tcp.cwnd() == 100);
}

TEST_CASE("keep-alive: a response after an idle time above the RTO restarts slow start, without idle it does not") {
  // A first response of 100 segments leaves cwnd at 10 + 10 + 20 + 40 + 30 = 110.
  auto warmed = [](bool restart_after_idle) {
    models::TcpSender tcp(spec(restart_after_idle), models::TcpPath{kRtt});
    tcp.write(0, 100.0 * kMss);
    drain(tcp);
    settle(tcp);
    REQUIRE(tcp.cwnd() == 110);
    REQUIRE(tcp.rto() == kRtt + sim::milliseconds(200));
    return tcp;
  };
  const sim::Time last_send = 3 * kRtt;  // the first response's last round

  SECTION("the next request one RTT later (closed loop): one round, cwnd kept") {
    models::TcpSender tcp = warmed(true);
    const sim::Time at = 5 * kRtt;
    tcp.write(at, 100.0 * kMss);
    CHECK(drain(tcp) == at);
    CHECK(tcp.restarts() == 0);
  }
  SECTION("idle 1.5 RTO: cwnd halved once, to 55: two rounds") {
    models::TcpSender tcp = warmed(true);
    const sim::Time at = last_send + tcp.rto() * 3 / 2;
    tcp.write(at, 100.0 * kMss);
    CHECK(tcp.cwnd() == 55);
    CHECK(drain(tcp) == at + kRtt);
    CHECK(tcp.restarts() == 1);
  }
  SECTION("idle 10 RTOs: back to the initial window, slow start again as on a new connection") {
    models::TcpSender tcp = warmed(true);
    const sim::Time at = last_send + 10 * tcp.rto();
    tcp.write(at, 100.0 * kMss);
    CHECK(tcp.cwnd() == 10);
    CHECK(drain(tcp) == at + (rounds_for(100) - 1) * kRtt);
  }
  SECTION("net.ipv4.tcp_slow_start_after_idle = 0: no restart however long the idle") {
    models::TcpSender tcp = warmed(false);
    const sim::Time at = last_send + 10 * tcp.rto();
    tcp.write(at, 100.0 * kMss);
    CHECK(tcp.cwnd() == 110);
    CHECK(drain(tcp) == at);
  }
}
