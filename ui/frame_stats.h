// Frame times for `clerk-ui --bench`: what a user would feel, measured from
// one buffer swap to the next.
#pragma once
#include <string>
#include <vector>

namespace ui {

struct FrameStats {
  std::vector<double> ms;
  // Where the time went, summed: stepping the model, building the UI,
  // rendering (ImGui's draw data through OpenGL), swapping (with Xvfb, the
  // copy of the frame to the X server).
  double sim_ms = 0, ui_ms = 0, render_ms = 0, swap_ms = 0;
  void add(double frame_ms) { ms.push_back(frame_ms); }
  std::string summary() const;  // mean, percentiles, max and frames per second
};

}  // namespace ui
