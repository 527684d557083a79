#include "ui/app.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/bad_input.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/scenario_files.h"

namespace ui {

namespace {
// The lesson is the comment block a scenario file opens with: each file in
// scenarios/ says in prose what it shows and where its numbers come from.
std::string read_lesson(const std::string& path) {
  std::ifstream in(path);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind('#', 0) != 0) break;
    const std::string text = line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1);
    // Lines of a paragraph are joined, so that the panel wraps them; an empty
    // comment line starts a new paragraph.
    if (text.empty())
      out += "\n\n";
    else
      out += (out.empty() || out.back() == '\n' ? "" : " ") + text;
  }
  return out;
}

// In A/B each run is named by what sets it apart from the other.
void name_configs(App& app) {
  app.a.config = app.ab ? differences(app.edit_a, app.edit_b, app.loaded) : "";
  app.b.config = app.ab ? differences(app.edit_b, app.edit_a, app.loaded) : "";
}

bool replaying_any(const App& app) { return app.a.replay_to > app.a.now() || (app.ab && app.b.replay_to > app.b.now()); }

Knobs other_aio(Knobs k) {
  k.aio = (k.aio + 1) % static_cast<int>(models::aio_modes().size());
  return k;
}
}  // namespace

// The visualizer starts cold unless told otherwise: a settled warm-up is
// minutes of simulated time (the 9x runs' ~500 s) that it would have to
// play or skip before the first frame. `clerk run` warms up; `--set
// warmup=...` asks the visualizer to do the same.
static bool warmup_told(const std::vector<std::string>& overrides) {
  return std::any_of(overrides.begin(), overrides.end(), [](const std::string& o) { return o.rfind("warmup", 0) == 0; });
}
static std::vector<std::string> cold_unless_told(std::vector<std::string> overrides) {
  if (!warmup_told(overrides)) overrides.insert(overrides.begin(), "warmup=\"0s\"");
  return overrides;
}

bool open_scenario(App& app, const std::string& path, const std::vector<std::string>& overrides, bool as_written) {
  try {
    app.loaded = models::load_scenario(path, as_written ? overrides : cold_unless_told(overrides));
  } catch (const common::BadInput& e) {
    app.error = e.what();
    return false;
  }
  app.error.clear();
  app.cold_by_default = !as_written && !warmup_told(overrides);
  app.replay.active = false;  // its request was the old file's
  app.path = path;
  app.overrides = overrides;
  app.lesson = read_lesson(path);
  app.edit_a = knobs_of(app.loaded, app.loaded.seed);
  app.edit_b = other_aio(app.edit_a);
  app.a.world.reset();  // a new file: nothing of the old one to go back to
  app.b.world.reset();
  try {
    restart_sessions(app, false);
  } catch (const common::BadInput& e) {
    app.error = e.what();
    return false;
  }
  return true;
}

namespace {
// What the sessions ran, to go back to when the model refuses new settings.
struct Running {
  models::Scenario a, b;
  std::uint64_t seed_a = 0, seed_b = 0;
  bool a_built = false, b_built = false;
};
Running running(const App& app) {
  return {app.a.scenario, app.b.scenario, app.a.seed, app.b.seed, app.a.world != nullptr, app.b.world != nullptr};
}
// Back to `r`, replayed to the instant `now`; the knobs keep what the user set.
void restore(App& app, const Running& r, sim::Time now, const common::BadInput& why) {
  app.error = std::string("not applied: ") + why.what();
  app.a.scenario = r.a;
  app.b.scenario = r.b;
  app.a.seed = r.seed_a;
  app.b.seed = r.seed_b;
  for (Session* s : {&app.a, &app.b}) {
    const bool built = s == &app.a ? r.a_built : r.b_built;
    if (!built) {
      s->world.reset();
      continue;
    }
    s->restart();
    s->replay_to = std::min(now, s->end());
  }
  if (!r.b_built) app.ab = false;
}

void rebuild(App& app, bool replay_to_now, sim::Time now) {
  app.replay.active = false;  // its request was the old run's
  for (Session* s : {&app.a, &app.b}) {
    if (s == &app.b && !app.ab) {
      s->world.reset();
      continue;
    }
    const Knobs& k = s == &app.a ? app.edit_a : app.edit_b;
    s->scenario = apply(app.loaded, k);
    s->seed = app.edit_a.seed;  // A/B: the same random draws
    s->restart();
    if (replay_to_now) s->replay_to = std::min(now, s->end());
  }
}
}  // namespace

// The model refuses some combinations of the knobs (a preload that no longer
// fits a smaller cache, for one): the error is shown in the controls and the
// sessions go on with what they ran, rather than clerk-ui ending.
void restart_sessions(App& app, bool replay_to_now) {
  const sim::Time now = app.a.now();
  const Running before = running(app);
  try {
    rebuild(app, replay_to_now, now);
    app.error.clear();
  } catch (const common::BadInput& e) {
    if (!before.a_built) throw;  // nothing ran before: the caller says why
    restore(app, before, now, e);
    replay_to_now = true;
  }
  name_configs(app);
  app.anim_a.clear();
  app.anim_b.clear();
  app.sim_target = replay_to_now ? sim::to_seconds(now) : 0;
}

void set_ab(App& app, bool on) {
  app.replay.active = false;
  app.ab = on;
  if (!on) {
    app.b.world.reset();
    name_configs(app);
    return;
  }
  app.edit_b.seed = app.edit_a.seed;
  app.b.scenario = apply(app.loaded, app.edit_b);
  app.b.seed = app.edit_a.seed;
  try {
    app.b.restart();
  } catch (const common::BadInput& e) {
    app.error = std::string("B not started: ") + e.what();
    app.b.world.reset();
    app.ab = false;
    name_configs(app);
    return;
  }
  app.b.replay_to = app.a.now();  // catch up with A, then run in step with it
  name_configs(app);
  app.anim_b.clear();
}

namespace {
// Fast-forward: the warm-up as fast as the budget allows, both runs in step,
// stopping at the first fine bin of the measured window.
void fast_forward(App& app, Clock::time_point deadline) {
  const auto warming = [&] { return !app.a.world->measuring() || (app.ab && app.b.world && !app.b.world->measuring()); };
  while (warming() && app.a.now() < app.a.end() && Clock::now() < deadline) {
    const sim::Time t = (app.a.now() / kFineBin + 1) * kFineBin;
    app.a.advance(t, Clock::time_point::max());
    if (app.ab) app.b.advance(t, Clock::time_point::max());
  }
  app.sim_target = sim::to_seconds(app.a.now());
  if (!warming()) app.to_window = false;  // then on at the chosen speed
}
}  // namespace

void advance(App& app, double real_dt) {
  const Clock::time_point start = Clock::now();
  const auto budget = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(app.budget_ms));
  if (app.to_window && app.a.world && !replaying_any(app)) {
    fast_forward(app, start + budget);
    return;
  }
  const bool replaying = replaying_any(app);
  double asked = 0;
  if (replaying) {
    // Catching up after a replay: as fast as the budget allows.
    for (Session* s : {&app.a, &app.b})
      if (s->world && s->replay_to > s->now()) s->advance(s->replay_to, start + budget);
    return;
  }
  if (app.pending_step_s > 0) {
    asked = app.pending_step_s;
    app.pending_step_s = 0;
  } else if (app.playing) {
    asked = app.fastest ? 1e9 : real_dt * app.speed;
  }
  if (asked <= 0) return;
  const double end = sim::to_seconds(app.a.end());
  app.sim_target = std::min(app.sim_target + asked, end);
  if (app.stop_at_s >= 0) app.sim_target = std::min(app.sim_target, app.stop_at_s);
  const auto target = static_cast<sim::Time>(app.sim_target * 1e9 + 0.5);
  const double before = sim::to_seconds(app.a.now());
  // In step: B, when behind, catches up before A goes on (as fast as
  // possible A ran ahead of a slower B for good); otherwise A gets half the
  // budget and B follows A to where it got.
  const bool b_behind = app.ab && app.b.world && app.b.now() < app.a.now();
  if (b_behind) {
    app.b.advance(app.a.now(), start + budget);
  } else {
    app.a.advance(target, app.ab ? start + budget / 2 : start + budget);
    if (app.ab) app.b.advance(app.a.now(), start + budget);
  }
  const double reached = sim::to_seconds(std::min(app.a.now(), app.ab ? app.b.now() : app.a.now()));
  // Never build up a debt: what the budget did not allow is dropped.
  app.sim_target = reached;
  if (!app.fastest && asked < 1e8) app.achieved = 0.9f * app.achieved + 0.1f * static_cast<float>(std::min(1.0, (reached - before) / asked));
  if (reached >= end || (app.stop_at_s >= 0 && reached >= app.stop_at_s)) app.playing = false;
}

void run_to(App& app, double t) {
  const auto target = static_cast<sim::Time>(t * 1e9 + 0.5);
  for (Session* s : {&app.a, &app.b})
    if (s->world) s->advance(target, Clock::time_point::max());
  app.sim_target = sim::to_seconds(app.a.now());
}

void run_to_window(App& app) {
  for (Session* s : {&app.a, &app.b}) {
    if (!s->world) continue;
    while (!s->world->measuring() && s->now() < s->end()) s->advance((s->now() / kFineBin + 1) * kFineBin, Clock::time_point::max());
  }
  app.sim_target = sim::to_seconds(app.a.now());
}

void run_to_window_time(App& app, double window_s) {
  run_to_window(app);
  for (Session* s : {&app.a, &app.b})
    if (s->world) s->advance(s->run_time(window_s), Clock::time_point::max());
  app.sim_target = sim::to_seconds(app.a.now());
}

std::vector<std::string> find_scenarios() {
  return models::runnable_scenarios((std::filesystem::path(CLERK_SOURCE_DIR) / "scenarios").string());
}

}  // namespace ui
