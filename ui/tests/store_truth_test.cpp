// The store agrees with itself and with `clerk run`: a counter counts every
// customer of its clerk, its colour follows their wait, the shelves' figures
// are the run's, and every kind of disk has a warehouse. Headless: these read
// the model and the pure helpers the store view draws from.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"
#include "ui/counter_tally.h"
#include "ui/explain.h"
#include "ui/tails_view.h"

namespace {

std::string scenario_path(const char* rel) { return std::string(CLERK_SOURCE_DIR) + "/scenarios/" + rel; }

std::unique_ptr<models::World> world_at(const char* rel, double t_s, double duration_s = 0) {
  const models::Scenario sc = models::load_scenario(scenario_path(rel), {"warmup=\"0s\""});  // as clerk-ui opens it
  auto w = std::make_unique<models::World>(sc, sc.seed, duration_s > 0 ? duration_s : sc.duration_s);
  w->run_until(sim::seconds(1) * static_cast<std::int64_t>(t_s));
  return w;
}

}  // namespace

TEST_CASE("a counter counts every customer of its clerk, each in one place") {
  auto w = world_at("nginx-9x/blocking.toml", 10);
  const models::Nginx& server = w->server();
  const std::vector<ui::CounterTally> tally = ui::tally_counters(*w);
  REQUIRE(tally.size() == server.workers());
  // Every open connection is at exactly one place: a counter (or its dock),
  // the street (idle), or the door (backlog).
  std::uint64_t at_counters = 0, elsewhere = 0;
  for (const ui::CounterTally& t : tally) at_counters += t.here() + t.dock;
  for (std::uint32_t id = 0; id < w->clients().connections_opened() && id < server.connection_slots(); ++id) {
    const auto ph = server.conn(id).phase;
    using P = models::HttpConnection::Phase;
    if (ph == P::kIdle || ph == P::kBacklog) ++elsewhere;
  }
  // wrk gives each of its threads connections/threads, rounded down: 12 x 4 + 200.
  CHECK(w->clients().connections_opened() == 248);
  CHECK(at_counters + elsewhere == 248);
  bool bench_beyond_ready = false;
  for (std::uint32_t i = 0; i < server.workers(); ++i) {
    const ui::CounterTally& t = tally[i];
    // One event loop handles one connection at a time: at the desk or with it at the warehouse.
    CHECK(t.desk + t.warehouse <= 1);
    const bool in_d = w->tasks().state(server.worker(i).task()) == models::TaskState::kDiskWait;
    if (!in_d) CHECK(t.warehouse == 0);
    // Ready events alone (what "N waiting" used to count) miss the bench.
    if (t.bench > 0 && t.here() > server.worker(i).ready_events()) bench_beyond_ready = true;
  }
  CHECK(bench_beyond_ready);  // the 9x blocking store: customers sit on benches behind a blocked loop
}

TEST_CASE("a counter's colour follows its longest wait, and blocked counters are hot") {
  CHECK(ui::wait_warmth(0) == 0.0f);
  CHECK(ui::wait_warmth(0.01) == 0.0f);
  CHECK(ui::wait_warmth(0.1) == Approx(0.5f));
  CHECK(ui::wait_warmth(1.0) == Approx(1.0f));
  CHECK(ui::wait_warmth(30.0) == 1.0f);
  CHECK(ui::wait_warmth(0.05) < ui::wait_warmth(0.2));
  // 9x without a pool: the constant load's mean latency is 7.42 s (documented),
  // so at t = 10 s most counters hold a customer who has waited over a second.
  auto w = world_at("nginx-9x/blocking.toml", 10);
  int hot = 0;
  for (const ui::CounterTally& t : ui::tally_counters(*w)) hot += ui::wait_warmth(t.oldest_s) >= 1.0f;
  CHECK(hot >= 8);
  CHECK(ui::seconds_text(0.85) == "850 ms");
  CHECK(ui::seconds_text(1.23) == "1.2 s");
  CHECK(ui::seconds_text(14.4) == "14 s");
}

TEST_CASE("the shelves show clerk run's hit ratio and share of responses that waited") {
  auto w = world_at("nginx-9x/blocking.toml", 5, 5);
  w->run();
  const ui::ShelfFigures f = ui::shelf_figures(*w);
  const models::RunResult r = w->result(0);
  CHECK(f.hit_ratio == r.cache_hit_ratio);
  CHECK(f.responses_waited == r.responses_delayed_share);
  CHECK(f.unit_kib == 64);
  // Two different questions: most 64 KiB pieces are cached, yet most
  // responses waited behind a clerk at the warehouse.
  CHECK(f.hit_ratio > 0.5);
  CHECK(f.responses_waited > 0.5);
}

TEST_CASE("after a warm-up the shelves count the measured window only, as clerk run does") {
  // 9x without a pool, 3 s of warm-up: the cold start's misses are in the
  // warm-up, so counting from t = 0 would give a lower hit ratio.
  const models::Scenario sc = models::load_scenario(scenario_path("nginx-9x/blocking.toml"), {"warmup=\"3s\""});
  models::World w(sc, sc.seed, 4);
  w.run();
  REQUIRE(w.window_start() > 0);
  const ui::ShelfFigures f = ui::shelf_figures(w);
  const models::RunResult r = w.result(0);
  CHECK(f.hit_ratio == r.cache_hit_ratio);
  CHECK(f.lookups == r.cache_lookups);
  CHECK(f.responses_waited == r.responses_delayed_share);
  CHECK(f.responses == r.server_responses);
  CHECK(f.lookups < w.cache().stats().lookups);
}

TEST_CASE("every disk kind has a warehouse: RAID10 bays, an SSD bay, or none") {
  CHECK(ui::drive_queues(*world_at("nginx-9x/blocking.toml", 0)).size() == 4);
  auto ssd = world_at("local/blocking.toml", 1);
  CHECK(ui::drive_queues(*ssd).size() == 1);
  CHECK(ui::has_disk(*ssd));
  auto cf = world_at("cloudflare/blocking.toml", 0);
  CHECK(ui::drive_queues(*cf).size() == 1);
  auto none = world_at("reuseport/remote-reuseport.toml", 0);
  CHECK(!ui::has_disk(*none));
  CHECK(ui::drive_queues(*none).empty());
}

TEST_CASE("the percentile curve: evenly spaced nines up to what the samples resolve") {
  CHECK(ui::percentile_x(0) == Approx(0));
  CHECK(ui::percentile_x(90) == Approx(1));
  CHECK(ui::percentile_x(99.99) == Approx(4));
  // A uniform distribution on 0..1 s: latency at p is p / 100 s.
  const auto uniform = [](double p) { return p / 100; };
  const std::vector<ui::CurvePoint> all = ui::percentile_curve(uniform, 1000000);
  REQUIRE(all.size() == 81);  // x = 0, 0.05, ..., 4
  CHECK(all.back().percentile == Approx(99.99));
  CHECK(all.back().latency_s == Approx(0.9999));
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i].latency_s >= all[i - 1].latency_s);
  // 1,000 samples resolve 99.9% and no further.
  const std::vector<ui::CurvePoint> few = ui::percentile_curve(uniform, 1000);
  CHECK(few.back().percentile == Approx(99.9));
  CHECK(ui::percentile_curve(uniform, 0).empty());
}
