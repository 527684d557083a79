#include "ui/dim.h"

#include <algorithm>

namespace ui {

std::vector<Box> cells_outside(ImVec2 display, const std::vector<Box>& keep) {
  std::vector<float> xs = {0, display.x}, ys = {0, display.y};
  for (const Box& k : keep) {
    xs.insert(xs.end(), {std::clamp(k.min.x, 0.0f, display.x), std::clamp(k.max.x, 0.0f, display.x)});
    ys.insert(ys.end(), {std::clamp(k.min.y, 0.0f, display.y), std::clamp(k.max.y, 0.0f, display.y)});
  }
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  std::vector<Box> out;
  for (std::size_t i = 0; i + 1 < xs.size(); ++i)
    for (std::size_t j = 0; j + 1 < ys.size(); ++j) {
      if (xs[i] == xs[i + 1] || ys[j] == ys[j + 1]) continue;
      const ImVec2 mid((xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2);
      if (std::any_of(keep.begin(), keep.end(), [&](const Box& k) { return k.contains(mid); })) continue;
      out.push_back(Box{ImVec2(xs[i], ys[j]), ImVec2(xs[i + 1], ys[j + 1])});
    }
  return out;
}

void dim_outside(ImDrawList* dl, const std::vector<Box>& keep, ImU32 shade) {
  for (const Box& c : cells_outside(ImGui::GetIO().DisplaySize, keep)) dl->AddRectFilled(c.min, c.max, shade);
}

}  // namespace ui
