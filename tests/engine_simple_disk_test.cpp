// The simple disk against its closed forms: a pure delay then processor
// sharing ("shared"), or one read at a time in arrival order ("fcfs").
#include <catch2/catch.hpp>
#include <vector>

#include "models/hardware/simple_disk.h"

namespace {

struct Recorder : models::IoListener {
  sim::Engine* engine = nullptr;
  std::vector<std::pair<std::uint64_t, sim::Time>> done;
  void on_io_done(std::uint64_t tag) override { done.emplace_back(tag, engine->now()); }
};

models::SimpleDiskSpec spec(bool shared) {
  models::SimpleDiskSpec s;
  s.capacity_bytes = 1e9;
  s.latency_s = 1e-3;
  s.bandwidth_Bps = 100e6;
  s.shared = shared;
  return s;
}

}  // namespace

TEST_CASE("shared: n equal reads together take latency + n x size / bandwidth") {
  sim::Engine engine;
  models::SimpleDisk disk(engine, spec(true));
  Recorder rec;
  rec.engine = &engine;
  for (std::uint64_t i = 0; i < 4; ++i) disk.submit_read(i * 1000000, 1000000, &rec, i);
  engine.run_until(sim::seconds(1));
  REQUIRE(rec.done.size() == 4);
  for (const auto& [tag, at] : rec.done) CHECK(sim::to_seconds(at) == Approx(1e-3 + 4 * 0.01).epsilon(1e-6));
  const models::DiskStats s = disk.stats();
  CHECK(s.reads == 4);
  CHECK(s.read_bytes == 4000000);
  CHECK(s.busy_s == Approx(0.041).epsilon(1e-6));
  CHECK(s.queue_depth_integral == Approx(4 * 0.041).epsilon(1e-6));
}

TEST_CASE("shared: a read arriving later gets its share from then on") {
  sim::Engine engine;
  models::SimpleDisk disk(engine, spec(true));
  Recorder rec;
  rec.engine = &engine;
  disk.submit_read(0, 2000000, &rec, 0);  // transfers alone from 1 ms: 20 ms of work
  engine.run_until(sim::milliseconds(5));
  disk.submit_read(0, 1000000, &rec, 1);  // joins at 6 ms with 10 ms of work at half rate
  engine.run_until(sim::seconds(1));
  REQUIRE(rec.done.size() == 2);
  // At 6 ms read 0 has 15 ms of work left; both run at half rate until read 1
  // finishes at 26 ms; read 0 then has 5 ms left at full rate: done at 31 ms.
  CHECK(rec.done[0].first == 1);
  CHECK(sim::to_seconds(rec.done[0].second) == Approx(0.026).epsilon(1e-6));
  CHECK(sim::to_seconds(rec.done[1].second) == Approx(0.031).epsilon(1e-6));
}

TEST_CASE("fcfs: reads are served one at a time in arrival order") {
  sim::Engine engine;
  models::SimpleDisk disk(engine, spec(false));
  Recorder rec;
  rec.engine = &engine;
  for (std::uint64_t i = 0; i < 3; ++i) disk.submit_read(0, 1000000, &rec, i);
  engine.run_until(sim::seconds(1));
  REQUIRE(rec.done.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(rec.done[k].first == k);
    CHECK(sim::to_seconds(rec.done[k].second) == Approx((k + 1) * 0.011).epsilon(1e-6));
  }
  // Mean number outstanding: 3, 2, 1 for 11 ms each.
  CHECK(disk.stats().queue_depth_integral == Approx(6 * 0.011).epsilon(1e-6));
  CHECK(disk.stats().busy_s == Approx(0.033).epsilon(1e-6));
}
