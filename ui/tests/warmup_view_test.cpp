// A run with a warm-up, as the visualizer shows it (issue 22): the charts
// record the warm-up's seconds (its last one too, though the window's start
// resets wrk's figures), shade them as excluded, and from the window's start
// on show the window's own seconds, the ones `clerk run --json` reports.
// "Fast-forward to the measured window" plays the warm-up as fast as the
// budget allows and stops where the window begins.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "ui/app.h"
#include "ui/charts_view.h"

namespace {

const std::string kBlocking = std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml";

bool same(float ui_value, double model_value) {
  return (std::isnan(ui_value) && std::isnan(model_value)) || ui_value == static_cast<float>(model_value);
}

}  // namespace

TEST_CASE("a fixed warm-up is recorded, shaded, and the window's seconds are the window's") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {"warmup=\"3s\"", "duration=\"3s\""}));
  ui::run_to(app, 1.5);
  const ui::Recorder& r = app.a.recorder;
  CHECK(r.warming());
  CHECK(r.warmup_s() == Approx(1.5));
  ui::Shade s = ui::warmup_shade(app.a, nullptr);
  CHECK(s.until_s == Approx(1.5f));
  CHECK(s.label.find("so far") != std::string::npos);

  ui::run_to(app, 6.0);  // 3 s of warm-up, then the 3 s window
  models::World& w = *app.a.world;
  REQUIRE(w.measuring());
  CHECK(w.window_start() == sim::seconds(3));
  CHECK_FALSE(r.warming());
  CHECK(r.warmup_s() == Approx(3.0));
  s = ui::warmup_shade(app.a, nullptr);
  CHECK(s.until_s == Approx(3.0f));
  CHECK(s.label.find("excluded") != std::string::npos);

  REQUIRE(r.out_gbps.size() == 6);
  const models::Wrk& wrk = w.clients();
  float warmup_responses = 0;
  for (std::uint32_t g = 0; g < r.groups.size(); ++g) {
    const ui::GroupSeries& gs = r.groups[g];
    REQUIRE(gs.requests_per_s.size() == 6);
    // Seconds 3 to 5 are the window's 0 to 2, as clerk run --json has them.
    for (std::size_t i = 3; i < 6; ++i) {
      const models::SecondFigures f = wrk.group_second(g, i - 3);
      CHECK(gs.requests_per_s[i] == static_cast<float>(f.responses));
      CHECK(same(gs.latency_p99_s[i], f.latency_p99_s));
      CHECK(same(gs.latency_p50_s[i], f.latency_p50_s));
    }
    warmup_responses += gs.requests_per_s[2];
  }
  // The warm-up's last second, which ends where the window begins, kept its responses.
  CHECK(warmup_responses > 0);
  for (std::size_t i = 3; i < 6; ++i) CHECK(same(r.delayed_share[i], w.delayed_share_per_s()[i - 3]));
}

TEST_CASE("fast-forward plays the warm-up and stops at the window") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {"warmup=\"2s\"", "duration=\"2s\""}));
  app.to_window = true;
  int frames = 0;
  while (!app.a.world->measuring() && frames < 100000) {
    ui::advance(app, 1.0 / 60);
    ++frames;
  }
  REQUIRE(app.a.world->measuring());
  CHECK_FALSE(app.to_window);
  // It stops in the window's first 10 ms; then playback goes on at the chosen speed.
  CHECK(app.a.now() - app.a.world->window_start() < ui::kFineBin);
  CHECK(app.a.now() >= app.a.world->window_start());
  const sim::Time there = app.a.now();
  app.speed = 0.5f;
  ui::advance(app, 0.1);
  CHECK(app.a.now() == there + sim::milliseconds(50));
}

// --at and a lesson's "pause at" speak the measured window's time, as the
// report's figures do (issue 16): t = 0 where the warm-up ends, the warm-up
// negative; while a warm-up runs its end is not known and nothing is claimed.
TEST_CASE("the views' time is the measured window's: t = 0 where the warm-up ends") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {"warmup=\"3s\"", "duration=\"3s\""}));
  ui::run_to(app, 1.0);
  CHECK_FALSE(app.a.window_time(app.a.now()));  // warming: the window's start is not known yet
  CHECK(ui::warmup_shade(app.a, nullptr).zero_s == 0.0f);
  ui::run_to_window_time(app, 1.5);
  REQUIRE(app.a.world->measuring());
  CHECK(app.a.now() == sim::seconds(3) + sim::milliseconds(1500));  // 3 s of warm-up, then 1.5 s of the window
  CHECK(*app.a.window_time(app.a.now()) == Approx(1.5));
  CHECK(*app.a.window_time(sim::seconds(1)) == Approx(-2.0));  // the warm-up: negative
  CHECK(app.a.run_time(0.25) == sim::seconds(3) + sim::milliseconds(250));
  CHECK(ui::warmup_shade(app.a, nullptr).zero_s == Approx(3.0f));  // the charts count from there too
}

TEST_CASE("a cold start's window time is the run's time") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {"duration=\"2s\""}));  // clerk-ui starts cold unless told
  ui::run_to_window_time(app, 0.5);
  CHECK(app.a.now() == sim::milliseconds(500));
  CHECK(*app.a.window_time(app.a.now()) == Approx(0.5));
  CHECK(ui::warmup_shade(app.a, nullptr).zero_s == 0.0f);
}
