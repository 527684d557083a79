#include "ui/timeline_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "ui/knobs.h"
#include "ui/layout.h"
#include "ui/palette.h"

namespace ui {

namespace {

ImU32 blend(const float* f) {
  float r = 0, g = 0, b = 0;
  const ImU32 cols[3] = {kRunning, kSleeping, kDiskWait};
  for (int s = 0; s < 3; ++s) {
    r += f[s] * static_cast<float>((cols[s] >> IM_COL32_R_SHIFT) & 0xFF);
    g += f[s] * static_cast<float>((cols[s] >> IM_COL32_G_SHIFT) & 0xFF);
    b += f[s] * static_cast<float>((cols[s] >> IM_COL32_B_SHIFT) & 0xFF);
  }
  // Quantised so that runs of equal colour can be drawn as one rectangle.
  const auto q = [](float v) { return static_cast<int>(std::clamp(v, 0.0f, 255.0f)) & 0xF0; };
  return IM_COL32(q(r), q(g), q(b), 255);
}

// A worker row's colour over bins [a, b): their state shares' mean.
ImU32 worker_colour(const Recorder& rec, std::uint32_t w, std::int64_t a, std::int64_t b) {
  float f[3] = {0, 0, 0};
  for (std::int64_t i = a; i < b; ++i)
    for (int s = 0; s < 3; ++s) f[s] += rec.worker_states(i, w)[s];
  for (float& v : f) v /= static_cast<float>(b - a);
  return blend(f);
}

// A pool row's: violet as deep as the share of the team that is out
// carrying orders; pink once orders wait for a free member (the queue).
ImU32 pool_colour(const Recorder& rec, std::uint32_t w, std::int64_t a, std::int64_t b) {
  float q = 0, busy = 0;
  for (std::int64_t i = a; i < b; ++i) {
    q += rec.pool_waiting(i, w);
    busy += rec.pool_busy(i, w);
  }
  q /= static_cast<float>(b - a);
  busy /= static_cast<float>(b - a);
  const ImU32 base = mix(IM_COL32(45, 40, 60, 255), kTeam, busy);
  return (q <= 0.01f ? base : mix(base, IM_COL32(255, 110, 200, 255), std::min(0.3f + q / 64.0f, 1.0f))) & 0xFFF0F0F0u;
}

struct Hover {
  int row = -1;  // worker rows first, then pool rows
  std::int64_t bin = -1;
};

void draw_session(Session& s, ImVec2 size, float window_s) {
  const Recorder& rec = s.recorder;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("rows", size);
  const bool hovered = ImGui::IsItemHovered();
  const std::uint32_t n = rec.workers();
  const int rows = static_cast<int>(n) * (rec.has_pools() ? 2 : 1);
  const float fs = ImGui::GetFontSize();
  const float label_w = ImGui::CalcTextSize("clerk 000").x + 4, axis_h = fs + 1;
  const float row_h = std::max(1.0f, (size.y - axis_h) / static_cast<float>(std::max(rows, 1)));
  const auto bins = static_cast<std::int64_t>(window_s * 100);  // 10 ms bins
  const std::int64_t last = rec.fine_count();
  const std::int64_t first = std::max(rec.first_fine(), last - bins);
  const float x0 = p0.x + label_w, bin_w = (size.x - label_w) / static_cast<float>(bins);
  const std::int64_t origin = last - bins;  // the bin drawn at x0 (may be before t = 0)

  // Columns of `per_px` bins, one while a bin is at least a pixel wide, on
  // multiples of it so that they stay put as time runs, each drawn in its
  // bins' mean: no more rectangles than the row has pixels, where a long
  // window (60,000 bins) drew one per change of colour (69,000 vertices
  // in one draw list at the knobs' ends: past what 16-bit indices hold
  // without the renderer's vertex offsets).
  const std::int64_t per_px = std::max<std::int64_t>(1, static_cast<std::int64_t>(1.0f / bin_w));
  const auto column_end = [&](std::int64_t k) {
    const std::int64_t start = k >= 0 ? k / per_px * per_px : -((-k + per_px - 1) / per_px) * per_px;
    return std::min(last, std::max(k + 1, start + per_px));
  };

  char buf[96];
  for (int row = 0; row < rows; ++row) {
    const float y = p0.y + row_h * static_cast<float>(row);
    const bool pool_row = row >= static_cast<int>(n);
    const auto w = static_cast<std::uint32_t>(pool_row ? row - static_cast<int>(n) : row);
    // Every row is labelled if there is room, else every few rows.
    const int every = std::max(1, static_cast<int>(std::ceil((fs - 1) / row_h)));
    if (row % every == 0) {
      std::snprintf(buf, sizeof buf, pool_row ? "pool %u" : "clerk %u", w);
      dl->AddText(ImVec2(p0.x + 2, y + std::max(row_h * 0.5f - fs * 0.5f, -2.0f)), pool_row ? kTeam : kInk, buf);
    }
    const float pad = row_h >= 4 ? 1.0f : 0.0f;
    const auto colour = [&](std::int64_t a, std::int64_t b) {
      return pool_row ? pool_colour(rec, w, a, b) : worker_colour(rec, w, a, b);
    };
    std::int64_t k = first;
    while (k < last) {
      const ImU32 col = colour(k, column_end(k));
      std::int64_t run = column_end(k);
      while (run < last && colour(run, column_end(run)) == col) run = column_end(run);
      dl->AddRectFilled(ImVec2(x0 + bin_w * static_cast<float>(k - origin), y + pad),
                        ImVec2(x0 + bin_w * static_cast<float>(run - origin), y + row_h - pad), col);
      k = run;
    }
  }
  // Time axis: a tick per second of the measured window's time (t = 0
  // where the warm-up ends, the warm-up negative); while a warm-up runs, its
  // end is not known yet: seconds since the run began, and said so.
  const std::optional<double> shift = s.window_time(0);  // window time of run time 0: minus the warm-up
  const std::int64_t zero_bin = shift ? static_cast<std::int64_t>(std::llround(-*shift * 100)) : 0;
  const float axis_y = p0.y + size.y - axis_h;
  const std::int64_t every = std::max<std::int64_t>(1, static_cast<std::int64_t>(window_s / 8));
  const auto floor_div = [](std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
  for (std::int64_t sec = floor_div(std::max<std::int64_t>(0, origin) - zero_bin, 100); zero_bin + sec * 100 <= last; ++sec) {
    const float x = x0 + bin_w * static_cast<float>(zero_bin + sec * 100 - origin);
    if (x < x0) continue;
    dl->AddLine(ImVec2(x, axis_y), ImVec2(x, axis_y + 4), kFaint);
    if (sec % every == 0) {
      std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(sec));
      dl->AddText(ImVec2(x + 4, axis_y + 1), kFaint, buf);
    }
  }
  if (!shift) {
    const char* note = "warm-up: time since the run began (t = 0 will be where the measured window begins)";
    const float w = ImGui::CalcTextSize(note).x;
    if (w + 8 < size.x - label_w) dl->AddText(ImVec2(p0.x + size.x - w - 4, axis_y + 1), kInk, note);
  }

  if (!hovered) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const int row = static_cast<int>((m.y - p0.y) / row_h);
  const std::int64_t bin = origin + static_cast<std::int64_t>((m.x - x0) / bin_w);
  if (row < 0 || row >= rows || m.x < x0 || bin < first || bin >= last) return;
  const bool pool_row = row >= static_cast<int>(n);
  const auto w = static_cast<std::uint32_t>(pool_row ? row - static_cast<int>(n) : row);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
  const double t0 = static_cast<double>(bin - zero_bin) / 100;
  ImGui::Text("%s %u, %.2f to %.2f s%s", pool_row ? "pool of worker" : "worker", w, t0, t0 + 0.01,
              !shift ? " since the run began (warm-up)" : t0 < 0 ? " (warm-up, before the measured window)" : "");
  if (!pool_row) {
    const float* f = rec.worker_states(bin, w);
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: clerk %u served %.0f%%, waited for customers %.0f%%, was at the warehouse %.0f%%",
                       w, f[0] * 100, f[1] * 100, f[2] * 100);
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: R %.0f%%  S %.0f%%  D %.0f%% of these 10 ms", f[0] * 100,
                       f[1] * 100, f[2] * 100);
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: %.0f%% of the delivery team out carrying orders; %.1f orders waiting for a free member",
                       rec.pool_busy(bin, w) * 100, rec.pool_waiting(bin, w));
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: %.0f%% of the pool's threads busy (R or D); %.1f tasks in its queue (time-averaged)",
                       rec.pool_busy(bin, w) * 100, rec.pool_waiting(bin, w));
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// The colour key, each word in its colour, after the title when it fits.
struct Key {
  const char* word;
  ImU32 colour;
};
constexpr Key kKey[] = {{"running", kRunning}, {"sleeping", kSleeping}, {"disk wait", kDiskWait},
                        {"pool busy", kTeam}, {"pool queue", IM_COL32(255, 110, 200, 255)}};

// The key's words follow the title, wrapping to the next line where they do not fit.
void draw_key() {
  for (const Key& k : kKey) {
    same_line_if_fits(ImGui::CalcTextSize(k.word).x);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(k.colour), "%s", k.word);
  }
}

}  // namespace

void draw_timeline(Session& a, Session* b, float window_s) {
  const float width = ImGui::GetContentRegionAvail().x;
  int left = b ? 2 : 1;
  for (Session* s : {&a, b}) {
    if (!s) continue;
    // In A/B each run is named by its own configuration, not the file both came from.
    const std::string title = (b ? s->label + ": " + s->config : s->scenario.name) + " (" + describe(s->scenario) + ")";
    ImGui::PushID(s->label.c_str());
    // The title wraps in a narrow window; the key follows it.
    ImGui::TextWrapped("%s", title.c_str());
    draw_key();
    // The rows share what is left below the headers.
    const float h = ImGui::GetContentRegionAvail().y / static_cast<float>(left) -
                    (left > 1 ? ImGui::GetTextLineHeightWithSpacing() * 2 : 0) - ImGui::GetStyle().ItemSpacing.y;
    draw_session(*s, ImVec2(width, std::max(h, 40.0f)), window_s);
    --left;
    ImGui::PopID();
  }
}

}  // namespace ui
