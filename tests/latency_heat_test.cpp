// The latency heat map's bins (models/clients/wrk_result.h): fixed log bins,
// 10 a decade from 1 us, made by adding up sim::LatencyStats' own bins.
// Hand-checked on a few latencies; on whole runs, every second's column
// counts every response completed that second.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "models/clients/wrk_group.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"
#include "sim/latency_stats.h"

namespace {

const std::string kScenarios = std::string(CLERK_TEST_DATA) + "/../../scenarios";

}  // namespace

TEST_CASE("heat bins: edges are 10 a decade from 1 us") {
  CHECK(models::kHeatBins == 100);
  CHECK(models::heat_bin_lower_s(0) == Approx(1e-6));
  CHECK(models::heat_bin_lower_s(30) == Approx(1e-3));
  CHECK(models::heat_bin_lower_s(31) == Approx(1.2589e-3).epsilon(1e-4));
  CHECK(models::heat_bin_lower_s(60) == Approx(1.0));
  CHECK(models::heat_bin_lower_s(100) == Approx(1e4));
}

TEST_CASE("heat bins: a small case by hand") {
  // bin k holds [10^(k/10 - 6), 10^((k+1)/10 - 6)) s:
  //   1.5 ms: log10 = -2.824, k = floor(31.76) = 31 (1.259 .. 1.585 ms)
  //   2 ms:   log10 = -2.699, k = floor(33.01) = 33 (1.995 .. 2.512 ms)
  //   50 ms:  log10 = -1.301, k = floor(46.99) = 46 (39.8 .. 50.1 ms)
  sim::LatencyStats w;
  for (double s : {1.5e-3, 1.5e-3, 1.5e-3, 2e-3, 50e-3}) w.record(s);
  const models::LatencyBins c = models::heat_column(w);
  CHECK(c.first == 31);
  REQUIRE(c.counts.size() == 16);  // bins 31 .. 46, trimmed to the ones that hold responses at both ends
  CHECK(c.counts[0] == 3);
  CHECK(c.counts[1] == 0);
  CHECK(c.counts[2] == 1);
  CHECK(c.counts[15] == 1);
  CHECK(c.at(31) == 3);
  CHECK(c.at(33) == 1);
  CHECK(c.at(46) == 1);
  CHECK(c.at(30) == 0);
  CHECK(c.at(47) == 0);
  CHECK(c.total() == 5);
}

TEST_CASE("heat bins: what lies outside 1 us .. 10,000 s counts in the end bins") {
  sim::LatencyStats w;
  w.record(0.0);     // log(0): below the axis
  w.record(3e-7);    // below 1 us
  w.record(3.0);     // log10 = 0.477, k = floor(64.77) = 64
  w.record(2e4);     // above 10,000 s
  const models::LatencyBins c = models::heat_column(w);
  CHECK(c.first == 0);
  REQUIRE(c.counts.size() == 100);
  CHECK(c.at(0) == 2);
  CHECK(c.at(64) == 1);
  CHECK(c.at(99) == 1);
  CHECK(c.total() == w.count());
}

TEST_CASE("heat bins: an empty second has no column") {
  const sim::LatencyStats w;
  const models::LatencyBins c = models::heat_column(w);
  CHECK(c.counts.empty());
  CHECK(c.total() == 0);
  std::vector<sim::LatencyStats> none(1);
  CHECK(models::second_figures(none, none, 0).latency_bins.counts.empty());
  CHECK(models::second_figures(none, none, 5).latency_bins.counts.empty());  // past the windows
}

TEST_CASE("heat map invariant: each second's column sums to the responses completed that second") {
  for (const char* file : {"nginx-9x/blocking.toml", "cloudflare/blocking.toml"}) {
    INFO(file);
    const models::Scenario sc = models::load_scenario(kScenarios + "/" + file, {"warmup=\"0s\""});
    models::World w(sc, sc.seed, 3);
    w.run();
    const models::RunResult r = w.result(0);
    for (const models::WrkResult& g : r.clients) {
      INFO("group " << g.spec.name);
      REQUIRE(g.per_second.size() == 3);
      std::uint64_t all = 0;
      for (std::size_t s = 0; s < g.per_second.size(); ++s) {
        INFO("second " << s);
        const models::SecondFigures& f = g.per_second[s];
        CHECK(f.latency_bins.total() == f.responses);
        if (!f.latency_bins.counts.empty()) {  // trimmed: the end bins hold responses
          CHECK(f.latency_bins.counts.front() > 0);
          CHECK(f.latency_bins.counts.back() > 0);
          // The p50 lies in a bin that holds responses (within a fine bin of its edge).
          const double lo = models::heat_bin_lower_s(f.latency_bins.first);
          const double hi = models::heat_bin_lower_s(f.latency_bins.first + static_cast<std::uint32_t>(f.latency_bins.counts.size()));
          CHECK(f.latency_p50_s >= lo * 0.99);
          CHECK(f.latency_p50_s <= hi * 1.01);
        }
        all += f.responses;
      }
      // Only a response completing at exactly the run's end opens no second.
      CHECK(all <= g.complete);
    }
  }
}
