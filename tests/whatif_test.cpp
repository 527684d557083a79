// clerk whatif's recommendations (cli/whatif/whatif_logic.h) on hand-made
// sweep rows: each rule's boundary, and the words that give its reason.
#include <catch2/catch.hpp>

#include "cli/whatif/whatif_logic.h"

using namespace cli::whatif;

namespace {
// One group; points (label, x, requests/s, p99 s).
WhatifRows one_group(std::initializer_list<std::tuple<const char*, double, double, double>> points) {
  WhatifRows r{{"web"}, {}};
  for (const auto& [label, x, rps, p99] : points) r.points.push_back({label, x, {{rps, p99}}});
  return r;
}
}  // namespace

TEST_CASE("threads: the smallest count within 10% of what more threads give") {
  const WhatifRows rows = one_group({{"1", 1, 50, 4.0}, {"2", 2, 90, 1.2}, {"4", 4, 100, 1.05}, {"8", 8, 101, 1.0},
                                     {"16", 16, 100, 1.0}});
  const Recommendation r = pick_threads(rows, 0.10);
  REQUIRE(r.point == 2u);  // 4 threads: p99 5% above 1.0, requests/s 1% below 101
  CHECK(r.answer.find("4 pool threads per worker") == 0);
  CHECK(r.why.find("with 2 threads, web's p99 is 1.20 s, 20% above the best (1.00 s at 8)") != std::string::npos);
  // A tighter tolerance asks for more threads.
  CHECK(pick_threads(rows, 0.02).point == 3u);
}

TEST_CASE("threads: rows in any order, and the largest count when more keeps helping") {
  const WhatifRows rows = one_group({{"8", 8, 100, 1.0}, {"2", 2, 40, 3.0}, {"4", 4, 70, 2.0}});
  const Recommendation r = pick_threads(rows, 0.10);
  REQUIRE(r.point == 0u);
  CHECK(r.answer.find("the most tried") != std::string::npos);
}

TEST_CASE("threads: a lucky p99 at a small count does not rule every count out") {
  // 2 threads has the best p99 by chance, 8 the best throughput: 8 still answers.
  const WhatifRows rows = one_group({{"2", 2, 20, 0.6}, {"4", 4, 30, 0.9}, {"8", 8, 40, 0.8}});
  CHECK(pick_threads(rows, 0.10).point == 2u);
}

TEST_CASE("threads: every group must be within") {
  WhatifRows rows{{"a", "b"}, {}};
  rows.points.push_back({"4", 4, {{100, 1.0}, {10, 9.0}}});
  rows.points.push_back({"8", 8, {{100, 1.0}, {10, 3.0}}});
  const Recommendation r = pick_threads(rows, 0.10);
  REQUIRE(r.point == 1u);
  CHECK(r.why.find("b's p99 is 9.00 s") != std::string::npos);
}

TEST_CASE("reuseport: on only when clearly better and nowhere worse") {
  const WhatifRows better = one_group({{"off", 0, 100, 2.0}, {"on", 0, 100, 1.0}});
  CHECK(pick_reuseport(better, 0.10).point == 1u);
  const WhatifRows close = one_group({{"off", 0, 100, 1.0}, {"on", 0, 105, 0.95}});
  const Recommendation c = pick_reuseport(close, 0.10);
  CHECK(c.point == 0u);
  CHECK(c.answer.find("leave it as it is") == 0);
  const WhatifRows worse = one_group({{"off", 0, 100, 1.0}, {"on", 0, 60, 1.0}});
  CHECK(pick_reuseport(worse, 0.10).answer.find("reuseport off") == 0);
  // Better for one group, worse for another: no change.
  WhatifRows mixed{{"a", "b"}, {}};
  mixed.points.push_back({"off", 0, {{100, 2.0}, {100, 1.0}}});
  mixed.points.push_back({"on", 0, {{100, 1.0}, {100, 2.0}}});
  CHECK(pick_reuseport(mixed, 0.10).answer.find("leave it as it is") == 0);
}

TEST_CASE("ram: the smallest size from which on aio off stays within aio threads") {
  const WhatifRows off = one_group({{"1g", 1, 10, 9.0}, {"2g", 2, 50, 3.0}, {"4g", 4, 98, 1.05}, {"8g", 8, 100, 1.0}});
  const WhatifRows threads = one_group({{"1g", 1, 90, 1.5}, {"2g", 2, 95, 1.2}, {"4g", 4, 100, 1.0}, {"8g", 8, 99, 1.02}});
  const Recommendation r = pick_ram(off, threads, 0.10);
  REQUIRE(r.point == 2u);
  CHECK(r.answer.find("from 4g of page cache on") == 0);
  CHECK(r.why.find("At 2g, the pool still matters (web: p99 3.00 s with aio off against 1.20 s") != std::string::npos);
  // A size that converges below one that does not is not the answer.
  const WhatifRows off2 = one_group({{"1g", 1, 100, 1.0}, {"2g", 2, 50, 3.0}, {"4g", 4, 100, 1.0}});
  const WhatifRows thr2 = one_group({{"1g", 1, 100, 1.0}, {"2g", 2, 100, 1.0}, {"4g", 4, 100, 1.0}});
  CHECK(pick_ram(off2, thr2, 0.10).point == 2u);
  // The pool costing more than X (aio threads worse) also counts as mattering.
  const WhatifRows off3 = one_group({{"1g", 1, 100, 1.0}});
  const WhatifRows thr3 = one_group({{"1g", 1, 100, 1.5}});
  CHECK_FALSE(pick_ram(off3, thr3, 0.10).point.has_value());
}

TEST_CASE("disk: the lowest worst-group p99 ratio, throughput breaks a near tie") {
  WhatifRows rows{{"a", "b"}, {}};
  rows.points.push_back({"raid10", 0, {{100, 1.0}, {10, 8.0}}});  // b 8x its best
  rows.points.push_back({"ssd", 0, {{80, 1.5}, {20, 2.0}}});      // worst 2x
  rows.points.push_back({"raid1", 0, {{50, 3.0}, {30, 1.0}}});    // worst 3x
  CHECK(pick_disk(rows, 0.10).point == 1u);
  const WhatifRows tie = one_group({{"x", 0, 100, 1.0}, {"y", 0, 150, 1.05}});
  CHECK(pick_disk(tie, 0.10).point == 1u);
}

TEST_CASE("load: the bracket around the limit and its words") {
  const WhatifRows rows = one_group({{"16", 16, 100, 0.2}, {"32", 32, 180, 0.4}, {"64", 64, 190, 1.5},
                                     {"48", 48, 185, 0.9}, {"128", 128, 190, 4.0}});
  const LoadBracket b = load_bracket(rows, 1.0);
  REQUIRE(b.last_under == 3u);
  REQUIRE(b.first_over == 2u);
  const Recommendation r = pick_load(rows, 1.0, "connections");
  CHECK(r.answer == "up to 48 connections: web's p99 stays at most 1 s there, and passes it at 64.");
  // Under the limit everywhere, or over it everywhere.
  CHECK(pick_load(rows, 10.0, "connections").answer.find("stays under 10 s at every load tried, up to 128") !=
        std::string::npos);
  CHECK_FALSE(pick_load(rows, 0.1, "connections").point.has_value());
  // The limit as given, not rounded to the table's precision: 1e-9 is not "0 us".
  CHECK(pick_load(rows, 1e-9, "connections").answer == "web's p99 is above 1 ns at every load tried, down to 16 connections.");
  CHECK(pick_load(rows, 0.0125, "connections").answer.find("above 12.5 ms") != std::string::npos);
  CHECK(pick_load(rows, 1.234567, "connections").answer.find("stays at most 1.23457 s there") != std::string::npos);
  CHECK(limit_text(2.5e-7) == "250 ns");
  CHECK(limit_text(1.5e-5) == "15 us");
  // A point under the limit above the first one over it (noise) is not the answer.
  const WhatifRows noisy = one_group({{"10", 10, 1, 0.5}, {"20", 20, 1, 1.5}, {"30", 30, 1, 0.8}});
  CHECK(load_bracket(noisy, 1.0).last_under == 0u);
}
