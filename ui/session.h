// One simulation as the visualizer runs it: a scenario (with the user's knob
// changes), the World that `clerk run` would build from it, and the
// Recorder that samples it. Nothing here models anything: the World does.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "models/scenario/scenario.h"
#include "models/scenario/world.h"
#include "ui/recorder.h"

namespace ui {

using Clock = std::chrono::steady_clock;

struct Session {
  explicit Session(std::string name) : label(std::move(name)) {}
  std::string label;            // "A", "B"
  std::string config;           // in A/B: its settings that differ from the other's ("aio threads"); else ""
  models::Scenario scenario;    // what the World was built from
  std::uint64_t seed = 1;
  std::unique_ptr<models::World> world;
  Recorder recorder;
  sim::Time replay_to = 0;      // > now while catching up after "apply now"

  // Builds a fresh World at t = 0 from `scenario` and `seed`.
  void restart();
  sim::Time now() const { return world ? world->engine().now() : 0; }
  sim::Time end() const { return world ? world->duration() : 0; }
  // Time as the views show it: the measured window's, t = 0 where the
  // warm-up ends (as clerk run's figures and a lesson's "pause at" count
  // it), so the warm-up is negative. While a warm-up still runs its end is
  // not known: nullopt, and the views say "warm-up" with the run's time.
  std::optional<double> window_time(sim::Time t) const;
  // The run's time of window time `s` (the warm-up's end must be known).
  sim::Time run_time(double window_s) const;
  // Runs the World towards `target` (clamped to the run's end) in fine-bin
  // steps, sampling at each bin edge, until `deadline`. True if it got there.
  bool advance(sim::Time target, Clock::time_point deadline);
};

}  // namespace ui
