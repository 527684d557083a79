// Everything the visualizer knows, owned in one place as Dear ImGui's
// examples do: the sessions it runs, playback, the knobs being edited and
// the view settings. The frame loop in main.cpp reads and changes it; the
// views only draw from it.
#pragma once
#include <imgui.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ui/knobs.h"
#include "ui/replay.h"
#include "ui/session.h"
#include "ui/store_layout.h"
#include "ui/store_view.h"
#include "ui/tails_view.h"

namespace ui {

struct LessonMode;  // ui/lesson_mode.h

struct App {
  // The scenario as loaded, and where from.
  std::string path;
  std::vector<std::string> overrides;  // --set KEY=VALUE, applied by the loader
  models::Scenario loaded;
  bool cold_by_default = false;        // the file's warm-up was set aside (app.cpp, cold_unless_told)
  std::string lesson;                  // the file's opening comment: its narrative
  std::string error;                   // the last load error, shown in the controls

  // A is the main run; B exists while the A/B view is on (same seed).
  Session a{"A"}, b{"B"};
  bool ab = false;
  Knobs edit_a, edit_b;  // what the widgets show; applied by restart or replay

  // Playback.
  bool playing = true;
  bool fastest = false;
  float speed = 1.0f;               // simulated seconds per real second
  float step_s = 0.01f;             // one click of "step"
  double pending_step_s = 0;        // a step asked for and not yet done
  double budget_ms = 10;            // simulation time allowed per frame
  double sim_target = 0;            // where playback wants the sessions (s)
  float achieved = 1;               // share of the asked speed reached lately
  bool to_window = false;           // fast-forwarding the warm-up, as fast as the budget allows, to the window's start
  double stop_at_s = -1;            // playback pauses when A reaches this run time (s); -1: at the end only

  // Views.
  bool show_lesson = false;
  bool tails_first = false;         // open the latency percentiles tab on the first frame (--tails)
  TailPick tail_pick;               // whose stage split the percentiles tab shows
  bool heatmap_first = false;       // open the latency heat map tab on the first frame (--heatmap)
  float zoom = 1;
  ImVec2 pan{0, 0};
  float timeline_s = 10;
  StoreAnim anim_a, anim_b;
  std::map<std::string, Box> view_boxes;  // where each window was drawn this frame
  std::map<std::string, Box> chart_boxes;  // where each chart was drawn this frame, by id
  Replay replay;                           // follow one customer (replay.h)
  std::shared_ptr<LessonMode> guided;      // clerk-ui --lesson N: the lesson being walked (lesson_mode.h)
  std::vector<std::string> scenario_files;
};

// Loads `path` (with `overrides`) and restarts both sessions from it.
// False and `app.error` set on a bad file.
// `as_written`: with the scenario's own warm-up (a lesson's steps, as clerk
// run and clerk lesson run them); else cold unless `overrides` set a warm-up.
bool open_scenario(App& app, const std::string& path, const std::vector<std::string>& overrides, bool as_written = false);
// Rebuilds the sessions from the edited knobs: from t = 0, or replaying to
// the present instant with the new settings.
void restart_sessions(App& app, bool replay_to_now);
void set_ab(App& app, bool on);
// One frame's worth of simulation: `real_dt` real seconds at the chosen speed,
// within the per-frame budget.
void advance(App& app, double real_dt);
// Runs both sessions to `t` seconds without a budget (headless capture).
void run_to(App& app, double t);
// Runs both sessions through their warm-ups to their measured windows'
// starts (at once for a cold start), without a budget.
void run_to_window(App& app);
// Runs both sessions to `window_s` seconds of their measured windows (what
// --at and a lesson's "pause at" mean: t = 0 where the warm-up ends),
// through the warm-up first, without a budget.
void run_to_window_time(App& app, double window_s);
// The scenario files under the project's scenarios/ folder.
std::vector<std::string> find_scenarios();

}  // namespace ui
