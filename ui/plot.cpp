#include "ui/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/palette.h"

namespace ui {

namespace {

// Ticks of a linear axis from 0 to `top`: steps of 1, 2 or 5 times a power of ten.
std::vector<double> linear_ticks(double top) {
  std::vector<double> out;
  if (!(top > 0)) return out;
  const double raw = top / 4, p = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
  for (double v = 0; v <= top * 1.0001; v += step) out.push_back(v);
  return out;
}

struct Axis {
  bool log = false;
  double lo = 0, hi = 1;  // linear: values; log: log10 of values
  float y0 = 0, y1 = 0;   // screen: bottom, top
  float y(double v) const {
    const double t = log ? (std::log10(v) - lo) / (hi - lo) : (v - lo) / (hi - lo);
    return y0 - (y0 - y1) * static_cast<float>(std::clamp(t, 0.0, 1.0));
  }
  bool drawable(float v) const { return std::isfinite(v) && (!log || v > 0); }
};

Axis make_axis(const Chart& c, float y0, float y1, float& peak) {
  Axis ax{c.log, 0, 1, y0, y1};
  peak = std::nanf("");
  double lo = INFINITY, hi = 0;
  for (const Series& s : c.series)
    for (float v : *s.values) {
      if (!std::isfinite(v)) continue;
      peak = std::isnan(peak) ? v : std::max(peak, v);
      hi = std::max(hi, static_cast<double>(v));
      if (v > 0) lo = std::min(lo, static_cast<double>(v));
    }
  if (c.log) {
    // Whole decades around the data; at least 1 ms to 1 s before there is any.
    ax.lo = std::isfinite(lo) ? std::floor(std::log10(lo)) : -3;
    ax.hi = hi > 0 ? std::ceil(std::log10(hi) + 1e-9) : 0;
    if (ax.hi <= ax.lo) ax.hi = ax.lo + 1;
  } else {
    ax.hi = std::max(hi, static_cast<double>(c.y_min_max)) * 1.08;
  }
  return ax;
}

// Each run's name once (in A/B), then its series' names in their colours;
// a name that does not fit goes to the next line, never cut off.
void draw_legend(ImDrawList* dl, const Chart& c, ImVec2 at, float right, float& bottom) {
  float x = at.x, y = at.y;
  const float line = ImGui::GetTextLineHeight();
  const auto word = [&](const std::string& text, ImU32 colour) {
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    if (x > at.x && x + w > right) {
      x = at.x;
      y += line;
    }
    dl->AddText(ImVec2(x, y), colour, text.c_str());
    x += w + 8;
  };
  std::vector<std::string> owners;  // in first-seen order
  for (const Series& s : c.series)
    if (std::find(owners.begin(), owners.end(), s.owner) == owners.end()) owners.push_back(s.owner);
  for (std::size_t o = 0; o < owners.size(); ++o) {
    if (o > 0) {  // each run on a line of its own
      x = at.x;
      y += line;
    }
    if (!owners[o].empty()) word(owners[o] + ":", kInk);
    for (const Series& s : c.series)
      if (s.owner == owners[o]) word(s.label, s.colour);
  }
  bottom = y + line;
}

}  // namespace

std::string format_value(double v, const std::string& unit) {
  char buf[64];
  if (std::isnan(v)) return "no responses";
  if (unit == "s") {
    const double a = std::fabs(v);
    if (a == 0) return "0";
    if (a < 1e-3) std::snprintf(buf, sizeof buf, "%.3g us", v * 1e6);
    else if (a < 1) std::snprintf(buf, sizeof buf, "%.3g ms", v * 1e3);
    else std::snprintf(buf, sizeof buf, "%.3g s", v);
  } else if (unit == "share") {
    std::snprintf(buf, sizeof buf, "%.3g%%", v * 100);
  } else {
    // Thousands as "12.5k", never "1.25e+04".
    const double a = std::fabs(v);
    const char* suffix = a >= 1e6 ? "M" : a >= 1e3 ? "k" : "";
    const double shown = a >= 1e6 ? v / 1e6 : a >= 1e3 ? v / 1e3 : v;
    std::snprintf(buf, sizeof buf, "%.3g%s %s", shown, suffix, unit.c_str());
  }
  return buf;
}

std::string titled(const Chart& c) {
  if (c.unit == "s" || c.unit == "share" || c.unit.empty()) return c.title;
  return c.title + ", " + c.unit;
}

void plot(const Chart& c, ImVec2 size, const Shade& warmup) {
  ImGui::PushID(c.id.c_str());
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("plot", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  // An outline, not a fill: under software rendering every filled pixel costs.
  dl->AddRect(p0, p1, kPanel, 3);
  dl->PushClipRect(p0, p1, true);

  std::size_t n = 0;
  for (const Series& s : c.series) n = std::max(n, s.values->size());
  float legend_bottom = 0;
  const float line = ImGui::GetTextLineHeight();
  // The title wraps rather than running off a narrow column (1280 wide, or large text).
  const std::string title = titled(c);
  const float title_wrap = std::max(size.x - 8, line * 4);
  const ImVec2 title_size = ImGui::CalcTextSize(title.c_str(), nullptr, false, title_wrap);
  dl->AddText(nullptr, 0, ImVec2(p0.x + 4, p0.y + 2), kInk, title.c_str(), nullptr, title_wrap);
  draw_legend(dl, c, ImVec2(p0.x + 4, p0.y + 2 + title_size.y), p1.x - 4, legend_bottom);
  const float label_w = ImGui::CalcTextSize("100 ms").x + 6;
  // The plotting area: its top tick's label (half a line above it) clears the legend.
  const ImVec2 a(p0.x + label_w, legend_bottom + line * 0.5f + 2), b(p1.x - 6, p1.y - line - 1);
  float peak = 0;
  const Axis ax = make_axis(c, b.y, std::min(a.y, b.y - 10), peak);
  if (!std::isnan(peak)) {  // the highest value drawn, not the top of the axis; never over the title
    const std::string text = "peak " + format_value(peak, c.unit);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    if (title_size.y < line * 1.5f && p0.x + 4 + title_size.x + 12 + w < p1.x - 4)
      dl->AddText(ImVec2(p1.x - w - 4, p0.y + 2), kFaint, text.c_str());
  }

  // The y axis: labelled ticks, decades on a log axis.
  std::vector<double> ticks;
  if (ax.log)
    for (double d = ax.lo; d <= ax.hi + 1e-9; d += 1) ticks.push_back(std::pow(10.0, d));
  else
    ticks = linear_ticks(ax.hi / 1.08 > 0 ? ax.hi : 1);
  float last_label = 1e9f;
  for (double t : ticks) {
    const float y = ax.y(t);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), mix(kPanel, kFaint, 0.25f));
    if (last_label - y < ImGui::GetTextLineHeight()) continue;  // labels never overlap
    last_label = y;
    const std::string text = format_value(t, c.unit == "share" ? "share" : c.unit == "s" ? "s" : "");
    dl->AddText(ImVec2(p0.x + 2, y - line * 0.5f), kFaint, text.substr(0, text.find_last_not_of(' ') + 1).c_str());
  }
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), kFaint);
  // Seconds before `first` are left out (a guided lesson: the measured window).
  const std::size_t first = std::min(warmup.first, n);
  const std::size_t span = std::max<std::size_t>(n - first, 10);
  const auto x_of = [&](std::size_t i) {
    return a.x + (b.x - a.x) * (static_cast<float>(i - first) + 0.5f) / static_cast<float>(span);
  };
  const float slot = (b.x - a.x) / static_cast<float>(span);
  char buf[64];
  // Seconds of the measured window (the warm-up negative).
  const double zero = static_cast<double>(warmup.zero_s);
  const double left_s = static_cast<double>(first) - zero;
  std::snprintf(buf, sizeof buf, "%.4g s", left_s == 0 ? 0.0 : left_s);  // never "-0 s"
  dl->AddText(ImVec2(a.x, b.y), kFaint, buf);
  std::snprintf(buf, sizeof buf, "%.4g s", static_cast<double>(first + span) - zero);
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(buf).x, b.y), kFaint, buf);

  // The warm-up: shaded from t = 0 to the window's start, and labelled.
  const auto warm_seconds = static_cast<std::size_t>(std::ceil(std::max(warmup.until_s, 0.0f)));
  if (warmup.until_s > static_cast<float>(first)) {
    const float x1 = a.x + (b.x - a.x) * std::min((warmup.until_s - static_cast<float>(first)) / static_cast<float>(span), 1.0f);
    dl->AddRectFilled(ImVec2(a.x, a.y), ImVec2(x1, b.y), IM_COL32(110, 115, 135, 45));
    dl->AddLine(ImVec2(x1, a.y), ImVec2(x1, b.y), kFaint);
    const char* text = ImGui::CalcTextSize(warmup.label.c_str()).x + 4 < x1 - a.x ? warmup.label.c_str() : "warm-up";
    if (ImGui::CalcTextSize(text).x + 4 < x1 - a.x) dl->AddText(ImVec2(a.x + 2, a.y + 1), kInk, text);
  }

  // Seconds with no figure in any series: shaded and labelled (not in the warm-up's shade).
  for (std::size_t i = std::max(warm_seconds, first); i < n; ++i) {
    bool any = false, all_missing = true;
    for (const Series& s : c.series) {
      if (i >= s.values->size()) continue;
      any = true;
      all_missing = all_missing && std::isnan((*s.values)[i]);
    }
    if (!any || !all_missing) continue;
    dl->AddRectFilled(ImVec2(x_of(i) - slot / 2, a.y), ImVec2(x_of(i) + slot / 2, b.y), IM_COL32(120, 60, 60, 60));
    if (slot > ImGui::CalcTextSize("no responses").x) dl->AddText(ImVec2(x_of(i) - slot / 2 + 2, (a.y + b.y) / 2), kFaint, "no responses");
  }

  std::vector<ImVec2> pts;
  const auto flush = [&](const Series& s) {
    if (pts.size() == 1) dl->AddCircleFilled(pts[0], 2, s.colour);
    if (pts.size() > 1) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), s.colour, 0, s.thickness);
    pts.clear();
  };
  for (const Series& s : c.series) {
    for (std::size_t i = first; i < s.values->size(); ++i) {
      const float v = (*s.values)[i];
      if (ax.drawable(v)) {
        pts.push_back(ImVec2(x_of(i), ax.y(v)));
        continue;
      }
      flush(s);
      if (std::isnan(v)) {  // no responses: a cross on the baseline, not a point at zero
        const ImVec2 m(x_of(i), b.y - 3);
        dl->AddLine(ImVec2(m.x - 3, m.y - 3), ImVec2(m.x + 3, m.y + 3), s.colour);
        dl->AddLine(ImVec2(m.x - 3, m.y + 3), ImVec2(m.x + 3, m.y - 3), s.colour);
      }
    }
    flush(s);
  }
  dl->PopClipRect();

  if (hovered) {
    const float fx = (ImGui::GetIO().MousePos.x - a.x) / (b.x - a.x);
    const std::size_t i = first + static_cast<std::size_t>(std::clamp(fx, 0.0f, 0.999f) * static_cast<float>(span));
    dl->AddLine(ImVec2(x_of(i), a.y), ImVec2(x_of(i), b.y), kFaint);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::Text("%s, second %.4g to %.4g%s", title.c_str(), static_cast<double>(i) - zero, static_cast<double>(i + 1) - zero,
                warmup.zero_s > 0 ? " of the measured window" : "");
    if (i < warm_seconds) ImGui::TextColored(ImVec4(0.75f, 0.78f, 0.9f, 1), "%s", warmup.why.c_str());
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: %s", c.store_words);
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: %s", c.server_words);
    ImGui::Separator();
    for (const Series& s : c.series) {
      if (i < s.values->size())
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s%s: %s", s.owner.empty() ? "" : (s.owner + " ").c_str(), s.label.c_str(),
                           format_value((*s.values)[i], c.unit).c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace ui
