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
#include "ui/dim.h"
#include "ui/replay.h"

namespace {

using models::Runner;
using models::Stage;
using ui::Place;

bool has(const std::vector<std::string>& lines, const std::string& words) {
  for (const std::string& l : lines)
    if (l.find(words) != std::string::npos) return true;
  return false;
}

// Every stop of the kept journeys (p50, p99, max) of every group.
std::vector<ui::JourneyStop> kept_stops(const std::string& scenario, const std::vector<std::string>& sets, double seconds) {
  ui::App app;
  REQUIRE(ui::open_scenario(app, std::string(CLERK_SOURCE_DIR) + "/scenarios/" + scenario, sets));
  ui::run_to_window_time(app, seconds);
  std::vector<ui::JourneyStop> out;
  const models::Wrk& wrk = app.a.world->clients();
  for (std::uint32_t g = 0; g < wrk.groups(); ++g)
    for (const char* which : {"p50", "p99", "max"}) {
      ui::Replay r;
      std::string error;
      if (!ui::start_replay(r, app.a, g, which, error)) continue;
      out.insert(out.end(), r.stops.begin(), r.stops.end());
    }
  return out;
}

// The stages a read's mechanism (a pool, the kernel's AIO, io_uring, a
// preload) can run for a request: its queue, a CPU, the disk, reclaim.
// The network, the listen queue, the loop's waits, the timer and the
// socket are the loop's (or outside the server).
bool mechanism_stage(Stage s) {
  switch (s) {
    case Stage::kPoolQueue:
    case Stage::kRunQueue:
    case Stage::kCpu:
    case Stage::kDiskSlot:
    case Stage::kDiskMetadata:
    case Stage::kDiskData:
    case Stage::kReclaim: return true;
    default: return false;
  }
}

}  // namespace

TEST_CASE("a hand-made request's journey gives its stops in order, at their places, summing to its latency") {
  // A request served through a thread pool: the worker reads the request,
  // posts the read, the pool thread reads the disk, the loop sends.
  models::RequestStages st;
  st.begin(7, 0, 0);
  st.to(7, Stage::kBacklog, 50000);                 // 50 us on the network
  st.to(7, Stage::kLoopBusy, 60000, 0, 1.0);        // 10 us at the door
  st.to(7, Stage::kCpu, 3060000, 1.002, 0.5);       // 3 ms for the loop, 2 ms of them behind a blocked loop
  st.to(7, Stage::kPoolQueue, 3080000, 0.5, 0, Runner::kPool);     // 20 us on a CPU
  st.to(7, Stage::kCpu, 3580000, 0, 0.25, Runner::kPool);          // 0.5 ms waiting for a pool thread
  st.to(7, Stage::kDiskData, 3590000, 0.25, 0, Runner::kPool);     // 10 us of the pool thread's CPU
  st.to(7, Stage::kLoopBusy, 11590000, 0, 2.0);                    // 8 ms in the warehouse
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
  CHECK(stops[6].runner == Runner::kPool);  // the pool thread read it, not the clerk
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
  CHECK(own[2].runner == models::Runner::kLoop);
  CHECK(ui::stop_caption(own[2])[1].find("the clerk himself goes") != std::string::npos);
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

TEST_CASE("a read posted to an idle pool and run at the same instant is the delivery team's, not the clerk's") {
  // ThreadPool::post queues the task and an idle thread takes it at the same
  // instant: a pool-queue leg of 0 ns. The pool thread's CPU and read are
  // the team's (before, they were joined onto the worker's CPU leg, and the
  // read was captioned as the clerk's).
  models::RequestStages st;
  st.begin(1, 0, 0);
  st.to(1, Stage::kLoopBusy, 50000);
  st.to(1, Stage::kCpu, 60000);
  st.to(1, Stage::kPoolQueue, 80000, 0, 0, Runner::kPool);  // posted after 20 us of the worker's CPU
  st.to(1, Stage::kCpu, 80000, 0, 0, Runner::kPool);        // and taken at once
  st.to(1, Stage::kDiskData, 90000, 0, 0, Runner::kPool);
  st.to(1, Stage::kLoopBusy, 8090000, 0, 0, Runner::kLoop);
  st.to(1, Stage::kCpu, 8100000);
  st.to(1, Stage::kSocket, 8130000);
  st.to(1, Stage::kNetwork, 9130000);
  const std::vector<ui::JourneyStop> stops = ui::journey_stops(st.end(1, 9180000)->journey);
  const std::vector<Place> places = {Place::kStreet,  Place::kQueue,   Place::kCounter, Place::kTeam, Place::kWarehouse,
                                     Place::kQueue,   Place::kCounter, Place::kDock,    Place::kStreet};
  const std::vector<double> ms = {0.05, 0.01, 0.02, 0.01, 8, 0.01, 0.03, 1, 0.05};
  REQUIRE(stops.size() == places.size());
  for (std::size_t i = 0; i < stops.size(); ++i) {
    INFO("stop " << i);
    CHECK(stops[i].place == places[i]);
    CHECK(stops[i].seconds * 1e3 == Approx(ms[i]).epsilon(1e-9));
  }
  CHECK(stops[3].runner == Runner::kPool);
  CHECK(stops[4].runner == Runner::kPool);
  const std::vector<std::string> cap = ui::stop_caption(stops[4]);
  CHECK(has(cap, "the delivery team goes"));
  CHECK_FALSE(has(cap, "the clerk himself"));
  CHECK(has(cap, "a pool thread in D"));
}

TEST_CASE("a native AIO read, an io_uring page callback and a FreeBSD preload are captioned as the kernel's, not the clerk's") {
  for (const Runner runner : {Runner::kAio, Runner::kUring, Runner::kPreload}) {
    models::RequestStages st;
    st.begin(0, 0, 0);
    st.to(0, Stage::kCpu, 1000);
    st.to(0, Stage::kDiskData, 2000, 0, 0, runner);  // submitted (io_submit, or the preload's aio_read / sendfile's own read)
    st.to(0, Stage::kLoopBusy, 9000);                // the completion is an event for the loop
    st.to(0, Stage::kCpu, 9500);
    const std::vector<ui::JourneyStop> stops = ui::journey_stops(st.end(0, 10000)->journey);
    REQUIRE(stops.size() == 5);
    CHECK(stops[2].place == Place::kWarehouse);
    CHECK(stops[2].runner == runner);
    const std::vector<std::string> cap = ui::stop_caption(stops[2]);
    CHECK_FALSE(has(cap, "the clerk himself"));
    CHECK_FALSE(has(cap, "a pool thread"));
    CHECK_FALSE(has(cap, "delivery team"));
    CHECK(has(cap, "the clerk serves on"));
    CHECK(has(cap, runner == Runner::kAio ? "native AIO" : runner == Runner::kUring ? "io_uring" : "preload"));
  }
}

TEST_CASE("io_uring's words (a ring entry, the task_work retry) caption its queue, run queue and CPU stops, not a reclaim") {
  models::RequestStages st;
  st.begin(0, 0, 0);
  st.to(0, Stage::kPoolQueue, 1000, 0, 0, Runner::kUring);
  st.to(0, Stage::kReclaim, 2000, 0, 0, Runner::kUring);  // the page cache made room for the read
  st.to(0, Stage::kDiskData, 3000, 0, 0, Runner::kUring);
  st.to(0, Stage::kRunQueue, 5000, 0, 0, Runner::kUring);  // the retry's task_work waits for the worker's CPU
  st.to(0, Stage::kCpu, 6000, 0, 0, Runner::kUring);
  st.to(0, Stage::kCpu, 7000);
  const std::vector<ui::JourneyStop> stops = ui::journey_stops(st.end(0, 8000)->journey);
  REQUIRE(stops.size() == 7);  // the network's stop first
  REQUIRE(stops[2].stage == Stage::kReclaim);
  REQUIRE(stops[2].runner == Runner::kUring);
  const std::vector<std::string> reclaim = ui::stop_caption(stops[2]);
  CHECK_FALSE(has(reclaim, "io_uring"));
  CHECK_FALSE(has(reclaim, "unpacking what the warehouse sent"));
  const models::StageInfo& info = models::stage_info(Stage::kReclaim);
  CHECK(has(reclaim, std::string("store: ") + info.store));
  CHECK(has(reclaim, std::string("server: ") + info.server));
  CHECK(has(ui::stop_caption(stops[1]), "io_uring: every ring entry in flight"));
  for (const std::size_t i : {std::size_t{4}, std::size_t{5}}) {
    INFO("stop " << i);
    REQUIRE(stops[i].runner == Runner::kUring);
    CHECK(has(ui::stop_caption(stops[i]), "io_uring's retry of the read"));
  }
}

TEST_CASE("in whole runs, who reads a file's data is the mechanism's: a pool thread, native AIO, io_uring, the preload") {
  // Light load, one worker: the pool is idle when a read is posted (the case
  // that joined the pool's legs onto the worker's). Every leg of the kept
  // journeys is checked for its runner: the worker's loop or the
  // mechanism's, and the mechanism's only where it can run one (its queue,
  // a CPU, the disk); every file-data read is the mechanism's, none the
  // worker's own. io_uring on Linux 5.15 waits on page callbacks, with no
  // thread in D (before, its legs were a pool thread's); on 5.4 its misses
  // go to io-wq's workers, a pool (models/server/nowait_probe.h).
  const std::vector<std::string> light = {"duration=\"1s\"", "warmup=\"0s\"", "nginx.worker_processes=1", "clients.constant.threads=1",
                                          "clients.constant.connections=2", "clients.random.threads=1", "clients.random.connections=2"};
  struct Case {
    const char* scenario;
    Runner runner;
    const char* release;  // [kernel] release set, or nullptr
  };
  for (const Case& c : {Case{"nginx-9x/threads.toml", Runner::kPool, nullptr},
                        Case{"alternatives/native-aio-directio.toml", Runner::kAio, nullptr},
                        Case{"alternatives/freebsd-aio.toml", Runner::kPreload, nullptr},
                        Case{"alternatives/io-uring.toml", Runner::kUring, nullptr},
                        Case{"alternatives/io-uring.toml", Runner::kPool, "kernel.release=\"5.4.0\""}}) {
    INFO(c.scenario << " " << (c.release ? c.release : ""));
    std::vector<std::string> sets = light;
    if (c.release) sets.push_back(c.release);
    std::size_t data = 0;
    for (const ui::JourneyStop& st : kept_stops(c.scenario, sets, 1.0)) {
      if (st.stage == Stage::kCount) continue;  // a folded stop sums legs of either
      INFO("stage " << models::stage_info(st.stage).key << " runner " << static_cast<int>(st.runner));
      CHECK((st.runner == Runner::kLoop || st.runner == c.runner));
      if (st.runner != Runner::kLoop) CHECK(mechanism_stage(st.stage));
      if (st.stage == Stage::kPoolQueue) CHECK(st.runner == c.runner);
      const std::vector<std::string> cap = ui::stop_caption(st);
      if (c.runner == Runner::kUring) {
        CHECK(st.place != Place::kTeam);  // no delivery team: nobody waits in D
        CHECK_FALSE(has(cap, ", a pool thread"));  // the runner's words (a CPU stop's own say "worker or pool thread")
        CHECK_FALSE(has(cap, "delivery team"));
      }
      if (st.stage != Stage::kDiskData) continue;
      ++data;
      CHECK(st.runner == c.runner);
      CHECK_FALSE(has(cap, "the clerk himself"));
    }
    CHECK(data > 0);
  }
}

TEST_CASE("the folded stop says how many legs it sums") {
  models::Journey j;
  for (std::size_t i = 0; i < models::Journey::kLegs + 5; ++i) j.add(i % 2 ? Stage::kCpu : Stage::kTimer, Runner::kLoop, 1000, 0);
  const std::vector<ui::JourneyStop> stops = ui::journey_stops(j);
  REQUIRE(stops.size() == models::Journey::kLegs);
  REQUIRE(stops.back().stage == Stage::kCount);
  CHECK(stops.back().folded == 6);  // the 24th leg and the five after it
  const std::vector<std::string> cap = ui::stop_caption(stops.back());
  CHECK(has(cap, "the last 6 legs, summed: 0.006 ms"));
  CHECK(has(cap, "keeps 23 legs apart"));
}

TEST_CASE("a replay of a group the run does not have is refused, not another group's") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml",
                            {"duration=\"1s\"", "warmup=\"0s\"", "nginx.worker_processes=1", "clients.constant.threads=1",
                             "clients.constant.connections=2", "clients.random.threads=1", "clients.random.connections=2"}));
  ui::run_to_window_time(app, 0.5);
  std::uint32_t g = 99;
  std::string error;
  REQUIRE(ui::client_group(app.a, "random", g, error));
  CHECK(app.a.world->clients().group_spec(g).name == "random");
  CHECK_FALSE(ui::client_group(app.a, "randum", g, error));
  CHECK(error == "'randum': no client group of that name in this run (its groups: constant, random)");
  ui::Replay r;
  CHECK_FALSE(ui::start_replay(r, app.a, 7, "p50", error));
  CHECK(error.find("no client group 7") != std::string::npos);
  CHECK_FALSE(r.active);
}

TEST_CASE("the display dimmed outside some boxes: cells that cover the rest exactly, none over a kept box") {
  const ImVec2 display(800, 600);
  const std::vector<ui::Box> keep = {ui::Box{ImVec2(100, 50), ImVec2(300, 250)}, ui::Box{ImVec2(500, 400), ImVec2(900, 700)}};
  const std::vector<ui::Box> cells = ui::cells_outside(display, keep);
  double area = 0;
  for (const ui::Box& c : cells) {
    area += static_cast<double>(c.w()) * static_cast<double>(c.h());
    for (const ui::Box& k : keep) {
      const bool apart = c.max.x <= k.min.x || c.min.x >= k.max.x || c.max.y <= k.min.y || c.min.y >= k.max.y;
      CHECK(apart);
    }
  }
  // The display less the first box and the part of the second inside it (300 x 200).
  CHECK(area == Approx(800.0 * 600 - 200.0 * 200 - 300.0 * 200));
  CHECK(ui::cells_outside(display, {}).size() == 1);
  CHECK(ui::cells_outside(display, {ui::Box{ImVec2(-10, -10), ImVec2(900, 900)}}).empty());
}
