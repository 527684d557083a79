// The visualizer's playback logic without a window: stepping within a
// budget, replaying new settings up to the present, the A/B comparison on
// the same random draws, and what the Recorder samples.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ui/app.h"

namespace {

const std::string kBlocking = std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml";

// Plays frames of `dt` real seconds until `done` or a frame limit.
template <typename Done>
int frames_until(ui::App& app, double dt, Done done, int limit = 100000) {
  int n = 0;
  while (!done() && n < limit) {
    ui::advance(app, dt);
    ++n;
  }
  return n;
}

bool replaying(const ui::App& app) {
  return app.a.replay_to > app.a.now() || (app.ab && app.b.replay_to > app.b.now());
}

}  // namespace

TEST_CASE("playback advances by speed times real time, and a step by the step") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  app.speed = 0.5f;
  ui::advance(app, 0.1);
  CHECK(app.a.now() == sim::milliseconds(50));
  app.playing = false;
  ui::advance(app, 0.1);
  CHECK(app.a.now() == sim::milliseconds(50));
  app.pending_step_s = 0.01;
  ui::advance(app, 0.1);
  CHECK(app.a.now() == sim::milliseconds(60));
}

TEST_CASE("the recorder samples every 10 ms and closes a chart point every second") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 3.0);
  const ui::Recorder& r = app.a.recorder;
  CHECK(r.fine_count() == 300);
  CHECK(r.out_gbps.size() == 3);
  REQUIRE(r.groups.size() == 2);
  CHECK(r.groups[0].requests_per_s.size() == 3);
  // Without a pool the workers spend these seconds in disk wait (the 9x picture).
  const float* f = r.worker_states(250, 0);
  CHECK(f[0] + f[1] + f[2] == Approx(1.0).margin(1e-3));
  CHECK(r.workers_disk_wait.back() > 8.0f);
}

TEST_CASE("apply now replays the same seed with the new settings up to the present") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 2.0);
  app.edit_a.aio = static_cast<int>(models::aio_mode_index(models::find_aio_mode("threads")));
  ui::restart_sessions(app, true);
  CHECK(app.a.now() == 0);
  CHECK(app.a.replay_to == sim::seconds(2));
  const int frames = frames_until(app, 0.016, [&] { return !replaying(app); });
  CHECK(frames < 100000);
  CHECK(app.a.now() == sim::seconds(2));
  CHECK(app.a.recorder.fine_count() == 200);
  CHECK(app.a.scenario.nginx.aio->thread_pool);
  CHECK(std::as_const(app.a.world->server()).worker(0).pool() != nullptr);
  // (Whether the workers sleep with the pool is not checked at 2 s: from a
  // cold start every worker is in D in open()'s metadata reads either way.)
}

TEST_CASE("A/B on the same seed: identical settings give identical runs, B catches up with A") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 1.5);
  app.edit_b = app.edit_a;  // B the same as A
  ui::set_ab(app, true);
  CHECK(app.b.now() == 0);
  frames_until(app, 0.016, [&] { return !replaying(app); });
  CHECK(app.b.now() == app.a.now());
  ui::run_to(app, 3.0);
  CHECK(app.a.recorder.out_gbps == app.b.recorder.out_gbps);
  CHECK(app.a.recorder.groups[1].requests_per_s == app.b.recorder.groups[1].requests_per_s);
}

TEST_CASE("as fast as possible, A waits for a B that falls behind: the two stay in step") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::set_ab(app, true);  // B without aio threads, A with
  app.playing = true;
  app.fastest = true;
  // B behind A, as a frame's budget can leave it when B is slower to simulate.
  app.a.advance(sim::milliseconds(300), ui::Clock::time_point::max());
  REQUIRE(app.b.now() < app.a.now());
  const sim::Time a_before = app.a.now();
  while (app.b.now() < a_before) {
    ui::advance(app, 1.0 / 60);
    CHECK(app.a.now() == a_before);  // A does not go on while B catches up
  }
  CHECK(app.b.now() == a_before);
  ui::advance(app, 1.0 / 60);  // then both go on, B never past A
  CHECK(app.a.now() > a_before);
  CHECK(app.b.now() <= app.a.now());
}

TEST_CASE("a bad scenario leaves the sessions alone and names the file") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 0.5);
  CHECK_FALSE(ui::open_scenario(app, "/nonexistent/x.toml", {}));
  CHECK(app.error.find("/nonexistent/x.toml") != std::string::npos);
  CHECK(app.a.now() == sim::milliseconds(500));
}

// Issue 22: the charts read the model's per-second statistics, every
// response as it completed; a second without responses is NaN, not 0.
TEST_CASE("a second's figures come from its responses, a second without any has none") {
  std::vector<sim::LatencyStats> lat(3), ttfb(3);
  lat[0].record(0.100);
  lat[0].record(0.300);
  ttfb[0].record(0.050);
  const models::SecondFigures f = models::second_figures(lat, ttfb, 0);
  CHECK(f.responses == 2);
  CHECK(f.latency_mean_s == Approx(0.2));
  CHECK(f.latency_p99_s == Approx(0.3).epsilon(0.01));  // the exact maximum clamps the top bin
  CHECK(f.ttfb_count == 1);
  for (std::size_t second : {std::size_t{1}, std::size_t{7}}) {  // empty, and past the last window
    const models::SecondFigures none = models::second_figures(lat, ttfb, second);
    CHECK(none.responses == 0);
    CHECK(std::isnan(none.latency_p50_s));
    CHECK(std::isnan(none.latency_p99_s));
    CHECK(std::isnan(none.ttfb_p99_s));
  }
}

TEST_CASE("the recorder's latency series are the model's per-second figures, gaps included") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 3.0);
  const ui::Recorder& r = app.a.recorder;
  const models::Wrk& wrk = app.a.world->clients();
  REQUIRE(r.groups.size() == 2);
  for (std::uint32_t g = 0; g < 2; ++g) {
    REQUIRE(r.groups[g].latency_p99_s.size() == 3);
    for (std::size_t s = 0; s < 3; ++s) {
      const models::SecondFigures f = wrk.group_second(g, s);
      CHECK(r.groups[g].requests_per_s[s] == static_cast<float>(f.responses));
      if (f.responses == 0) CHECK(std::isnan(r.groups[g].latency_p99_s[s]));
      else CHECK(r.groups[g].latency_p99_s[s] == static_cast<float>(f.latency_p99_s));
    }
  }
  // A 4 MiB response from disk, behind 16 blocked workers, takes over a
  // second: nothing completes in the first one, which is a gap, not 0 s.
  CHECK(r.groups[1].requests_per_s[0] == 0);
  CHECK(std::isnan(r.groups[1].latency_p50_s[0]));
}
