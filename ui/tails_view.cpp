#include "ui/tails_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "models/clients/wrk_stats.h"
#include "ui/counter_tally.h"
#include "ui/layout.h"
#include "ui/palette.h"
#include "ui/plot.h"
#include "ui/stage_split.h"

namespace ui {

namespace {

constexpr double kMaxX = 4;      // 99.99%
constexpr double kStepX = 0.05;  // 81 points

struct GroupCurves {
  std::vector<CurvePoint> raw, corrected;
  bool open_loop = false;
};

// The curves of every group at the present second, recomputed when the
// simulated second changes (the corrected one copies wrk's histogram).
std::vector<GroupCurves> curves_now(Session& s) {
  static std::map<const Session*, std::pair<std::int64_t, std::vector<GroupCurves>>> cache;
  const std::int64_t sec = s.now() / sim::seconds(1);
  auto& [at, out] = cache[&s];
  if (at == sec && !out.empty()) return out;
  at = sec;
  out.clear();
  const models::Wrk& wrk = s.world->clients();
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    GroupCurves c;
    const sim::LatencyStats& raw = wrk.group_latency(g);
    c.raw = percentile_curve([&](double p) { return raw.percentile(p); }, raw.count());
    const models::WrkGroupSpec& spec = wrk.group_spec(g);
    c.open_loop = spec.rate > 0;
    // wrk.c's correction with its expected interval, runtime / (responses per
    // connection), as WrkGroup::result applies it at the end.
    const std::uint64_t per_connection = spec.connections ? wrk.group_complete(g) / spec.connections : 0;
    if (!c.open_loop && per_connection > 0) {
      models::WrkHistogram h = wrk.group_histogram(g);
      h.correct(static_cast<std::int64_t>(sim::to_seconds(s.now()) * 1e6 / static_cast<double>(per_connection)));
      c.corrected = percentile_curve([&](double p) { return static_cast<double>(h.percentile(p)) * 1e-6; }, h.count());
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

double percentile_at(double fx) {
  const double p = 100.0 * (1.0 - std::pow(10.0, -std::clamp(fx, 0.0, 1.0) * kMaxX));
  return std::round(p * 100) / 100;  // to 0.01, as the buttons name them
}

double percentile_x(double p) { return std::log10(1.0 / std::max(1.0 - p / 100.0, 1e-12)); }

std::vector<CurvePoint> percentile_curve(const std::function<double(double)>& quantile, std::uint64_t count) {
  std::vector<CurvePoint> out;
  for (double x = 0; x <= kMaxX + 1e-9; x += kStepX) {
    if (std::pow(10.0, x) > static_cast<double>(count)) break;
    const double p = 100.0 * (1.0 - std::pow(10.0, -x));
    out.push_back(CurvePoint{p, quantile(std::max(p, 1e-6))});
  }
  return out;
}

namespace {
// What the curve covers: since t = 0, or the measured window after a warm-up.
std::string covered(Session& s) {
  models::World& w = *s.world;
  if (!w.measuring())
    return "during the warm-up so far (excluded from the figures once the measured window begins)";
  if (w.window_start() > 0)
    return "since the measured window began (t = 0), after a warm-up of " + format_value(sim::to_seconds(w.window_start()), "s") +
           " (excluded)";
  return "since t = 0";
}

float radio_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

// The buttons that pick a request, and the group when there are several;
// they wrap in a narrow window.
void pick_row(const models::Wrk& wrk, TailPick& pick) {
  ImGui::TextWrapped("Where the time went, one request at:");
  bool first = true;
  for (const auto& [label, p] : {std::pair{"p50", 50.0}, std::pair{"p99", 99.0}, std::pair{"p99.9", 99.9}}) {
    if (!first) same_line_if_fits(radio_width(label));
    first = false;
    if (ImGui::RadioButton(label, !pick.worst && pick.percentile == p)) pick = TailPick{pick.group, p, false};
  }
  same_line_if_fits(radio_width("max"));
  if (ImGui::RadioButton("max", pick.worst)) pick.worst = true;
  same_line_if_fits(ImGui::CalcTextSize("(or click the curve)").x);
  ImGui::TextDisabled("(or click the curve)");
  if (wrk.groups() < 2) return;
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    const std::string& name = wrk.group_spec(g).name;
    if (g > 0) same_line_if_fits(radio_width(name.c_str()));
    ImGui::PushStyleColor(ImGuiCol_Text, group_colour(g));
    if (ImGui::RadioButton(name.c_str(), pick.group == g)) pick.group = g;
    ImGui::PopStyleColor();
  }
}
}  // namespace

void draw_tails(Session& s, TailPick& pick) {
  const std::vector<GroupCurves> curves = curves_now(s);
  const models::Wrk& wrk = s.world->clients();
  if (pick.group >= wrk.groups()) pick.group = 0;
  double lo = 1e9, hi = 0;
  for (const GroupCurves& c : curves)
    for (const auto* v : {&c.raw, &c.corrected})
      for (const CurvePoint& p : *v)
        if (p.latency_s > 0) lo = std::min(lo, p.latency_s), hi = std::max(hi, p.latency_s);
  ImGui::TextWrapped("Latency by percentile, %s (solid: every response; dashed: as wrk reports it, with its "
                     "coordinated-omission correction)", covered(s).c_str());
  if (hi <= 0) {
    ImGui::TextDisabled("no responses yet");
    return;
  }
  pick_row(wrk, pick);
  const models::StageAggregate* stages = wrk.group_stages(pick.group);
  if (stages == nullptr) {
    ImGui::TextDisabled("this run keeps no stage clocks, so no request's split can be shown");
    return;
  }
  const StageBar bar = stage_bar(*stages, pick.percentile, pick.worst);
  const float fs = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing();
  // Below the curve: a caption, the bar, the legend (two stages a line, about) and the sum.
  const float split_h = line * (3 + static_cast<float>((bar.segments.size() + 1) / 2)) + fs * 1.4f;
  const double y_lo = std::pow(10.0, std::floor(std::log10(lo))), y_hi = std::pow(10.0, std::ceil(std::log10(hi)));
  const ImVec2 avail(ImGui::GetContentRegionAvail().x, std::max(ImGui::GetContentRegionAvail().y - split_h, fs * 9));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("tails", avail);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = ImGui::CalcTextSize("100 ms").x + 6, bottom = fs + 4, right = 8;
  const ImVec2 a(p0.x + left, p0.y + 2), b(p0.x + avail.x - right, p0.y + avail.y - bottom);
  const auto X = [&](double pct) { return a.x + static_cast<float>(percentile_x(pct) / kMaxX) * (b.x - a.x); };
  const auto Y = [&](double v) {
    const double t = (std::log10(std::max(v, y_lo)) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo));
    return b.y - static_cast<float>(t) * (b.y - a.y);
  };
  const double mouse_p = percentile_at((ImGui::GetIO().MousePos.x - a.x) / std::max(b.x - a.x, 1.0f));
  if (ImGui::IsItemClicked()) pick = TailPick{pick.group, mouse_p, false};
  dl->AddRect(a, b, kFaint);
  static constexpr std::pair<double, const char*> kTicks[] = {{0, "0%"}, {90, "90%"}, {99, "99%"}, {99.9, "99.9%"}, {99.99, "99.99%"}};
  for (const auto& [pct, label] : kTicks) {
    const float x = X(pct);
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(60, 64, 76, 255));
    const float w = ImGui::CalcTextSize(label).x;
    dl->AddText(ImVec2(std::min(x + 2, b.x - w), b.y + 2), kFaint, label);
  }
  for (double v = y_lo; v <= y_hi * 1.001; v *= 10) {
    const float y = Y(v);
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), IM_COL32(60, 64, 76, 255));
    const std::string label = v < 1e-3 ? std::to_string(static_cast<int>(std::lround(v * 1e6))) + " us" : seconds_text(v);
    dl->AddText(ImVec2(p0.x, y - fs * 0.5f), kFaint, label.c_str());
  }
  float label_y = a.y + 4;
  for (std::uint32_t g = 0; g < curves.size(); ++g) {
    const ImU32 col = group_colour(g);
    const auto line_of = [&](const std::vector<CurvePoint>& pts, bool dotted) {
      for (std::size_t i = 1; i < pts.size(); ++i) {
        if (dotted && i % 2) continue;
        dl->AddLine(ImVec2(X(pts[i - 1].percentile), Y(pts[i - 1].latency_s)), ImVec2(X(pts[i].percentile), Y(pts[i].latency_s)),
                    col, dotted ? 1.5f : 2.0f);
      }
    };
    line_of(curves[g].raw, false);
    line_of(curves[g].corrected, true);
    const std::string name = wrk.group_spec(g).name + (curves[g].open_loop ? " (open loop: from when each request was due, no correction)" : "");
    // Wrapped within the plot, never past its right edge.
    const float wrap = std::max(b.x - a.x - 12, fs * 4);
    dl->AddText(nullptr, 0, ImVec2(a.x + 6, label_y), col, name.c_str(), nullptr, wrap);
    label_y += ImGui::CalcTextSize(name.c_str(), nullptr, false, wrap).y + 2;
  }

  // The picked request: a ring at its latency over its percentile.
  if (!bar.empty()) {
    const float x = pick.worst ? b.x : X(pick.percentile);
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), mix(group_colour(pick.group), kPanel, 0.5f));
    dl->AddCircle(ImVec2(x, Y(bar.latency_s)), 5, kInk, 0, 2);
  }
  if (hovered) {
    dl->AddLine(ImVec2(ImGui::GetIO().MousePos.x, a.y), ImVec2(ImGui::GetIO().MousePos.x, b.y), kFaint);
    ImGui::SetTooltip("%s: click to see where a request of this percentile spent its time", percentile_label(mouse_p).c_str());
  }
  // The split of the picked request.
  const sim::LatencyStats& raw = wrk.group_latency(pick.group);
  ImGui::PushStyleColor(ImGuiCol_Text, group_colour(pick.group));
  ImGui::TextWrapped("%s, %s request: %s", wrk.group_spec(pick.group).name.c_str(), bar.what.c_str(),
                     bar.empty() ? "-" : format_value(bar.latency_s, "s").c_str());
  ImGui::PopStyleColor();
  if (!bar.empty() && !pick.worst && raw.count()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("(the %s is %s; shown: the latest response in its 4.4%%-wide latency bucket)", bar.what.c_str(),
                       format_value(raw.percentile(pick.percentile), "s").c_str());
    ImGui::PopStyleColor();
  }
  draw_stage_bar(bar);
}

}  // namespace ui
