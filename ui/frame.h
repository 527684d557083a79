// One frame of clerk-ui's windows, tiled over the display: the controls (and
// the lesson), the store, the timeline and the charts. The frame loop in
// main.cpp calls it between ImGui::NewFrame() and ImGui::Render(); tests
// call it the same way without a window (ui/tests/every_scenario_test.cpp),
// so every view is drawn from every scenario headless.
#pragma once
#include "ui/app.h"

namespace ui {

// `dt`: real seconds since the last frame (animations); `capture`: a
// headless screenshot (animations snap to where they are going).
void draw_frame(App& app, float dt, bool capture);

}  // namespace ui
