#include "ui/controls_panel.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

namespace ui {

namespace {

void scenario_picker(App& app) {
  if (app.scenario_files.empty()) app.scenario_files = find_scenarios();
  const std::string current = std::filesystem::path(app.path).filename().string();
  if (ImGui::BeginCombo("scenario", current.c_str())) {
    for (const std::string& f : app.scenario_files) {
      const std::string shown = std::filesystem::path(f).parent_path().filename().string() + "/" +
                                std::filesystem::path(f).filename().string();
      if (ImGui::Selectable(shown.c_str(), f == app.path)) open_scenario(app, f, {});
    }
    ImGui::EndCombo();
  }
  static char path[512] = "";
  ImGui::InputTextWithHint("##path", "or a path to a .toml file", path, sizeof path);
  ImGui::SameLine();
  if (ImGui::Button("Open")) open_scenario(app, path, {});
  if (!app.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", app.error.c_str());
}

void playback(App& app) {
  const double now = sim::to_seconds(app.a.now()), end = sim::to_seconds(app.a.end());
  ImGui::Text("t = %.3f s of %.0f s", now, end);
  ImGui::ProgressBar(end > 0 ? static_cast<float>(now / end) : 0, ImVec2(-1, 4), "");
  if (ImGui::Button(app.playing ? "Pause" : "Play")) app.playing = !app.playing;
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    app.playing = false;
    app.pending_step_s = app.step_s;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::SliderFloat("##step", &app.step_s, 0.001f, 1.0f, "step %.3f s", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) restart_sessions(app, false);
  ImGui::Checkbox("as fast as possible", &app.fastest);
  if (!app.fastest) {
    ImGui::SliderFloat("speed", &app.speed, 0.001f, 1000.0f, "%.3f x real time", ImGuiSliderFlags_Logarithmic);
    if (app.playing && app.achieved < 0.95f)
      ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "the model keeps up with %.0f%% of this speed", app.achieved * 100);
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
  ImGui::SameLine();
  if (ImGui::Button("Apply now (replay)")) restart_sessions(app, true);
  ImGui::EndDisabled();
  ImGui::PushID("A");
  if (ImGui::TreeNodeEx(app.ab ? "A settings" : "settings", ImGuiTreeNodeFlags_DefaultOpen)) {
    edit_knobs(app.edit_a, app.loaded);
    ImGui::TreePop();
  }
  ImGui::PopID();
  bool ab = app.ab;
  if (ImGui::Checkbox("A/B: compare with a second configuration", &ab)) set_ab(app, ab);
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
  ImGui::PushItemWidth(ImGui::GetWindowWidth() * 0.5f);  // room for the directives' names
  scenario_picker(app);
  ImGui::Separator();
  playback(app);
  ImGui::Separator();
  knobs(app);
  ImGui::Separator();
  ImGui::Checkbox("lesson", &app.show_lesson);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::SliderFloat("zoom", &app.zoom, 1.0f, 6.0f, "store zoom %.1f");
  ImGui::SetNextItemWidth(110);
  ImGui::SliderFloat("timeline", &app.timeline_s, 1.0f, 30.0f, "%.0f s shown");
  ImGui::SameLine();
  if (ImGui::Button("fit")) {
    app.zoom = 1;
    app.pan = ImVec2(0, 0);
  }
  ImGui::TextDisabled("%.0f fps, simulation budget %.0f ms/frame", ImGui::GetIO().Framerate, app.budget_ms);
  ImGui::PopItemWidth();
}

}  // namespace ui
