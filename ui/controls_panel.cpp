#include "ui/controls_panel.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "ui/layout.h"

namespace ui {

namespace {

// "nginx-9x/blocking.toml": three folders have a blocking.toml, so the file
// name alone does not say which one is open.
std::string shown_name(const std::string& f) {
  return std::filesystem::path(f).parent_path().filename().string() + "/" + std::filesystem::path(f).filename().string();
}

void scenario_picker(App& app) {
  if (app.scenario_files.empty()) app.scenario_files = find_scenarios();
  const std::string current = shown_name(app.path);
  const bool open = ImGui::BeginCombo("scenario", current.c_str());
  if (!open && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current.c_str());  // the whole name, where the combo cuts it
  if (open) {
    for (const std::string& f : app.scenario_files) {
      if (ImGui::Selectable(shown_name(f).c_str(), f == app.path)) open_scenario(app, f, {});
    }
    ImGui::EndCombo();
  }
  static char path[512] = "";
  ImGui::InputTextWithHint("##path", "or a path to a .toml file", path, sizeof path);
  ImGui::SameLine();
  if (ImGui::Button("Open")) open_scenario(app, path, {});
  if (!app.error.empty()) wrapped_text(ImVec4(1, 0.4f, 0.3f, 1), app.error.c_str());
}

// A warm-up before the measured window (warmup.h): what it is, and a way past it.
void warmup_status(App& app) {
  if (!app.a.world) return;
  const models::World& w = *app.a.world;
  if (w.measuring()) {
    if (w.window_start() > 0) {
      char text[160];
      std::snprintf(text, sizeof text, "t = 0 where the measured window began, after a warm-up of %.0f s (negative time, "
                    "excluded from the figures)", sim::to_seconds(w.window_start()));
      wrapped_disabled(text);
    }
    return;
  }
  const models::WarmupSpec& spec = app.a.scenario.warmup;
  char what[128];
  if (spec.settled)
    std::snprintf(what, sizeof what, "Warming up (until the caches settle, at most %.0f s)", spec.max_s);
  else
    std::snprintf(what, sizeof what, "Warming up (%g s)", spec.fixed_s);
  wrapped_text(ImVec4(0.75f, 0.78f, 0.9f, 1), what);
  ImGui::TextWrapped("The server serves its load before the measured window, as clerk run does; the charts shade it and "
                     "the run's figures leave it out.");
  ImGui::BeginDisabled(app.to_window);
  if (ImGui::Button("Fast-forward the warm-up")) app.to_window = true;
  ImGui::EndDisabled();
}

void playback(App& app) {
  const double now = sim::to_seconds(app.a.now()), end = sim::to_seconds(app.a.end());
  // The measured window's time, as --at and the figures count it; the run's while a warm-up runs.
  if (const std::optional<double> t = app.a.window_time(app.a.now()))
    ImGui::Text("t = %.3f s of %.0f s measured", *t, app.a.scenario.duration_s);
  else
    ImGui::Text("warm-up: %.3f s since the run began", now);
  ImGui::ProgressBar(end > 0 ? static_cast<float>(now / end) : 0, ImVec2(-1, 4), "");
  warmup_status(app);
  if (ImGui::Button(app.playing ? "Pause" : "Play")) app.playing = !app.playing;
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    app.playing = false;
    app.pending_step_s = app.step_s;
  }
  // Widths follow the text (Ctrl +/-); a control that does not fit goes to the next line.
  const float step_w = ImGui::CalcTextSize("step 0.000 s").x + ImGui::GetStyle().FramePadding.x * 2 + 4;
  same_line_if_fits(step_w);
  ImGui::SetNextItemWidth(step_w);
  ImGui::SliderFloat("##step", &app.step_s, 0.001f, 1.0f, "step %.3f s", ImGuiSliderFlags_Logarithmic);
  same_line_if_fits(button_width("Reset"));
  if (ImGui::Button("Reset")) restart_sessions(app, false);
  ImGui::Checkbox("as fast as possible", &app.fastest);
  if (!app.fastest) {
    ImGui::SliderFloat("speed", &app.speed, 0.001f, 1000.0f, "%.3gx real time", ImGuiSliderFlags_Logarithmic);
    if (app.playing && app.achieved < 0.95f) {
      char text[96];
      std::snprintf(text, sizeof text, "the model keeps up with %.0f%% of this speed", static_cast<double>(app.achieved) * 100);
      wrapped_text(ImVec4(1, 0.7f, 0.3f, 1), text);
    }
  }
}

void knobs(App& app) {
  const bool replaying = app.a.replay_to > app.a.now() || (app.ab && app.b.world && app.b.replay_to > app.b.now());
  if (replaying) {
    const Session& s = app.a.replay_to > app.a.now() ? app.a : app.b;
    ImGui::ProgressBar(static_cast<float>(static_cast<double>(s.now()) / static_cast<double>(s.replay_to)), ImVec2(-1, 0),
                       "replaying with the new settings");
  }
  ImGui::TextWrapped("Apply from t = 0, or replay the same seed with the new settings up to the present instant.");
  const bool dirty = !(app.edit_a == knobs_of(app.a.scenario, app.a.seed)) ||
                     (app.ab && !(app.edit_b == knobs_of(app.b.scenario, app.b.seed)));
  ImGui::BeginDisabled(!dirty);
  if (ImGui::Button("Restart at t=0")) restart_sessions(app, false);
  same_line_if_fits(button_width("Apply now (replay)"));
  if (ImGui::Button("Apply now (replay)")) restart_sessions(app, true);
  ImGui::EndDisabled();
  ImGui::PushID("A");
  if (ImGui::TreeNodeEx(app.ab ? "A settings" : "settings", ImGuiTreeNodeFlags_DefaultOpen)) {
    edit_knobs(app.edit_a, app.loaded);
    ImGui::TreePop();
  }
  ImGui::PopID();
  bool ab = app.ab;
  if (ImGui::Checkbox("A/B: compare two configurations", &ab)) set_ab(app, ab);
  if (app.ab) {
    ImGui::PushID("B");
    if (ImGui::TreeNodeEx("B settings (same seed)", ImGuiTreeNodeFlags_DefaultOpen)) {
      edit_knobs(app.edit_b, app.loaded);
      app.edit_b.seed = app.edit_a.seed;
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

}  // namespace

void draw_controls(App& app) {
  // Widgets fill the panel up to room for the longest directive's name beside them.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("sendfile_max_chunk").x + ImGui::GetStyle().ItemInnerSpacing.x));
  scenario_picker(app);
  ImGui::Separator();
  playback(app);
  ImGui::Separator();
  knobs(app);
  ImGui::Separator();
  ImGui::Checkbox("lesson", &app.show_lesson);
  const float view_w = ImGui::CalcTextSize("store zoom 0.0").x + ImGui::GetStyle().FramePadding.x * 2 + 4;
  same_line_if_fits(view_w + ImGui::CalcTextSize("zoom").x + ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(view_w);
  ImGui::SliderFloat("zoom", &app.zoom, 1.0f, 6.0f, "store zoom %.1f");
  ImGui::SetNextItemWidth(view_w);
  ImGui::SliderFloat("timeline", &app.timeline_s, 1.0f, 30.0f, "%.0f s shown");
  same_line_if_fits(button_width("fit"));
  if (ImGui::Button("fit")) {
    app.zoom = 1;
    app.pan = ImVec2(0, 0);
  }
  char fps[96];
  std::snprintf(fps, sizeof fps, "%.0f fps, simulation budget %.0f ms/frame", static_cast<double>(ImGui::GetIO().Framerate), app.budget_ms);
  wrapped_disabled(fps);
  ImGui::PopItemWidth();
}

}  // namespace ui
