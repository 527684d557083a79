#include "ui/heatmap_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "models/scenario/result_json.h"
#include "ui/palette.h"

namespace ui {

namespace {

// viridis at 3/9 .. 9/9 (matplotlib's _viridis_data; R's viridisLite::viridis(10)).
const std::vector<ImU32> kStops = {IM_COL32(49, 104, 142, 255), IM_COL32(38, 130, 142, 255), IM_COL32(31, 158, 137, 255),
                                   IM_COL32(53, 183, 121, 255), IM_COL32(109, 205, 89, 255), IM_COL32(180, 222, 44, 255),
                                   IM_COL32(253, 231, 37, 255)};

// The stage split panel needs this much room beside a map.
constexpr float kSplitWidth = 250;
constexpr float kMinMapWidth = 220;

// What every map drawn shares: the bins shown (whole decades around the
// data), the seconds, the fullest cell.
struct Frame {
  std::uint32_t lo = 0, hi = 0;  // bins [lo, hi)
  std::size_t seconds = 10;
  std::uint64_t most = 0;
};

Frame frame_of(const std::vector<HeatMap>& maps) {
  Frame f;
  std::uint32_t lo = models::kHeatBins, hi = 0;
  for (const HeatMap& m : maps) {
    f.seconds = std::max(f.seconds, m.columns->size());
    for (const models::LatencyBins& c : *m.columns) {
      if (c.counts.empty()) continue;
      lo = std::min(lo, c.first);
      hi = std::max(hi, c.first + static_cast<std::uint32_t>(c.counts.size()));
      for (std::uint64_t n : c.counts) f.most = std::max(f.most, n);
    }
  }
  if (hi == 0) {  // nothing yet: 1 ms to 1 s
    lo = 3 * models::kHeatBinsPerDecade;
    hi = 6 * models::kHeatBinsPerDecade;
  }
  const std::uint32_t d = models::kHeatBinsPerDecade;
  f.lo = lo / d * d;
  f.hi = std::min(models::kHeatBins, (hi + d - 1) / d * d);
  if (f.hi <= f.lo) f.hi = f.lo + d;
  return f;
}

std::string latency_text(double s) {
  char buf[32];
  if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

// Stages in families whose colours the other views use: the loop's waits
// orange like disk wait, CPU blue like running, the pool violet like the
// delivery team, the disk brown like its crates, the way out like the dock.
ImU32 stage_colour(models::Stage s) {
  using models::Stage;
  switch (s) {
    case Stage::kLoopBlocked: return kDiskWait;
    case Stage::kLoopBusy: return mix(kDiskWait, kInk, 0.45f);
    case Stage::kTimer: return mix(kDiskWait, kFaint, 0.6f);
    case Stage::kCpu: return kRunning;
    case Stage::kRunQueue: return mix(kRunning, kInk, 0.5f);
    case Stage::kPoolQueue: return kTeam;
    case Stage::kDiskData: return kCrate;
    case Stage::kDiskMetadata: return mix(kCrate, kInk, 0.35f);
    case Stage::kDiskSlot: return mix(kCrate, kFaint, 0.5f);
    case Stage::kReclaim: return kShelf;
    case Stage::kSocket: return kDock;
    case Stage::kNetwork: return mix(kDock, kFaint, 0.5f);
    case Stage::kBacklog: return kSleeping;
    case Stage::kClient:
    case Stage::kCount: break;
  }
  return kFaint;
}

// Where the group's p99 went: one row per stage that holds time, longest first.
void draw_split(Session& s, std::uint32_t group, ImVec2 p0, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const models::StageAggregate* agg = s.world->clients().group_stages(group);
  if (!agg || agg->count() == 0) {
    dl->AddText(p0, kFaint, agg ? "p99: no responses yet" : "p99: this engine keeps no stage clocks");
    return;
  }
  const models::StageRow row = agg->percentile_row(99);
  char head[96];
  std::snprintf(head, sizeof head, "p99 so far, %s: where it went", latency_text(row.latency_s).c_str());
  dl->AddText(p0, kInk, head);
  std::vector<std::pair<double, std::size_t>> parts;
  for (std::size_t i = 0; i < models::kStages; ++i)
    if (row.seconds[i] > 0) parts.emplace_back(row.seconds[i], i);
  std::sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  const float bar_w = size.x * 0.3f, text_x = p0.x + bar_w + 6;
  float y = p0.y + line + 2;
  for (const auto& [sec, i] : parts) {
    if (y + line > p0.y + size.y) break;
    const auto stage = static_cast<models::Stage>(i);
    const float w = std::max(1.0f, bar_w * static_cast<float>(sec / std::max(row.latency_s, 1e-12)));
    dl->AddRectFilled(ImVec2(p0.x, y + 2), ImVec2(p0.x + w, y + line - 2), stage_colour(stage));
    char text[160];
    std::snprintf(text, sizeof text, "%s %s", latency_text(sec).c_str(), models::stage_info(stage).server);
    dl->PushClipRect(ImVec2(text_x, y), ImVec2(p0.x + size.x, y + line), true);
    dl->AddText(ImVec2(text_x, y), kInk, text);
    dl->PopClipRect();
    y += line;
  }
}

void tooltip(const HeatMap& m, const Frame& f, std::size_t second, std::uint32_t bin) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  ImGui::Text("%s, second %zu to %zu", m.title.c_str(), second, second + 1);
  if (second < m.columns->size()) {
    const models::LatencyBins& c = (*m.columns)[second];
    if (c.counts.empty()) {
      ImGui::TextUnformatted("no responses");
    } else {
      ImGui::Text("%llu of the second's %llu responses took %s to %s", static_cast<unsigned long long>(c.at(bin)),
                  static_cast<unsigned long long>(c.total()), latency_text(models::heat_bin_lower_s(bin)).c_str(),
                  latency_text(models::heat_bin_lower_s(bin + 1)).c_str());
    }
  }
  ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: how many customers, served that second, waited this long.");
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1),
                     "Server: responses wrk completed that second, by latency (request written, open loop due, to last "
                     "byte read), 10 log bins a decade; the brightest cell holds %llu.",
                     static_cast<unsigned long long>(f.most));
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void draw_map(const HeatMap& m, const Frame& f, ImVec2 p0, ImVec2 size) {
  if (size.x < 1 || size.y < 1) return;  // no room (ImGui wants a button of some size)
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton(m.source.c_str(), size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float left = ImGui::CalcTextSize("100 ms").x + 6;
  const ImVec2 a(p0.x + left, p0.y + line + 2), b(p0.x + size.x - 4, p0.y + size.y - line);
  dl->AddText(ImVec2(p0.x + 2, p0.y), group_colour(m.group), m.title.c_str());
  dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), kPanel);
  if (b.y <= a.y || b.x <= a.x) return;
  const auto X = [&](std::size_t s) { return a.x + (b.x - a.x) * static_cast<float>(s) / static_cast<float>(f.seconds); };
  const auto Y = [&](std::uint32_t bin) {
    return b.y - (b.y - a.y) * static_cast<float>(bin - f.lo) / static_cast<float>(f.hi - f.lo);
  };
  for (std::uint32_t d = f.lo; d <= f.hi; d += models::kHeatBinsPerDecade) {
    const float y = Y(d);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), mix(kPanel, kFaint, 0.25f));
    const std::string label = latency_text(models::heat_bin_lower_s(d));
    dl->AddText(ImVec2(p0.x + 2, std::clamp(y - line * 0.5f, a.y - line * 0.5f, b.y - line * 0.5f)), kFaint, label.c_str());
  }
  dl->AddText(ImVec2(a.x, b.y), kFaint, "0 s");
  char end[32];
  std::snprintf(end, sizeof end, "%zu s", f.seconds);
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(end).x, b.y), kFaint, end);
  for (std::size_t s = 0; s < m.columns->size(); ++s) {
    const models::LatencyBins& c = (*m.columns)[s];
    if (c.counts.empty()) {  // no responses: a gap, marked under the axis
      dl->AddLine(ImVec2(X(s), b.y + 2), ImVec2(X(s + 1), b.y + 2), kDiskWait, 2);
      continue;
    }
    for (std::size_t i = 0; i < c.counts.size(); ++i) {
      if (c.counts[i] == 0) continue;
      const auto bin = c.first + static_cast<std::uint32_t>(i);
      if (bin < f.lo || bin >= f.hi) continue;
      dl->AddRectFilled(ImVec2(X(s), Y(bin + 1)), ImVec2(std::max(X(s + 1), X(s) + 1), Y(bin)),
                        heat_colour(heat_level(c.counts[i], f.most)));
    }
  }
  if (hovered) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float fx = std::clamp((mouse.x - a.x) / (b.x - a.x), 0.0f, 0.999f);
    const float fy = std::clamp((b.y - mouse.y) / (b.y - a.y), 0.0f, 0.999f);
    const auto second = static_cast<std::size_t>(fx * static_cast<float>(f.seconds));
    const auto bin = f.lo + static_cast<std::uint32_t>(fy * static_cast<float>(f.hi - f.lo));
    dl->AddRect(ImVec2(X(second), Y(bin + 1)), ImVec2(X(second + 1), Y(bin)), kInk);
    tooltip(m, f, second, bin);
  }
}

// The colour scale: 1 response to the fullest cell.
void draw_scale(const Frame& f, ImVec2 p0, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const char* lead = "responses in a cell: 1";
  dl->AddText(p0, kFaint, lead);
  const float x0 = p0.x + ImGui::CalcTextSize(lead).x + 6, bar = std::min(200.0f, width * 0.4f);
  constexpr int kSteps = 24;
  for (int i = 0; i < kSteps; ++i)
    dl->AddRectFilled(ImVec2(x0 + bar * static_cast<float>(i) / kSteps, p0.y + 3),
                      ImVec2(x0 + bar * static_cast<float>(i + 1) / kSteps, p0.y + line - 3),
                      heat_colour(static_cast<float>(i) / (kSteps - 1)));
  char most[64];
  std::snprintf(most, sizeof most, "%llu (log scale); under the axis: no responses",
                static_cast<unsigned long long>(std::max<std::uint64_t>(f.most, 1)));
  dl->AddText(ImVec2(x0 + bar + 6, p0.y), kFaint, most);
}

}  // namespace

const std::vector<ImU32>& heat_stops() { return kStops; }

ImU32 heat_colour(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  const float x = t * static_cast<float>(kStops.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(x), kStops.size() - 2);
  return mix(kStops[i], kStops[i + 1], x - static_cast<float>(i));
}

float heat_level(std::uint64_t count, std::uint64_t most) {
  if (count == 0) return 0;
  if (most <= 1) return 1;
  return static_cast<float>(std::log(static_cast<double>(count)) / std::log(static_cast<double>(most)));
}

std::vector<HeatMap> build_heatmaps(Session& a, Session* b) {
  std::vector<HeatMap> out;
  for (Session* x : {&a, b}) {
    if (!x) continue;
    for (std::uint32_t g = 0; g < x->recorder.groups.size(); ++g) {
      const GroupSeries& gs = x->recorder.groups[g];
      std::string title = gs.name;
      if (b) title = x->label + (x->config.empty() ? "" : " " + x->config) + ": " + title;
      out.push_back(HeatMap{title, x->label, "clients." + gs.name + ".per_s.latency_bins", g, &gs.latency_bins});
    }
  }
  return out;
}

void draw_heatmaps(Session& a, Session* b) {
  if (!a.world) return;
  const std::vector<HeatMap> maps = build_heatmaps(a, b);
  if (maps.empty()) return;
  const Frame f = frame_of(maps);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeight();
  draw_scale(f, origin, avail.x);
  // Groups down, sessions across.
  const std::size_t groups = a.recorder.groups.size();
  const std::size_t runs = b ? 2 : 1;
  const float col_w = avail.x / static_cast<float>(runs);
  const float row_h = (avail.y - line - 4) / static_cast<float>(std::max<std::size_t>(groups, 1));
  const bool split = col_w >= kMinMapWidth + kSplitWidth;
  for (std::size_t k = 0; k < maps.size(); ++k) {
    const HeatMap& m = maps[k];
    const std::size_t col = m.session == "A" ? 0 : 1;
    const ImVec2 p0(origin.x + col_w * static_cast<float>(col), origin.y + line + 4 + row_h * static_cast<float>(m.group));
    const float map_w = (split ? col_w - kSplitWidth : col_w) - 4;
    ImGui::PushID(static_cast<int>(k));
    draw_map(m, f, p0, ImVec2(map_w, row_h - 4));
    ImGui::PopID();
    if (split) draw_split(col == 0 ? a : *b, m.group, ImVec2(p0.x + map_w + 8, p0.y + line + 2), ImVec2(kSplitWidth - 12, row_h - line - 6));
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(avail);
}

nlohmann::ordered_json heatmaps_json(Session& a, Session* b) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const HeatMap& m : build_heatmaps(a, b)) {
    nlohmann::ordered_json columns = nlohmann::ordered_json::array();
    for (const models::LatencyBins& c : *m.columns) columns.push_back(models::latency_bins_json(c));
    out.push_back({{"title", m.title}, {"session", m.session}, {"source", m.source}, {"columns", std::move(columns)}});
  }
  return out;
}

}  // namespace ui
