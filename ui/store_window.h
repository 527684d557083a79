// The store view's window: one store, or A and B side by side, with the
// mouse wheel zooming about the pointer and a drag panning (for 64 clerks).
#pragma once
#include "ui/app.h"

namespace ui {

void draw_store_window(App& app, float dt, bool snap);

}  // namespace ui
