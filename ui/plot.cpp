#include "ui/plot.h"

#include <algorithm>
#include <cstdio>

#include "ui/palette.h"

namespace ui {

void plot(const char* id, const char* title, const char* unit, const std::vector<Series>& series, float y_min_max,
          const char* store_words, const char* server_words, ImVec2 size) {
  ImGui::PushID(id);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("plot", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  // An outline, not a fill: under software rendering every filled pixel costs.
  dl->AddRect(p0, p1, kPanel, 3);

  std::size_t n = 0;
  float top = y_min_max;
  for (const Series& s : series) {
    n = std::max(n, s.values->size());
    for (float v : *s.values) top = std::max(top, v);
  }
  top *= 1.08f;
  const ImVec2 a(p0.x + 6, p0.y + 32), b(p1.x - 6, p1.y - 12);  // the plotting area
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s  [%s]  max %.3g", title, unit, top / 1.08f);
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), kInk, buf);
  // The legend: each series' name in its colour, as many as fit on a line.
  float lx = p0.x + 4;
  for (const Series& s : series) {
    const float w = ImGui::CalcTextSize(s.label.c_str()).x;
    if (lx + w > p1.x - 4) break;
    dl->AddText(ImVec2(lx, p0.y + 16), s.colour, s.label.c_str());
    lx += w + 10;
  }
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), kFaint);
  const std::size_t span = std::max<std::size_t>(n, 10);
  const auto x_of = [&](std::size_t i) { return a.x + (b.x - a.x) * (static_cast<float>(i) + 0.5f) / static_cast<float>(span); };
  const auto y_of = [&](float v) { return b.y - (b.y - a.y) * (top > 0 ? v / top : 0.0f); };
  std::snprintf(buf, sizeof buf, "0 s");
  dl->AddText(ImVec2(a.x, b.y), kFaint, buf);
  std::snprintf(buf, sizeof buf, "%zu s", span);
  dl->AddText(ImVec2(b.x - 28, b.y), kFaint, buf);

  std::vector<ImVec2> pts;
  for (const Series& s : series) {
    pts.clear();
    for (std::size_t i = 0; i < s.values->size(); ++i) pts.push_back(ImVec2(x_of(i), y_of((*s.values)[i])));
    if (pts.size() == 1) dl->AddCircleFilled(pts[0], 2, s.colour);
    if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.colour, 0, s.thickness);
  }

  if (hovered) {
    const float fx = (ImGui::GetIO().MousePos.x - a.x) / (b.x - a.x);
    const auto i = static_cast<std::size_t>(std::clamp(fx, 0.0f, 0.999f) * static_cast<float>(span));
    dl->AddLine(ImVec2(x_of(i), a.y), ImVec2(x_of(i), b.y), kFaint);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::Text("%s, second %zu to %zu", title, i, i + 1);
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: %s", store_words);
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: %s", server_words);
    ImGui::Separator();
    for (const Series& s : series) {
      if (i < s.values->size())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s: %.4g %s", s.label.c_str(), (*s.values)[i], unit);
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace ui
