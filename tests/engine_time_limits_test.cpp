// The ends of simulated time and of the fair-share resource: conversions
// from seconds never wrap or reach undefined behaviour, sums of times
// saturate, and a fair-share resource always progresses (issue 21,
// findings 4 and 5).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/engine.h"
#include "sim/fair_share.h"
#include "sim/time.h"

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Recorder : sim::EventTarget {
  std::vector<std::uint64_t> seen;
  void on_event(std::uint64_t arg) override { seen.push_back(arg); }
};

struct Completions : sim::FairShareListener {
  sim::Engine* engine = nullptr;
  std::vector<std::pair<sim::Time, std::uint64_t>> done;
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double remaining) override {
    if (remaining == 0) done.emplace_back(engine->now(), tag);
  }
};

// Steps the engine at most `limit` times: a livelock fails the test instead
// of hanging it.
std::size_t drain(sim::Engine& e, std::size_t limit) {
  std::size_t steps = 0;
  while (steps < limit && e.step()) ++steps;
  return steps;
}

}  // namespace

TEST_CASE("seconds to nanoseconds rounds up inside the range and saturates outside it") {
  CHECK(sim::from_seconds_ceil(1.5) == 1500000000);
  CHECK(sim::from_seconds_ceil(1e-10) == 1);  // a positive span is never due now
  CHECK(sim::from_seconds_ceil(0) == 0);
  CHECK(sim::from_seconds_ceil(-5) == 0);
  CHECK(sim::from_seconds_ceil(kNaN) == 0);
  CHECK(sim::from_seconds_ceil(-kInf) == 0);
  CHECK(sim::from_seconds_ceil(kInf) == sim::kNever);
  CHECK(sim::from_seconds_ceil(1e300) == sim::kNever);
  CHECK(sim::from_seconds_ceil(1e15) == sim::kNever);  // 1e24 ns
  CHECK(sim::from_seconds_ceil(9.3e9) == sim::kNever);
  // The largest span below 2^63 ns is still an exact, positive time.
  CHECK(sim::from_seconds_ceil(9.1e9) == sim::Time{9100000000000000000});
}

TEST_CASE("now plus a span saturates at kNever instead of wrapping") {
  CHECK(sim::later(10, 5) == 15);
  CHECK(sim::later(sim::kNever - 1, 1) == sim::kNever);
  CHECK(sim::later(sim::kNever - 1, 2) == sim::kNever);
  CHECK(sim::later(sim::seconds(100), sim::kNever) == sim::kNever);
}

TEST_CASE("an event a huge span ahead never fires and never lands in the past") {
  sim::Engine e;
  Recorder r;
  e.schedule_at(sim::seconds(10), &r, 1);
  e.run_until(sim::seconds(5));
  REQUIRE_NOTHROW(e.schedule_in(sim::from_seconds_ceil(1e300), &r, 2));
  REQUIRE_NOTHROW(e.schedule_in(sim::kNever, &r, 3));
  e.run_until(sim::seconds(1000));
  CHECK(r.seen == std::vector<std::uint64_t>{1});
  CHECK(e.next_event_time() == sim::kNever);
}

TEST_CASE("a fair-share resource refuses an infinite or non-positive capacity") {
  sim::Engine e;
  CHECK_THROWS_AS(sim::FairShare(e, kInf), std::invalid_argument);
  CHECK_THROWS_AS(sim::FairShare(e, kNaN), std::invalid_argument);
  CHECK_THROWS_AS(sim::FairShare(e, 0.0), std::invalid_argument);
}

TEST_CASE("a fair-share resource of huge capacity finishes every job within nanoseconds") {
  for (const double capacity : {1e13, 1e100, 1e300, std::numeric_limits<double>::max()}) {
    sim::Engine e;
    Completions c;
    c.engine = &e;
    sim::FairShare share(e, capacity);
    for (std::uint64_t i = 0; i < 5; ++i) share.add(1000.0 * static_cast<double>(i + 1), &c, i);
    drain(e, 100);
    REQUIRE(c.done.size() == 5);
    for (const auto& [at, tag] : c.done) {
      CHECK(at >= 1);  // work is never done in no time
      CHECK(at <= 2);  // at 1e13 units/s, 1 ns serves 2,000 units to each of five jobs
    }
    CHECK(share.active() == 0);
  }
}

TEST_CASE("fair share: n equal jobs finish together at n * work / capacity, rounded up") {
  // Closed form of processor sharing: every job gets capacity / n, so all n
  // finish when n * work units have been served.
  const double capacity = 1.25e9;  // 10 Gbit/s in bytes
  const double work = 1e6;
  for (const std::uint64_t n : {1u, 3u, 32u}) {
    sim::Engine e;
    Completions c;
    c.engine = &e;
    sim::FairShare share(e, capacity);
    for (std::uint64_t i = 0; i < n; ++i) share.add(work, &c, i);
    drain(e, 10 * n);
    REQUIRE(c.done.size() == n);
    const sim::Time expected = sim::from_seconds_ceil(static_cast<double>(n) * work / capacity);
    for (const auto& [at, tag] : c.done) CHECK(std::llabs(at - expected) <= 1);
    CHECK(share.served() == Approx(static_cast<double>(n) * work).epsilon(1e-9));
  }
}

TEST_CASE("fair share always progresses: each event moves time or finishes a job") {
  // Jobs of sizes spanning 12 orders of magnitude arrive while others run,
  // at the largest and smallest rates a scenario allows; the run ends within
  // a bounded number of events and serves exactly the work given.
  for (const double capacity : {1e3, 1e13}) {
    sim::Engine e;
    Completions c;
    c.engine = &e;
    sim::FairShare share(e, capacity);
    double given = 0;
    std::uint64_t tag = 0;
    for (double w = 1e-3; w <= 1e9; w *= 10) {
      share.add(w, &c, tag++);
      given += w;
      e.run_until(e.now() + sim::microseconds(1));
    }
    drain(e, 1000);
    CHECK(c.done.size() == tag);
    CHECK(share.active() == 0);
    // Served at least what was given (a completion may overshoot by less
    // than a nanosecond's worth, since times round up).
    CHECK(share.served() >= given * (1 - 1e-9));
  }
}
