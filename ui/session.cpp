#include "ui/session.h"

#include <algorithm>
#include <cmath>

#include "models/scenario/resource_estimate.h"

namespace ui {

void Session::restart() {
  models::check_fits_machine(scenario, scenario.duration_s, scenario.file);  // a ConfigError: shown, not run
  world.reset();  // the old World's models go before the new ones are built
  world = std::make_unique<models::World>(scenario, seed, scenario.duration_s);
  recorder.reset(*world);
  replay_to = 0;
}

std::optional<double> Session::window_time(sim::Time t) const {
  if (!world || !world->measuring()) return std::nullopt;
  return sim::to_seconds(t) - sim::to_seconds(world->window_start());
}

sim::Time Session::run_time(double window_s) const {
  const sim::Time start = world && world->measuring() ? world->window_start() : 0;
  return start + static_cast<sim::Time>(std::llround(window_s * 1e9));
}

bool Session::advance(sim::Time target, Clock::time_point deadline) {
  if (!world) return true;
  target = std::min(target, world->duration());
  while (world->engine().now() < target) {
    const sim::Time now = world->engine().now();
    const sim::Time edge = (now / kFineBin + 1) * kFineBin;
    const sim::Time next = std::min(target, edge);
    // A warm-up can end at this edge and reset wrk's figures: keep the second's first.
    if (next == edge && edge % kChartBin == 0 && !world->measuring()) {
      world->run_until(edge - 1);
      recorder.hold_warmup_second(*world);
    }
    world->run_until(next);
    if (next == edge) recorder.sample(*world);
    if (Clock::now() >= deadline) return world->engine().now() >= target;
  }
  return true;
}

}  // namespace ui
