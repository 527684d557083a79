// A small line chart drawn with ImGui's draw list: several series over the
// same seconds, a y axis from zero to the largest value, and a hover line
// that lists every series at the second under the mouse, with a sentence
// saying what the chart shows in the store's and the server's words.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ui {

struct Series {
  std::string label;
  const std::vector<float>* values;  // one per second, from second 0
  ImU32 colour;
  float thickness = 1.5f;
};

void plot(const char* id, const char* title, const char* unit, const std::vector<Series>& series, float y_min_max,
          const char* store_words, const char* server_words, ImVec2 size);

}  // namespace ui
