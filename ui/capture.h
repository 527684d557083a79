// Saves what was just rendered (the back buffer, before the swap) as a PNG.
#pragma once
#include <string>

namespace ui {

// Pixels [x, x+w) x [y, y+h) from the top-left of a framebuffer `fb_h` high.
bool save_png(const std::string& path, int x, int y, int w, int h, int fb_h, std::string& error);

}  // namespace ui
