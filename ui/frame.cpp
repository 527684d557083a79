#include "ui/frame.h"

#include <imgui.h>

#include <algorithm>

#include "ui/charts_view.h"
#include "ui/controls_panel.h"
#include "ui/heatmap_view.h"
#include "ui/lesson_mode.h"
#include "ui/lesson_panel.h"
#include "ui/replay.h"
#include "ui/store_window.h"
#include "ui/tails_view.h"
#include "ui/timeline_view.h"

namespace ui {

namespace {
// Windows are tiled: their places follow from the display size every frame.
bool begin_tile(App& app, const char* name, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
  // No window background: the tiles cover the display, and the clear colour is
  // the background. Software rendering (Mesa's llvmpipe under Xvfb) pays for
  // every layer of filled pixels, and this one layer is a third of the frame.
  const bool open = ImGui::Begin(name, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                                    ImGuiWindowFlags_NoBackground);
  app.view_boxes[name] = Box{ImVec2(x, y), ImVec2(x + w, y + h)};
  return open;
}
}  // namespace

void draw_frame(App& app, float dt, bool capture) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  // The side columns grow with the text (Ctrl +/-), within a share of the display.
  const float scale = ImGui::GetIO().FontGlobalScale;
  // A guided lesson (--lesson N) reads more: its panel is wider and takes most of the column.
  LessonMode* guided = app.guided.get();
  if (guided) update_lesson(app, *guided);
  const float left = guided ? std::min(460.0f * scale, ds.x * 0.32f) : std::min(340.0f * scale, ds.x * 0.3f);
  const float right = std::min(520.0f * scale, ds.x * 0.3f), mid = ds.x - left - right;
  const float top = ds.y * 0.6f, controls_h = guided ? ds.y * 0.3f : app.show_lesson ? ds.y * 0.55f : ds.y;
  if (begin_tile(app, "controls", 0, 0, left, controls_h)) draw_controls(app);
  ImGui::End();
  if (app.show_lesson || guided) {
    if (begin_tile(app, "lesson", 0, controls_h, left, ds.y - controls_h)) {
      if (guided)
        draw_lesson_mode(app, *guided);
      else
        draw_lesson(app);
    }
    ImGui::End();
  }
  if (begin_tile(app, "store", left, 0, mid, top)) draw_store_window(app, dt, capture);
  ImGui::End();
  if (begin_tile(app, "timeline", left, top, mid, ds.y - top) && ImGui::BeginTabBar("below the store")) {
    const ImGuiTabItemFlags tails_first = app.tails_first ? ImGuiTabItemFlags_SetSelected : 0;
    app.tails_first = false;
    if (ImGui::BeginTabItem("timeline")) {
      draw_timeline(app.a, app.ab ? &app.b : nullptr, app.timeline_s);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("latency percentiles", nullptr, tails_first)) {
      draw_tails(app.a, app.tail_pick);
      ImGui::EndTabItem();
    }
    const ImGuiTabItemFlags heatmap_first = app.heatmap_first ? ImGuiTabItemFlags_SetSelected : 0;
    app.heatmap_first = false;
    if (ImGui::BeginTabItem("latency heat map", nullptr, heatmap_first)) {
      draw_heatmaps(app.a, app.ab ? &app.b : nullptr);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
  // A lesson's client group: the others' series faded while it is looked at.
  std::string emphasis;
  if (guided && guided->phase == LessonMode::Phase::kObserve)
    for (const std::string& id : guided->lesson.steps[guided->step].observe.highlight)
      if (id.rfind("series.", 0) == 0) emphasis = id.substr(7);
  app.chart_boxes.clear();
  if (begin_tile(app, "charts", left + mid, 0, right, ds.y)) draw_charts(app.a, app.ab ? &app.b : nullptr, emphasis, &app.chart_boxes, guided != nullptr);
  ImGui::End();
  if (app.replay.active)
    draw_replay(app, dt);  // dims the rest itself
  else if (guided)
    draw_lesson_overlay(app, *guided);
}

}  // namespace ui
