// The controls: which scenario, playback (play, pause, step, speed from
// 1/1000 of real time to as fast as possible), the knobs and how to apply
// them, the A/B comparison, and the view settings.
#pragma once
#include "ui/app.h"

namespace ui {

void draw_controls(App& app);

}  // namespace ui
