// Everything dimmed but some boxes: what a lesson's highlight and the
// replay's "follow one customer" draw over the display (ui/lesson_mode.cpp,
// ui/replay.cpp). The display is cut into a grid at every kept box's edges;
// each cell of the grid outside all the boxes is shaded, so the kept boxes
// stay bright and nothing is shaded twice.
#pragma once
#include <imgui.h>

#include <vector>

#include "ui/store_layout.h"

namespace ui {

// The cells of a `display`-sized grid cut at the edges of `keep` (clamped to
// the display) that lie outside every box of `keep`: disjoint, and with the
// kept boxes they cover the display.
std::vector<Box> cells_outside(ImVec2 display, const std::vector<Box>& keep);

// Shades the display (ImGui's DisplaySize) outside `keep` with `shade`.
void dim_outside(ImDrawList* dl, const std::vector<Box>& keep, ImU32 shade);

}  // namespace ui
