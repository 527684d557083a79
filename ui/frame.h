// One frame of clerk-ui's windows, tiled over the display: the controls (and
// the lesson), the store, the timeline and the charts. The frame loop in
// main.cpp calls it between ImGui::NewFrame() and ImGui::Render(); tests
// call it the same way without a window (ui/tests/every_scenario_test.cpp),
// so every view is drawn from every scenario headless.
#pragma once
#include <imgui.h>

#include "ui/app.h"

namespace ui {

// What the frame needs of the renderer: vertex offsets, so that one window
// may hold more than 65,536 vertices with ImGui's 16-bit indices (the
// timeline with 128 rows and the store with 20,000 customers a group, at
// the knobs' ends). Without them ImGui aborts on such a frame
// (AddDrawListToDrawData's assertion). ImGui's OpenGL renderer sets the flag
// from OpenGL 3.2 on; clerk-ui refuses a display without it, and headless
// tests declare it, as the renderer would.
constexpr ImGuiBackendFlags kRendererNeeds = ImGuiBackendFlags_RendererHasVtxOffset;
inline bool renders_large_meshes(const ImGuiIO& io) { return (io.BackendFlags & kRendererNeeds) == kRendererNeeds; }

// `dt`: real seconds since the last frame (animations); `capture`: a
// headless screenshot (animations snap to where they are going).
void draw_frame(App& app, float dt, bool capture);

}  // namespace ui
