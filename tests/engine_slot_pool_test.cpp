// sim::SlotPool: released slots come back latest first and keep what they
// held; fresh slots are appended; an index stays valid while its slot is taken.
#include <catch2/catch.hpp>
#include <string>

#include "sim/slot_pool.h"

TEST_CASE("slot pool: fresh slots are appended in order", "[sim][slot_pool]") {
  sim::SlotPool<std::string> pool;
  CHECK(pool.size() == 0);
  CHECK(pool.take() == 0);
  CHECK(pool.take() == 1);
  CHECK(pool.take() == 2);
  CHECK(pool.size() == 3);
  CHECK(pool[2].empty());  // a fresh slot holds a default value
}

TEST_CASE("slot pool: released slots are reused latest first, contents kept", "[sim][slot_pool]") {
  sim::SlotPool<std::string> pool;
  for (int i = 0; i < 4; ++i) pool[pool.take()] = "slot " + std::to_string(i);
  pool.release(1);
  pool.release(3);
  CHECK(pool.take() == 3);
  CHECK(pool[3] == "slot 3");  // the caller refills it
  CHECK(pool.take() == 1);
  CHECK(pool.take() == 4);     // none left to reuse: a new one
  CHECK(pool.size() == 5);
  CHECK(pool[0] == "slot 0");  // slots never released are untouched
  CHECK(pool[2] == "slot 2");
}
