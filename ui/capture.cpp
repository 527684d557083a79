#include "ui/capture.h"

#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <string>
#include <vector>

#include "common/output_file.h"

namespace ui {

bool encode_png(int x, int y, int w, int h, int fb_h, std::string& png, std::string& error) {
  if (w <= 0 || h <= 0) {
    error = "nothing to capture";
    return false;
  }
  std::vector<unsigned char> pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  // OpenGL counts rows from the bottom.
  glReadPixels(x, fb_h - y - h, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) {
    error = "glReadPixels failed";
    return false;
  }
  stbi_flip_vertically_on_write(1);
  // Encoded in memory, then written by the project's one writer
  // (common/output_file.h): stbi_write_png's fopen would follow a link planted at
  // the path and truncate whatever it leads to.
  png.clear();
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, w, h, 4, pixels.data(), w * 4)) {
    error = "cannot encode the PNG";
    return false;
  }
  return true;
}

bool save_png(const std::string& path, int x, int y, int w, int h, int fb_h, std::string& error) {
  std::string png;
  if (!encode_png(x, y, w, h, fb_h, png, error)) {
    error += " for " + path;
    return false;
  }
  common::write_file_atomically(path, png);  // throws common::OutputError, told apart by the caller
  return true;
}

}  // namespace ui
