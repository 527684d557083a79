// Follow one customer (ui/replay.h): a request's journey becomes its stops
// in the order it went through them, each at its place of the store, their
// durations summing to its latency; the slow motion's screen times follow
// from the real durations; and on the blocked-clerk runs the journeys the
// model keeps (p50, p99, max) sum to their latencies.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "ui/app.h"
#include "ui/replay.h"

namespace {

using models::Stage;
using ui::Place;

}  // namespace

TEST_CASE("a hand-made request's journey gives its stops in order, at their places, summing to its latency") {
  // A request served through a thread pool: the worker reads the request,
  // posts the read, the pool thread reads the disk, the loop sends.
  models::RequestStages st;
  st.begin(7, 0, 0);
  st.to(7, Stage::kBacklog, 50000);                 // 50 us on the network
  st.to(7, Stage::kLoopBusy, 60000, 0, 1.0);        // 10 us at the door
  st.to(7, Stage::kCpu, 3060000, 1.002, 0.5);       // 3 ms for the loop, 2 ms of them behind a blocked loop
  st.to(7, Stage::kPoolQueue, 3080000, 0.5);        // 20 us on a CPU
  st.to(7, Stage::kCpu, 3580000, 0, 0.25);          // 0.5 ms waiting for a pool thread
  st.to(7, Stage::kDiskData, 3590000, 0.25);        // 10 us of the pool thread's CPU
  st.to(7, Stage::kLoopBusy, 11590000, 0, 2.0);     // 8 ms in the warehouse
  st.to(7, Stage::kCpu, 11600000, 2.0, 0.75);       // 10 us for the loop, none behind a blocked one
  st.to(7, Stage::kSocket, 11630000, 0.75);         // 30 us on a CPU
  st.to(7, Stage::kNetwork, 12630000);              // 1 ms in the socket
  const models::RequestStages::Clock* c = st.end(7, 12680000);  // 50 us back on the network
  REQUIRE(c != nullptr);
  const std::vector<ui::JourneyStop> stops = ui::journey_stops(c->journey);
  const std::vector<Stage> stages = {Stage::kNetwork, Stage::kBacklog,  Stage::kLoopBusy, Stage::kCpu,    Stage::kPoolQueue, Stage::kCpu,
                                     Stage::kDiskData, Stage::kLoopBusy, Stage::kCpu,     Stage::kSocket, Stage::kNetwork};
  const std::vector<Place> places = {Place::kStreet,    Place::kDoor,  Place::kQueue,   Place::kCounter, Place::kTeam, Place::kTeam,
                                     Place::kWarehouse, Place::kQueue, Place::kCounter, Place::kDock,    Place::kStreet};
  const std::vector<double> ms = {0.05, 0.01, 3, 0.02, 0.5, 0.01, 8, 0.01, 0.03, 1, 0.05};
  REQUIRE(stops.size() == stages.size());
  double sum = 0;
  for (std::size_t i = 0; i < stops.size(); ++i) {
    INFO("stop " << i);
    CHECK(stops[i].stage == stages[i]);
    CHECK(stops[i].place == places[i]);
    CHECK(stops[i].seconds * 1e3 == Approx(ms[i]).epsilon(1e-9));
    sum += stops[i].seconds;
  }
  CHECK(stops[2].part_s * 1e3 == Approx(2.0).epsilon(1e-9));  // behind the blocked loop
  CHECK(stops[6].by_team);                                     // the pool thread read it, not the clerk
  CHECK(sum == Approx(12.68e-3).epsilon(1e-12));

  // The same read by the worker itself: the clerk goes to the warehouse.
  models::RequestStages w;
  w.begin(0, 0, 0);
  w.to(0, Stage::kCpu, 1000);
  w.to(0, Stage::kDiskData, 2000);
  w.to(0, Stage::kCpu, 5000);
  const std::vector<ui::JourneyStop> own = ui::journey_stops(w.end(0, 6000)->journey);
  REQUIRE(own.size() == 4);
  CHECK(own[1].place == Place::kCounter);
  CHECK(own[2].place == Place::kWarehouse);
  CHECK_FALSE(own[2].by_team);
}

TEST_CASE("slow motion: each stop at least the floor, the longest the ceiling, the rest in proportion") {
  std::vector<ui::JourneyStop> stops(4);
  stops[0].seconds = 0.001;
  stops[1].seconds = 0.100;
  stops[2].seconds = 0.00001;
  stops[3].seconds = 0.050;
  const std::vector<double> screen = ui::screen_seconds(stops);
  REQUIRE(screen.size() == 4);
  CHECK(screen[0] == Approx(ui::kMinStopS));  // 1 ms would be 0.04 s: raised to the floor
  CHECK(screen[1] == Approx(ui::kLongestStopS));
  CHECK(screen[2] == Approx(ui::kMinStopS));
  CHECK(screen[3] == Approx(ui::kLongestStopS / 2));  // half the longest's real time, half its screen time
  // Where the replay is: stop by stop, in order, then done at the last.
  CHECK(ui::replay_at(screen, 0).stop == 0);
  CHECK(ui::replay_at(screen, 0.59).stop == 0);
  const ui::ReplayAt mid = ui::replay_at(screen, ui::kMinStopS + ui::kLongestStopS / 2);
  CHECK(mid.stop == 1);
  CHECK(mid.fraction == Approx(0.5));
  CHECK_FALSE(mid.done);
  CHECK(ui::replay_at(screen, 2 * ui::kMinStopS + ui::kLongestStopS + 0.1).stop == 3);
  const ui::ReplayAt end = ui::replay_at(screen, 100);
  CHECK(end.done);
  CHECK(end.stop == 3);
  CHECK(ui::replay_at({}, 1).done);
}

TEST_CASE("on the blocked-clerk run, the kept journeys sum to their latencies and the p99 customer waits behind the blocked clerk") {
  // Lesson 1's step 2: one worker, the popular item's customers behind
  // another customer's disk reads, after the scenario's settled warm-up (a
  // cold start's p99 customers wait longest at the door instead: the
  // blocked loop accepts no connection either).
  ui::App app;
  REQUIRE(ui::open_scenario(app, std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml",
                            {"duration=\"2s\"", "warmup=\"settled\"", "nginx.worker_processes=1", "clients.constant.threads=1", "clients.constant.connections=4",
                             "clients.random.threads=1", "clients.random.connections=4"}));
  ui::run_to_window_time(app, 2.0);
  const models::Wrk& wrk = app.a.world->clients();
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    INFO(wrk.group_spec(g).name);
    for (const char* which : {"p50", "p99", "max"}) {
      INFO(which);
      ui::Replay r;
      std::string error;
      REQUIRE(ui::start_replay(r, app.a, g, which, error));
      double sum = 0;
      for (const ui::JourneyStop& s : r.stops) sum += s.seconds;
      CHECK(std::fabs(sum - r.latency_s) < 1e-6);
      CHECK(r.screen.size() == r.stops.size());
      CHECK(r.stops.front().place == Place::kStreet);  // from the street
      CHECK(r.stops.back().place == Place::kStreet);   // and back
    }
  }
  ui::Replay r;
  std::string error;
  REQUIRE(ui::start_replay(r, app.a, 0, "p99", error));
  REQUIRE(r.group_name == "constant");
  // Its longest stop: in the queue, nearly all of it behind the clerk gone
  // to the warehouse for someone else; and, over the whole journey, the
  // waits for the loop (in the queue, and on the bench between chunks) are
  // mostly behind the blocked clerk.
  std::size_t longest = 0;
  double blocked = 0, waits = 0;
  for (std::size_t i = 0; i < r.stops.size(); ++i) {
    const ui::JourneyStop& s = r.stops[i];
    if (s.seconds > r.stops[longest].seconds) longest = i;
    if (s.place == Place::kQueue || s.place == Place::kBench) blocked += s.part_s, waits += s.seconds;
  }
  INFO("longest stop " << longest << " of " << r.stops.size() << ": " << r.stops[longest].seconds << " s; blocked " << blocked
                       << " s of " << waits << " s of waits, latency " << r.latency_s << " s");
  CHECK(r.stops[longest].place == Place::kQueue);
  CHECK(r.stops[longest].part_s > 0.9 * r.stops[longest].seconds);
  CHECK(blocked > waits / 2);
}
