// Frame times for `clerk-ui --bench`: what a user would feel, measured from
// one buffer swap to the next.
#pragma once
#include <string>
#include <vector>

namespace ui {

struct FrameStats {
  std::vector<double> ms;
  void add(double frame_ms) { ms.push_back(frame_ms); }
  std::string summary() const;  // mean, percentiles, max and frames per second
};

}  // namespace ui
