#include "ui/store_window.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/knobs.h"

namespace ui {

void draw_store_window(App& app, float dt, bool snap) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::InvisibleButton("canvas", avail);
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    app.pan.x += io.MouseDelta.x;
    app.pan.y += io.MouseDelta.y;
  }
  if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
    // Zoom about the pointer: the point under it stays under it.
    const float old = app.zoom;
    app.zoom = std::clamp(app.zoom * (io.MouseWheel > 0 ? 1.15f : 1 / 1.15f), 1.0f, 6.0f);
    const float k = app.zoom / old;
    const ImVec2 m(io.MousePos.x - p0.x, io.MousePos.y - p0.y);
    app.pan.x = m.x - (m.x - app.pan.x) * k;
    app.pan.y = m.y - (m.y - app.pan.y) * k;
  }
  if (app.zoom <= 1.0f) app.pan = ImVec2(0, 0);
  const int panes = app.ab && app.b.world ? 2 : 1;
  const float w = avail.x / static_cast<float>(panes);
  for (int i = 0; i < panes; ++i) {
    Session& s = i == 0 ? app.a : app.b;
    const Box area{ImVec2(p0.x + w * static_cast<float>(i), p0.y), ImVec2(p0.x + w * static_cast<float>(i + 1) - (panes > 1 ? 4 : 0), p0.y + avail.y)};
    // In A/B each pane names its own configuration, not only the file both came from.
    const std::string title = panes > 1 ? s.label + ": " + s.config + "  (" + describe(s.scenario) + ")"
                                        : s.scenario.name + "  (" + describe(s.scenario) + ")";
    draw_store(s, i == 0 ? app.anim_a : app.anim_b, area, app.zoom, app.pan, dt, snap, title.c_str());
  }
  // Follow one customer: the p99 request of the group the percentiles tab shows (replay.h).
  if (!app.replay.active && app.a.world) {
    const char* label = "follow one customer";
    ImGui::SetCursorScreenPos(ImVec2(p0.x + avail.x - ImGui::CalcTextSize(label).x - ImGui::GetStyle().FramePadding.x * 2 - 4, p0.y + 2));
    if (ImGui::SmallButton(label)) {
      std::string error;
      if (!start_replay(app.replay, app.a, app.tail_pick.group, app.tail_pick.worst ? "max" : app.tail_pick.percentile < 90 ? "p50" : "p99", error))
        app.error = error;
    }
  }
}

}  // namespace ui
