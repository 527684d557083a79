// Engine timers: a timer moved in place orders events exactly as scheduling
// a new event each time would, and the occurrences it replaced still count
// as processed events once their time has passed.
#include <catch2/catch.hpp>
#include <vector>

#include "sim/engine.h"

namespace {

struct Log : sim::EventTarget {
  sim::Engine* engine = nullptr;
  std::vector<std::pair<sim::Time, std::uint64_t>> seen;
  void on_event(std::uint64_t arg) override { seen.emplace_back(engine->now(), arg); }
};

}  // namespace

TEST_CASE("a timer set again replaces its occurrence and keeps scheduling order") {
  sim::Engine e;
  Log log;
  log.engine = &e;
  const std::uint32_t t = e.add_timer(&log);
  e.set_timer(t, 50, 1);       // replaced below: never delivered
  e.schedule_at(20, &log, 2);  // scheduled before the timer's new setting
  e.set_timer(t, 20, 3);       // same time as event 2, set after it: comes after it
  e.schedule_at(20, &log, 4);  // scheduled after the setting: comes after it
  e.run_until(100);
  REQUIRE(log.seen.size() == 3);
  CHECK(log.seen[0] == std::make_pair(sim::Time{20}, std::uint64_t{2}));
  CHECK(log.seen[1] == std::make_pair(sim::Time{20}, std::uint64_t{3}));
  CHECK(log.seen[2] == std::make_pair(sim::Time{20}, std::uint64_t{4}));
  // Three delivered events, and the replaced occurrence at 50 counts as the
  // stale event it stands for.
  CHECK(e.events_processed() == 4);
}

TEST_CASE("a replaced occurrence counts only once its time has passed") {
  sim::Engine e;
  Log log;
  log.engine = &e;
  const std::uint32_t t = e.add_timer(&log);
  e.set_timer(t, 500, 1);
  e.cancel_timer(t);
  e.run_until(100);
  CHECK(log.seen.empty());
  CHECK(e.events_processed() == 0);
  e.run_until(500);
  CHECK(e.events_processed() == 1);
}
