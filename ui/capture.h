// Saves what was just rendered (the back buffer, before the swap) as a PNG.
#pragma once
#include <string>

namespace ui {

// Pixels [x, x+w) x [y, y+h) from the top-left of a framebuffer `fb_h` high,
// encoded as a PNG into `png`. False with `error` when the display gives no
// pixels or the PNG cannot be encoded. For outputs written together
// (--captures: a common::OutputSet, all or none).
bool encode_png(int x, int y, int w, int h, int fb_h, std::string& png, std::string& error);

// The same, written to `path` at once. False with `error` as encode_png;
// throws common::OutputError (the path's or the disk's doing, as
// common/output_file.h says) when the file cannot be written.
bool save_png(const std::string& path, int x, int y, int w, int h, int fb_h, std::string& error);

}  // namespace ui
