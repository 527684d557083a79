// The lesson: the scenario's own narrative (the comment its file opens
// with), its documented figures, and the store-clerk story that maps the
// picture onto the server.
#pragma once
#include "ui/app.h"

namespace ui {

void draw_lesson(App& app);

}  // namespace ui
