// The loopback pacing experiment (loopback_pacing.h): its arithmetic, and
// short real runs over 127.0.0.1 in this process.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "testbed/calibrate/loopback_pacing.h"

using namespace testbed::calibrate;

namespace {
bool kernel_has(const std::string& cc) {
  std::ifstream f("/proc/sys/net/ipv4/tcp_available_congestion_control");
  std::string name;
  while (f >> name)
    if (name == cc) return true;
  return false;
}
// Setting a congestion control outside tcp_allowed_congestion_control needs
// CAP_NET_ADMIN: without it the run cannot be taken here.
bool permitted(const std::string& cc) {
  try {
    PacingSpec s;
    s.congestion_control = cc;
    s.response = 4096;
    s.chunk = 4096;
    s.rounds = 1;
    pacing_run(s);
    return true;
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("Operation not permitted") == std::string::npos) throw;
    WARN("setting " << cc << " is not permitted here (not root): skipped");
    return false;
  }
}
PacingSpec small(const std::string& cc) {
  PacingSpec s;
  s.congestion_control = cc;
  s.response = 1 << 20;
  s.chunk = 256 << 10;
  s.rounds = 8;
  return s;
}
}  // namespace

TEST_CASE("pacing: figures per response, and what ran outside the two threads") {
  PacingRun r;
  r.spec.rounds = 100;
  r.wall_s = 0.05;            // 500 us a response
  r.sender_cpu_s = 0.02;      // 200
  r.receiver_cpu_s = 0.03;    // 300
  r.machine_busy_s = 0.07;    // 700: 200 elsewhere
  r.segs_out = 1500;
  r.epollout_waits = 50;
  const PacingPerResponse p = per_response(r);
  CHECK(p.wall_us == Approx(500));
  CHECK(p.sender_us == Approx(200));
  CHECK(p.receiver_us == Approx(300));
  CHECK(p.machine_us == Approx(700));
  CHECK(p.elsewhere_us == Approx(200));
  CHECK(p.segs == Approx(15));
  CHECK(p.epollout_waits == Approx(0.5));
  // Tick-sampled machine time below the threads' own: nothing elsewhere, never negative.
  r.machine_busy_s = 0.04;
  CHECK(per_response(r).elsewhere_us == 0);
}

TEST_CASE("pacing: a cubic run moves every response and counts its segments") {
  if (!permitted("cubic")) return;
  const PacingRun r = pacing_run(small("cubic"));
  CHECK(r.spec.rounds == 8);
  CHECK(r.wall_s > 0);
  CHECK(r.sender_cpu_s > 0);
  CHECK(r.receiver_cpu_s > 0);
  // Every byte left in segments of at most the MSS.
  REQUIRE(r.mss > 0);
  CHECK(r.segs_out >= 8u * ((1u << 20) / r.mss));
}

TEST_CASE("pacing: a bbr run, where the kernel has it, reports its rate and compares with cubic") {
  if (!kernel_has("bbr")) {
    WARN("no bbr in tcp_available_congestion_control: skipped");
    return;
  }
  if (!permitted("bbr") || !permitted("cubic")) return;
  const PacingRun r = pacing_run(small("bbr"));
  CHECK(r.segs_out > 0);
  CHECK(r.pacing_rate_Bps > 0);
  const std::string report = pacing_report(PacingComparison{{pacing_run(small("cubic"))}, {r}});
  CHECK_THAT(report, Catch::Contains("paced over unpaced, per byte"));
  CHECK_THAT(report, Catch::Contains("bbr"));
}

TEST_CASE("pacing: a congestion control the kernel lacks is a clear error") {
  CHECK_THROWS_WITH(pacing_run(small("no-such-cc")), Catch::Contains("TCP_CONGESTION") && Catch::Contains("no-such-cc"));
  PacingSpec none = small("cubic");
  none.rounds = 0;
  CHECK_THROWS_WITH(pacing_run(none), Catch::Contains("above 0"));
}

TEST_CASE("pacing's cost per byte: the paced runs' median machine time over the unpaced runs', never below 0") {
  auto run = [](const std::string& cc, double machine_s) {
    PacingRun r;
    r.spec.congestion_control = cc;
    r.spec.response = 1000000;
    r.spec.rounds = 10;
    r.machine_busy_s = machine_s;
    return r;
  };
  PacingComparison c;
  // Per response: cubic 100, 300, 200 us (median 200); bbr 260, 250, 900 us (median 260).
  for (double s : {1e-3, 3e-3, 2e-3}) c.unpaced.push_back(run("cubic", s));
  for (double s : {2.6e-3, 2.5e-3, 9e-3}) c.paced.push_back(run("bbr", s));
  CHECK(pacing_machine_per_byte_s(c) == Approx(60e-6 / 1e6));
  std::swap(c.unpaced, c.paced);
  CHECK(pacing_machine_per_byte_s(c) == 0);
  CHECK(pacing_machine_per_byte_s(PacingComparison{}) == 0);
}
