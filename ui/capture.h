// Saves what was just rendered (the back buffer, before the swap) as a PNG.
#pragma once
#include <string>

namespace ui {

// Pixels [x, x+w) x [y, y+h) from the top-left of a framebuffer `fb_h` high.
// False with `error` when the display gives no pixels or the PNG cannot be
// encoded; throws common::OutputError (the path's or the disk's doing, as
// common/output_file.h says) when the file cannot be written.
bool save_png(const std::string& path, int x, int y, int w, int h, int fb_h, std::string& error);

}  // namespace ui
