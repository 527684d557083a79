#include "ui/stage_split.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/layout.h"
#include "ui/palette.h"
#include "ui/plot.h"

namespace ui {

namespace {
// One colour per stage: the palette's where a stage is a state the other
// views draw (CPU blue as a running clerk, the blocked loop orange as disk
// wait, the pool violet as the delivery team, the socket as the dock), and
// neighbours apart in hue or lightness.
constexpr ImU32 kStageColours[models::kStages] = {
    IM_COL32(150, 150, 150, 255),  // client
    IM_COL32(95, 105, 125, 255),   // network
    IM_COL32(205, 200, 120, 255),  // backlog
    kDiskWait,                     // loop blocked
    IM_COL32(150, 200, 250, 255),  // loop busy
    IM_COL32(205, 175, 130, 255),  // timer
    IM_COL32(80, 105, 190, 255),   // run queue
    kRunning,                      // cpu
    kTeam,                         // pool queue
    IM_COL32(215, 120, 110, 255),  // disk slot
    IM_COL32(235, 195, 80, 255),   // disk metadata
    IM_COL32(185, 85, 35, 255),    // disk data
    IM_COL32(120, 200, 120, 255),  // reclaim
    kDock,                         // socket and NIC
};
}  // namespace

ImU32 stage_colour(models::Stage s) { return kStageColours[static_cast<std::size_t>(s)]; }

std::string percentile_label(double p) {
  char buf[32];
  const auto whole = [](double v) { return std::fabs(v - std::round(v)) < 1e-6; };
  std::snprintf(buf, sizeof buf, "p%.*f", whole(p) ? 0 : whole(p * 10) ? 1 : 2, p);
  return buf;
}

StageBar stage_bar(const models::StageAggregate& agg, double p, bool worst) {
  StageBar bar;
  bar.what = worst ? "max" : percentile_label(p);
  const models::StageRow row = worst ? agg.worst() : agg.percentile_example(p);
  if (row.requests == 0) return bar;
  bar.latency_s = row.latency_s;
  for (std::size_t i = 0; i < models::kStages; ++i)
    if (row.seconds[i] > 0) bar.segments.push_back(StageSegment{static_cast<models::Stage>(i), row.seconds[i]});
  return bar;
}

double bar_total(const StageBar& bar) {
  double t = 0;
  for (const StageSegment& s : bar.segments) t += s.seconds;
  return t;
}

std::vector<std::string> bar_legend(const StageBar& bar) {
  std::vector<std::string> out;
  for (const StageSegment& s : bar.segments) {
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.0f%%", bar.latency_s > 0 ? 100 * s.seconds / bar.latency_s : 0.0);
    out.push_back(std::string(models::stage_info(s.stage).server) + ": " + format_value(s.seconds, "s") + " (" + pct + ")");
  }
  return out;
}

void draw_stage_bar(const StageBar& bar) {
  if (bar.empty()) {
    ImGui::TextDisabled("no response recorded yet");
    return;
  }
  const float fs = ImGui::GetFontSize();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = std::max(ImGui::GetContentRegionAvail().x, 50.0f), h = fs * 1.4f;
  ImGui::InvisibleButton("bar", ImVec2(w, h));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double total = bar_total(bar);
  float x = p0.x;
  for (const StageSegment& s : bar.segments) {
    const float x1 = s.stage == bar.segments.back().stage ? p0.x + w : x + static_cast<float>(s.seconds / total) * w;
    dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(std::max(x1, x + 1), p0.y + h), stage_colour(s.stage));
    const std::string d = format_value(s.seconds, "s");
    if (ImGui::CalcTextSize(d.c_str()).x + 6 < x1 - x)
      dl->AddText(ImVec2(x + 3, p0.y + (h - fs) / 2), IM_COL32(15, 15, 15, 255), d.c_str());
    if (hovered && ImGui::GetIO().MousePos.x >= x && ImGui::GetIO().MousePos.x < x1) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(fs * 28);
      ImGui::Text("%s: %s of %s", models::stage_info(s.stage).server, d.c_str(), format_value(bar.latency_s, "s").c_str());
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: %s", models::stage_info(s.stage).store);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    x = x1;
  }
  // The legend flows: as many stages a line as fit, a colour square before each.
  const std::vector<std::string> legend = bar_legend(bar);
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const float item_w = fs * 1.1f + ImGui::CalcTextSize(legend[i].c_str()).x + fs;
    const bool alone = item_w > ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
    if (i > 0 && !alone) same_line_if_fits(item_w);
    ImGui::BeginGroup();
    const ImVec2 c = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(fs * 0.8f, fs));
    dl->AddRectFilled(ImVec2(c.x, c.y + fs * 0.2f), ImVec2(c.x + fs * 0.8f, c.y + fs), stage_colour(bar.segments[i].stage));
    ImGui::SameLine(0, fs * 0.3f);
    if (alone) {  // wider than the window: wrapped, on a line of its own
      ImGui::TextWrapped("%s", legend[i].c_str());
    } else {
      ImGui::TextUnformatted(legend[i].c_str());
      ImGui::SameLine(0, 0);
      ImGui::Dummy(ImVec2(fs, fs));  // a gap before the next
    }
    ImGui::EndGroup();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("the stages add up to %s, the request's latency %s", format_value(total, "s").c_str(),
                     format_value(bar.latency_s, "s").c_str());
  ImGui::PopStyleColor();
}

}  // namespace ui
