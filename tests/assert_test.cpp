// CLERK_ASSERT (sim/assert.h): in a build that checks assertions (sanitized,
// Debug) a violated invariant of the engine's containers, the fair-share
// resource or the engine's timers reaches the handler; in a release build
// the condition is not even evaluated. Each test installs a handler that
// throws, so a violation is seen here instead of aborting the suite
// (assert_aborts, a ctest of its own, checks the default handler aborts).
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "sim/assert.h"
#include "sim/engine.h"
#include "sim/fair_share.h"
#include "sim/ring.h"
#include "sim/slot_pool.h"

namespace {

struct AssertFired : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_on_assert(const char* condition, const char* what, const char*, int) {
  throw AssertFired(std::string(condition) + ": " + what);
}

// Installs the throwing handler for one test, and puts the previous back.
struct ThrowingAsserts {
  ThrowingAsserts() : previous(sim::set_assert_handler(throw_on_assert)) {}
  ~ThrowingAsserts() { sim::set_assert_handler(previous); }
  sim::AssertHandler previous;
};

// `f` violates an invariant: with assertions checked, the handler is
// called; without, nothing can be said (the violation is undefined), so the
// call is not made.
template <class F>
void expect_fires(F&& f) {
  if constexpr (sim::kAssertsActive) {
    CHECK_THROWS_AS(f(), AssertFired);
  } else {
    static_cast<void>(f);
  }
}

struct NullListener final : sim::FairShareListener {
  void on_share_milestone(std::uint32_t, std::uint64_t, double) override {}
};

}  // namespace

TEST_CASE("CLERK_ASSERT: fires on a false condition exactly when assertions are checked", "[sim][assert]") {
  ThrowingAsserts guard;
  int evaluated = 0;
  const auto violate = [&] { CLERK_ASSERT(++evaluated < 0, "a condition that is false"); };
  if constexpr (sim::kAssertsActive) {
    CHECK_THROWS_AS(violate(), AssertFired);
    CHECK(evaluated == 1);
  } else {
    CHECK_NOTHROW(violate());
    CHECK(evaluated == 0);  // compiled out: the condition's side effect never happens
  }
  CHECK_NOTHROW([&] { CLERK_ASSERT(evaluated >= 0, "a condition that holds"); }());
}

TEST_CASE("CLERK_ASSERT: the message names the condition and what it means", "[sim][assert]") {
  if constexpr (!sim::kAssertsActive) return;
  ThrowingAsserts guard;
  sim::Ring<int> ring;
  try {
    ring.pop_front();
    FAIL("no assertion");
  } catch (const AssertFired& e) {
    CHECK(std::string(e.what()) == "size_ > 0: Ring::pop_front on an empty ring");
  }
}

TEST_CASE("CLERK_ASSERT: ring buffers", "[sim][assert]") {
  ThrowingAsserts guard;
  sim::Ring<int> ring;
  expect_fires([&] { ring.pop_front(); });
  expect_fires([&] { (void)ring.front(); });
  ring.push_back(7);
  CHECK(ring[0] == 7);
  expect_fires([&] { (void)ring[1]; });
  expect_fires([&] { ring.erase(1); });
  ring.pop_front();
  CHECK(ring.empty());
}

TEST_CASE("CLERK_ASSERT: slot pools", "[sim][assert]") {
  ThrowingAsserts guard;
  sim::SlotPool<int> pool;
  const std::uint32_t a = pool.take();
  pool.release(a);
  expect_fires([&] { pool.release(a); });  // released twice
  expect_fires([&] { pool.release(5); });  // never handed out
  expect_fires([&] { (void)pool[9]; });
  CHECK(pool.take() == a);  // the free list was not corrupted by the refused releases
  CHECK(pool.taken() == 1);
}

TEST_CASE("CLERK_ASSERT: FairShare's jobs", "[sim][assert]") {
  ThrowingAsserts guard;
  sim::Engine engine;
  sim::FairShare share(engine, 100.0);
  NullListener listener;
  const std::uint32_t a = share.add(10.0, &listener, 1);
  const std::uint32_t b = share.add(10.0, &listener, 2);
  share.cancel(a);
  expect_fires([&] { share.extend(a, 1.0); });  // a cancelled job
  expect_fires([&] { share.cancel(a); });
  expect_fires([&] { share.extend(77, 1.0); });  // a job never added
  share.extend_deferred(b, 1.0);
  expect_fires([&] { share.add(1.0, &listener, 3); });  // before settle()
  share.settle();
  CHECK(share.active() == 1);
  engine.run_until(sim::seconds(1));
  CHECK(share.active() == 0);  // b finished: 11 units at 100 units/s
}

TEST_CASE("CLERK_ASSERT: the engine's timers", "[sim][assert]") {
  ThrowingAsserts guard;
  sim::Engine engine;
  expect_fires([&] { engine.set_timer(3, 10, 0); });  // no timer 3
  expect_fires([&] { engine.cancel_timer(0); });
  expect_fires([&] { engine.schedule_at(5, nullptr); });
  CHECK(engine.pending() == 0);
}
