// Warm-up (models/scenario/warmup.h): it converges on a hand-computable LRU
// case, the measured window excludes it, and bad values are refused.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/result_json.h"
#include "models/scenario/warmup.h"
#include "models/scenario/world.h"

namespace {

const std::string kData = CLERK_TEST_DATA;
const std::string kLru = kData + "/warmup/lru-uniform.toml";
constexpr double kHitRatio = 256.0 / 1024.0;  // C / N (the scenario's header)

models::RunResult run(const std::string& file, const std::vector<std::string>& overrides = {}) {
  const models::Scenario sc = models::load_scenario(file, overrides);
  models::World w(sc, sc.seed, sc.duration_s);
  w.run();
  return w.result(0);
}

// Four standard deviations of a hit ratio over n lookups, were they
// independent trials: a bound the sample will cross about once in 16,000.
double bound(std::uint64_t n) { return 4 * std::sqrt(kHitRatio * (1 - kHitRatio) / static_cast<double>(n)); }

}  // namespace

TEST_CASE("the slope test: flat and noisy series pass, a steady climb does not") {
  using M = models::WarmupMonitor;
  CHECK(M::trend_t({0.5, 0.5, 0.5, 0.5, 0.5, 0.5}) == 0);
  CHECK(std::fabs(M::trend_t({0.25, 0.27, 0.24, 0.26, 0.25, 0.24})) < M::kTrendT);
  CHECK(std::fabs(M::trend_t({0.10, 0.12, 0.15, 0.17, 0.20, 0.22})) > M::kTrendT);
}

TEST_CASE("a fixed warm-up ends on time, settling needs the fill, the turnover and flat ratios") {
  models::WarmupMonitor fixed(models::WarmupSpec{false, 25, 0}, false);
  CHECK_FALSE(fixed.over_at_start());
  CHECK(fixed.interval() * 3 == sim::seconds(25) - sim::seconds(25) % 3);
  models::WarmupMonitor settled(models::WarmupSpec{true, 0, 1000}, false);
  models::WarmupProbe p;
  p.capacity_units = 100;
  sim::Time t = 0;
  auto step = [&](std::uint64_t lookups, std::uint64_t hits, std::uint64_t evicted, std::uint64_t resident) {
    p.cache_lookups += lookups;
    p.cache_hits += hits;
    p.evicted_units += evicted;
    p.resident_units = resident;
    t += settled.interval();
    return settled.sample(t, p);
  };
  CHECK_FALSE(step(100, 0, 0, 50));    // filling
  CHECK_FALSE(step(100, 20, 1, 100));  // full: the first eviction
  for (int i = 0; i < 6; ++i) CHECK_FALSE(step(100, 25, 10, 100));  // 60 of the 100 turned over
  CHECK_FALSE(step(100, 25, 30, 100));  // 90
  CHECK(step(100, 25, 10, 100));        // 100 >= the 100 resident at the fill, six flat intervals
  CHECK(settled.report().settled);
  CHECK(settled.report().full_at_s == 20);
  CHECK(models::WarmupMonitor(models::WarmupSpec{true, 0, 1000}, true).over_at_start());
  CHECK(models::WarmupMonitor(models::WarmupSpec{false, 0, 0}, false).over_at_start());
}

TEST_CASE("a warm-up settles on uniform random access at the LRU's hit ratio C/N") {
  const models::RunResult r = run(kLru);
  const models::WarmupReport& w = r.warmup;
  INFO(w.status);
  REQUIRE(w.settled);
  CHECK(w.mode == "settled");
  CHECK(w.took_s < 600);
  REQUIRE(w.full_at_s);
  CHECK(*w.full_at_s > 0);
  REQUIRE(w.intervals.size() >= 6);
  // Every settled interval is within its bound of C/N.
  for (std::size_t i = w.intervals.size() - models::WarmupMonitor::kTrendIntervals; i < w.intervals.size(); ++i) {
    const models::WarmupInterval& x = w.intervals[i];
    INFO("interval ending at " << x.end_s << " s, " << x.cache_lookups << " lookups");
    // The files resident are C less what the metadata holds of the 16 MiB.
    CHECK(std::fabs(x.cache_hit_ratio - kHitRatio * x.resident_frac) < bound(x.cache_lookups));
    CHECK(x.resident_frac > 0.85);
  }
  // So is the measured window, which starts warm.
  INFO("window: " << r.cache_lookups << " lookups");
  const double resident_frac = static_cast<double>(r.cache_resident_bytes) / static_cast<double>(r.cache_capacity_bytes);
  CHECK(std::fabs(r.cache_hit_ratio - kHitRatio * resident_frac) < bound(r.cache_lookups));
}

TEST_CASE("the measured window excludes the warm-up") {
  const models::RunResult cold = run(kLru, {"warmup=\"0s\""});
  const models::RunResult warm = run(kLru, {"warmup=\"60s\""});
  CHECK(cold.warmup.mode == "none");
  CHECK(warm.warmup.mode == "fixed");
  CHECK(warm.warmup.took_s == Approx(60).margin(1e-6));
  CHECK(warm.warmup.intervals.size() == 6);
  // The counts are the window's 20 s in both: counted from the start, the
  // warm run's would be four times the cold one's.
  CHECK(static_cast<double>(warm.clients[0].complete) == Approx(static_cast<double>(cold.clients[0].complete)).epsilon(0.1));
  CHECK(static_cast<double>(warm.cache_lookups) == Approx(static_cast<double>(cold.cache_lookups)).epsilon(0.1));
  CHECK(static_cast<double>(warm.disk_reads) == Approx(static_cast<double>(cold.disk_reads)).epsilon(0.1));
  CHECK(warm.clients[0].raw.count() == warm.clients[0].complete);
  for (const models::RunResult* r : {&cold, &warm}) {
    CHECK(r->nic_out_bytes_per_s.size() == 20);  // ifstat: the window's seconds only
    // wrk's and the server's counts are the window's: each request is
    // accounted for, and the same requests are counted on both sides.
    for (const auto& c : r->clients) {
      std::uint64_t failed = 0;
      for (const auto& [reason, n] : c.failed) failed += n;
      CHECK(c.issued == c.complete + failed + c.in_flight);
      CHECK(c.runtime_s == 20);
    }
    std::uint64_t requests = 0;
    for (const auto& wk : r->workers) {
      requests += wk.requests;
      // top's states are time averages over the window: they sum to one.
      CHECK(wk.running + wk.sleeping + wk.disk_wait == Approx(1).margin(1e-9));
    }
    CHECK(requests == r->server_requests);
    CHECK(r->server_requests <= r->clients[0].issued + r->clients[0].connections_open);
    CHECK(r->clients[0].issued <= r->server_requests + r->clients[0].connections_open);
    CHECK(r->disk_utilization <= 1.0);
  }
}

// Probe 5, finding 11: "never" was written as full_at_s = -1, a negative
// time that a sweep over seeds averaged with real ones.
TEST_CASE("a page cache that never filled has no fill time: null in the JSON, a figure a sweep may ask for") {
  models::WarmupMonitor fixed(models::WarmupSpec{false, 30, 0}, false);
  models::WarmupProbe p;
  p.capacity_units = 100;
  sim::Time t = 0;
  for (int i = 0; i < 20 && !fixed.over(); ++i) {
    p.cache_lookups += 10;
    p.resident_units += 10;  // filling, never evicting
    t += fixed.interval();
    fixed.sample(t, p);
  }
  REQUIRE(fixed.over());
  CHECK_FALSE(fixed.report().full_at_s);
  models::RunResult r;
  r.warmup = fixed.report();
  const nlohmann::ordered_json j = models::to_json(r, false);
  CHECK(j["warmup"]["full_at_s"].is_null());
  CHECK(j["warmup"]["resident_units_at_full"].is_null());
  CHECK_FALSE(models::json_metric(j, "warmup.full_at_s"));
  CHECK(models::json_has_figure(j, "warmup.full_at_s"));
  CHECK_FALSE(models::json_has_figure(j, "warmup.status"));  // a string, not a figure
  // Once it fills: the time and the units resident then.
  r.warmup.full_at_s = 20;
  r.warmup.resident_at_full = 100;
  const nlohmann::ordered_json filled = models::to_json(r, false);
  CHECK(models::json_metric(filled, "warmup.full_at_s") == 20);
  CHECK(models::json_metric(filled, "warmup.resident_units_at_full") == 100);
}

TEST_CASE("same seed, same output with a warm-up") {
  const auto a = models::to_json(run(kLru, {"warmup=\"30s\""}), false).dump();
  const auto b = models::to_json(run(kLru, {"warmup=\"30s\""}), false).dump();
  CHECK(a == b);
}

TEST_CASE("a bad warmup names file, line and key") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("clerk-warmup-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* bad : {"\"soon\"", "\"-5s\"", "true", "\"settled\"\nwarmup_max = \"1y\""}) {
    const fs::path f = dir / "bad.toml";
    std::ofstream(f) << "include = \"" << kLru << "\"\n# a comment\nwarmup = " << bad << "\n";
    try {
      models::load_scenario(f.string());
      FAIL("loaded: warmup = " << bad);
    } catch (const models::ConfigError& e) {
      INFO(e.what());
      CHECK(e.file() == f.string());
      CHECK(e.line() >= 3);
      CHECK((e.key() == "warmup" || e.key() == "warmup_max"));
    }
  }
  fs::remove_all(dir);
}
