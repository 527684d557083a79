// Follow one customer (issue 16): one request's journey replayed in slow
// motion through the store picture, since a student follows one customer
// better than three hundred dots.
//
// The request is one the model kept with its journey, its stages in the
// order it went through them (models/net/request_stages.h, Journey): the
// exemplar of the latency bucket that holds p50 or p99 of a client group,
// or the group's worst response. Each leg becomes a stop at a place of the
// store (ui/store_layout.h):
//   street    wrk's side and the network, both ways;
//   door      the listen queue;
//   queue     waiting for the loop (behind a blocked loop, or a busy one);
//   bench     sendfile_max_chunk's 1 ms timer;
//   counter   the worker's handler on a CPU, its run-queue wait included
//             (the clerk waiting for a free desk); also io_uring's retry of
//             a read once its page is in (the kernel runs it as the worker's
//             task_work; the model charges its CPU to the ring's stand-in
//             pool, nowait_probe.h) and a read waiting for a ring entry;
//   team      a pool task waiting for, or served by, a pool thread (an NGINX
//             pool's, or io-wq's before Linux 5.9);
//   warehouse a disk read, captioned by who reads (the leg's Runner): the
//             clerk himself when the worker reads (his loop is blocked), the
//             delivery team when a pool thread does, the kernel's native AIO,
//             io_uring's page callback (5.9+) or a FreeBSD preload read when
//             nobody of the store waits in D for it (the clerk serves on);
//   shelves   memory reclaim;
//   dock      the response in the socket and the NIC.
// Who ran a leg is recorded with it (models/net/request_stages.h, Runner),
// never guessed from the legs around it: a task posted to an idle pool runs
// at the instant it is queued and leaves no pool-queue leg.
//
// Slow motion: every stop is on screen for at least kMinStopS, and the
// longest for kLongestStopS; the others in between in proportion to their
// real durations, so a stop twice as long as another lasts twice as long on
// screen unless both are at the floor. The real duration is printed beside
// it. Data first (journey_stops, screen_seconds, replay_at), drawn after,
// so that tests hold the stops to the request (ui/tests/replay_test.cpp).
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/net/request_stages.h"
#include "ui/store_layout.h"

namespace ui {

struct App;
struct Session;

enum class Place : std::uint8_t { kStreet, kDoor, kQueue, kBench, kCounter, kTeam, kWarehouse, kShelves, kDock };
const char* place_name(Place p);

struct JourneyStop {
  models::Stage stage = models::Stage::kCount;  // kCount: legs past the journey's cap, folded (see `folded`)
  Place place = Place::kStreet;
  double seconds = 0;   // real duration
  double part_s = 0;    // of which in RequestStages::split_into(stage) (behind a blocked loop, in a run queue)
  models::Runner runner = models::Runner::kLoop;  // who ran it
  std::uint32_t folded = 0;  // stage kCount: the legs it sums
};

// The journey's legs as stops, in order. Their seconds sum to the journey's total.
std::vector<JourneyStop> journey_stops(const models::Journey& j);

// The stop's caption: its place and real duration, then the stage in the
// store's words and the server's (a disk stop says who went), one line each.
std::vector<std::string> stop_caption(const JourneyStop& st);

inline constexpr double kMinStopS = 0.6;      // each stop stays long enough to read its caption
inline constexpr double kLongestStopS = 4.0;  // the longest stop's screen time
// Screen seconds of each stop (see the top).
std::vector<double> screen_seconds(const std::vector<JourneyStop>& stops);

struct ReplayAt {
  std::size_t stop = 0;  // the stop being shown
  double fraction = 0;   // how far into its screen time (0..1)
  bool done = false;     // past the last stop (shown at its end)
};
// Where the replay is `t` screen seconds after it started.
ReplayAt replay_at(const std::vector<double>& screen, double t);

// What the replay plays, and how far it has got.
struct Replay {
  bool active = false;
  std::string which = "p99";  // "p50", "p99" or "max"
  std::uint32_t group = 0;
  std::string group_name;
  double latency_s = 0;
  std::vector<JourneyStop> stops;
  std::vector<double> screen;
  double t = 0;        // screen seconds since it started
  bool paused = false;
  bool fixed = false;  // a headless capture: t stays where --replay-at put it
};

// The client group of `s`'s run named `name`; false with `error` (naming
// it and the groups there are) when it has none of that name.
bool client_group(const Session& s, const std::string& name, std::uint32_t& group, std::string& error);

// Starts the replay of `which` ("p50", "p99", "max") of `s`'s group `group`;
// false with `error` when there is no such group, or it has no journey yet
// (no response so far, or an engine that does not record stages).
bool start_replay(Replay& r, const Session& s, std::uint32_t group, const std::string& which, std::string& error);

// Screen seconds into `r` when its longest stop is half shown: the moment a
// headless capture shows (--replay-at longest, a lesson's replay capture).
double replay_midway(const Replay& r);

// Screen seconds the whole replay lasts (its stops' sum): --replay-at's
// upper bound.
double replay_length(const Replay& r);

// Where the customer stands at stop `i` of `r` (the store's places; at the
// first counter: a journey does not say which worker served it).
ImVec2 place_point(const StoreLayout& L, Place p);
// The place's box, ringed while the customer is there.
Box place_box(const StoreLayout& L, Place p);
// The customer's position at the replay's present moment: walking from the
// previous stop's place during the first kWalk of a stop, then standing.
ImVec2 customer_point(const Replay& r, const StoreLayout& L);

// The store and the charts dimmed, the customer, its place ringed, the
// caption (stage in the store's words and the server's, real duration) and
// the journey's stops; the replay's own buttons in a bar over the store.
// `dt`: real seconds since the last frame.
void draw_replay(App& app, float dt);
// "replay p99 stop 4/9 queue 512 300": the stop and the customer's position
// in framebuffer pixels (display pixels times sx, sy), for a capture's test.
std::string replay_text(const App& app, float sx, float sy);

}  // namespace ui
