// Where one request's time went, as the latency percentiles tab shows it
// (ui/stage_split.h): the bar's durations are one real request's exact
// split and sum to its latency within 1 us, on a hand-worked aggregate and
// on the 9x and Cloudflare scenarios; the request is one of the curve's, at
// the percentile picked.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ui/app.h"
#include "ui/stage_split.h"
#include "ui/tails_view.h"

namespace {

using models::Stage;

models::StageSplit split_of(sim::Time cpu, sim::Time disk, sim::Time network) {
  models::StageSplit s{};
  s[static_cast<std::size_t>(Stage::kCpu)] = cpu;
  s[static_cast<std::size_t>(Stage::kDiskData)] = disk;
  s[static_cast<std::size_t>(Stage::kNetwork)] = network;
  return s;
}

double seconds_in(const ui::StageBar& bar, Stage st) {
  for (const ui::StageSegment& s : bar.segments)
    if (s.stage == st) return s.seconds;
  return 0;
}

}  // namespace

TEST_CASE("the bar is one request's split, stage by stage, summing to its latency") {
  models::StageAggregate agg;
  // Three requests far apart (separate buckets): 1 ms, 20 ms, 900 ms.
  agg.record(sim::milliseconds(10), sim::milliseconds(1), split_of(sim::microseconds(900), 0, sim::microseconds(100)));
  agg.record(sim::milliseconds(20), sim::milliseconds(20), split_of(sim::milliseconds(2), sim::milliseconds(17), sim::milliseconds(1)));
  agg.record(sim::milliseconds(30), sim::milliseconds(900), split_of(sim::milliseconds(1), sim::milliseconds(898), sim::milliseconds(1)));

  const ui::StageBar p50 = ui::stage_bar(agg, 50, false);  // rank 2 of 3: the 20 ms request
  CHECK(p50.what == "p50");
  CHECK(p50.latency_s == Approx(0.020));
  REQUIRE(p50.segments.size() == 3);  // only the stages it spent time in, in stage order
  CHECK(p50.segments[0].stage == Stage::kNetwork);
  CHECK(p50.segments[1].stage == Stage::kCpu);
  CHECK(p50.segments[2].stage == Stage::kDiskData);
  CHECK(seconds_in(p50, Stage::kDiskData) == Approx(0.017));
  CHECK(std::fabs(ui::bar_total(p50) - p50.latency_s) < 1e-6);

  const ui::StageBar low = ui::stage_bar(agg, 10, false);
  CHECK(low.latency_s == Approx(0.001));
  CHECK(seconds_in(low, Stage::kDiskData) == 0);
  const ui::StageBar worst = ui::stage_bar(agg, 0, true);
  CHECK(worst.what == "max");
  CHECK(worst.latency_s == Approx(0.9));
  CHECK(seconds_in(worst, Stage::kDiskData) == Approx(0.898));

  // The legend says each stage's duration with its unit and its share.
  const std::vector<std::string> legend = ui::bar_legend(p50);
  REQUIRE(legend.size() == 3);
  CHECK(legend[2] == std::string(models::stage_info(Stage::kDiskData).server) + ": 17 ms (85%)");
  CHECK(legend[0].find("1 ms (5%)") != std::string::npos);

  CHECK(ui::stage_bar(models::StageAggregate{}, 99, false).empty());
}

TEST_CASE("a click on the curve picks the percentile under it, and labels name it") {
  CHECK(ui::percentile_at(0) == 0);
  CHECK(ui::percentile_at(0.25) == Approx(90));
  CHECK(ui::percentile_at(0.5) == Approx(99));
  CHECK(ui::percentile_at(0.75) == Approx(99.9));
  CHECK(ui::percentile_at(1) == Approx(99.99));
  CHECK(ui::percentile_at(2) == Approx(99.99));  // past the axis: its end
  CHECK(ui::percentile_label(50) == "p50");
  CHECK(ui::percentile_label(99.9) == "p99.9");
  CHECK(ui::percentile_label(99.37) == "p99.37");
}

TEST_CASE("on the 9x and Cloudflare runs, each picked request's bar sums to its latency within 1 us") {
  for (const char* rel : {"nginx-9x/blocking.toml", "cloudflare/blocking.toml", "cloudflare/read-offload.toml"}) {
    INFO(rel);
    ui::App app;
    REQUIRE(ui::open_scenario(app, std::string(CLERK_SOURCE_DIR) + "/scenarios/" + rel, {"duration=\"3s\""}));
    ui::run_to(app, 3.0);
    const models::Wrk& wrk = app.a.world->clients();
    int bars = 0;
    for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
      REQUIRE(wrk.group_stages(g) != nullptr);
      const models::StageAggregate& agg = *wrk.group_stages(g);
      const sim::LatencyStats& raw = wrk.group_latency(g);
      INFO(wrk.group_spec(g).name);
      CHECK(agg.count() == raw.count());  // the split's requests are the curve's
      if (raw.count() == 0) continue;
      for (double p : {50.0, 90.0, 99.0, 99.9, 37.25}) {
        INFO(p);
        const ui::StageBar bar = ui::stage_bar(agg, p, false);
        REQUIRE_FALSE(bar.empty());
        CHECK(std::fabs(ui::bar_total(bar) - bar.latency_s) < 1e-6);
        // A request of that percentile: within its 4.4%-wide bucket of the
        // curve's value (itself the upper edge of a bin under 1% wide).
        const double at = raw.percentile(p);
        CHECK(std::fabs(bar.latency_s - at) <= 0.06 * at + 2e-6);
        ++bars;
      }
      const ui::StageBar worst = ui::stage_bar(agg, 0, true);
      CHECK(std::fabs(ui::bar_total(worst) - worst.latency_s) < 1e-6);
      CHECK(worst.latency_s == Approx(raw.max()).epsilon(1e-9));
    }
    CHECK(bars >= 5);
  }
}
