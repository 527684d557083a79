#include "ui/charts_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/palette.h"

namespace ui {

namespace {
ImU32 lighter(ImU32 c) { return mix(c, IM_COL32(255, 255, 255, 255), 0.5f); }

// In A/B the run a series belongs to, named by its own configuration
// ("B aio threads"); alone, nothing.
std::string owner(const Session& x, Session* b) {
  if (!b) return "";
  return x.label + (x.config.empty() ? "" : " " + x.config);
}

// Adds one series per session: A in `colour`, B lighter and thinner.
void both(Chart& c, Session& a, Session* b, const std::string& label, ImU32 colour, const std::vector<float>& (*pick)(Session&),
          const std::string& source) {
  for (Session* x : {&a, b}) {
    if (!x) continue;
    c.series.push_back(Series{label, &pick(*x), x == &a ? colour : lighter(colour), x == &a ? 2.0f : 1.2f, x->label, owner(*x, b), source});
  }
}

// Per client group: `pick` chooses the series of a group, `suffix` names it.
template <typename Pick>
void per_group(Chart& c, Session& a, Session* b, const std::string& suffix, const std::string& key, float fade, Pick pick) {
  for (Session* x : {&a, b}) {
    if (!x) continue;
    for (std::size_t g = 0; g < x->recorder.groups.size(); ++g) {
      const GroupSeries& gs = x->recorder.groups[g];
      ImU32 col = group_colour(static_cast<std::uint32_t>(g));
      if (x != &a) col = lighter(col);
      col = mix(col, kPanel, fade);
      c.series.push_back(Series{gs.name + suffix, &pick(gs), col, x == &a ? 2.0f : 1.2f, x->label, owner(*x, b),
                                "clients." + gs.name + ".per_s." + key});
    }
  }
}

bool any_above_zero(const std::vector<float>& v) {
  return std::any_of(v.begin(), v.end(), [](float x) { return std::isfinite(x) && x > 0; });
}

// Time to first byte is drawn once a response header has been read.
bool has_ttfb(Session& a, Session* b) {
  for (Session* x : {&a, b}) {
    if (!x) continue;
    for (const GroupSeries& g : x->recorder.groups)
      if (std::any_of(g.ttfb_p50_s.begin(), g.ttfb_p50_s.end(), [](float v) { return !std::isnan(v); })) return true;
  }
  return false;
}
}  // namespace

std::vector<Chart> build_charts(Session& a, Session* b) {
  std::vector<Chart> out;
  Chart c;

  c = Chart{"nic", "Outbound traffic (ifstat)", "Gbit/s", {}, 1.0f, false, "goods leaving by the loading dock each second.",
            "server NIC outbound, interface bytes (payload and headers) per 1 s sample."};
  both(c, a, b, "out", kDock, [](Session& x) -> const std::vector<float>& { return x.recorder.out_gbps; }, "server.nic_out_gbps_per_s");
  out.push_back(std::move(c));

  c = Chart{"rps", "Requests per second, per client group", "req/s", {}, 1.0f, false, "customers served each second, by kind.",
            "responses wrk completed each second, per wrk group."};
  per_group(c, a, b, "", "requests", 0, [](const GroupSeries& g) -> const std::vector<float>& { return g.requests_per_s; });
  out.push_back(std::move(c));

  c = Chart{"lat", "Latency p99 / p50 of responses completed that second", "s", {}, 0.01f, true,
            "how long a customer waited, from asking to having everything.",
            "request written (open loop: due) to last byte read, per wrk group, every response; without wrk's "
            "coordinated-omission correction."};
  per_group(c, a, b, " p99", "latency_p99_s", 0, [](const GroupSeries& g) -> const std::vector<float>& { return g.latency_p99_s; });
  per_group(c, a, b, " p50", "latency_p50_s", 0.45f, [](const GroupSeries& g) -> const std::vector<float>& { return g.latency_p50_s; });
  out.push_back(std::move(c));

  if (has_ttfb(a, b)) {
    c = Chart{"ttfb", "Time to first byte p99 / p50, that second", "s", {}, 0.01f, true,
              "how long until the first of the goods reached the customer.",
              "request written (open loop: due) to the response header read, per wrk group."};
    per_group(c, a, b, " p99", "ttfb_p99_s", 0, [](const GroupSeries& g) -> const std::vector<float>& { return g.ttfb_p99_s; });
    per_group(c, a, b, " p50", "ttfb_p50_s", 0.45f, [](const GroupSeries& g) -> const std::vector<float>& { return g.ttfb_p50_s; });
    out.push_back(std::move(c));
  }

  if (any_above_zero(a.recorder.delayed_share) || (b && any_above_zero(b->recorder.delayed_share))) {
    c = Chart{"delayed", "Responses that waited behind a blocked loop", "share", {}, 0.01f, false,
              "customers who stood in line while their clerk was away at the warehouse for someone else.",
              "share of the responses finished that second that waited while their worker's event loop was "
              "blocked on another request (Cloudflare's event_loop_blocked)."};
    both(c, a, b, "delayed", kDiskWait, [](Session& x) -> const std::vector<float>& { return x.recorder.delayed_share; },
         "server.event_loop_blocked.requests_delayed_share_per_s");
    out.push_back(std::move(c));
  }

  c = Chart{"cache", "Page cache hit ratio", "share", {}, 1.0f, false, "share of items found on the shelves.",
            "page-cache lookups by sendfile() that found the data in RAM, per second."};
  both(c, a, b, "hit ratio", kShelf, [](Session& x) -> const std::vector<float>& { return x.recorder.cache_hit_ratio; }, "");
  out.push_back(std::move(c));

  c = Chart{"disk", "Disk queue depth", "requests", {}, 1.0f, false, "crates waiting in each warehouse bay.",
            "mean reads queued or in service per drive, time-averaged over the second."};
  both(c, a, b, "per drive", kCrate, [](Session& x) -> const std::vector<float>& { return x.recorder.disk_queue_depth; }, "");
  out.push_back(std::move(c));

  c = Chart{"block", "Blocked clerks and waiting orders", "mean count", {}, 1.0f, false,
            "clerks away at the warehouse; orders waiting for the delivery team.",
            "workers in D state (time-averaged); tasks waiting in all thread pools' queues."};
  both(c, a, b, "workers in D", kDiskWait, [](Session& x) -> const std::vector<float>& { return x.recorder.workers_disk_wait; }, "");
  both(c, a, b, "pool tasks waiting", kTeam, [](Session& x) -> const std::vector<float>& { return x.recorder.pool_waiting_total; }, "");
  out.push_back(std::move(c));
  return out;
}

namespace {
// A/B's headline figures over the run so far, and B over A: requests/s and
// latency p50/p99 per group (every response, as clerk run counts them), and
// the mean outbound traffic.
struct Headline {
  std::string what, unit;
  double a, b;
};

std::vector<Headline> headlines(Session& a, Session& b) {
  std::vector<Headline> out;
  // Over the measured window: wrk's counts restart at its beginning.
  const double ta = sim::to_seconds(a.now() - (a.world->measuring() ? a.world->window_start() : 0));
  const double tb = sim::to_seconds(b.now() - (b.world->measuring() ? b.world->window_start() : 0));
  const auto mean = [](const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += x;
    return v.empty() ? std::nan("") : s / static_cast<double>(v.size());
  };
  out.push_back({"out Gbit/s", "", mean(a.recorder.out_gbps), mean(b.recorder.out_gbps)});
  const models::Wrk& wa = a.world->clients();
  const models::Wrk& wb = b.world->clients();
  for (std::uint32_t g = 0; g < wa.groups() && g < wb.groups(); ++g) {
    const std::string name = wa.group_spec(g).name;
    out.push_back({name + " req/s", "", ta > 0 ? static_cast<double>(wa.group_complete(g)) / ta : std::nan(""),
                   tb > 0 ? static_cast<double>(wb.group_complete(g)) / tb : std::nan("")});
    const sim::LatencyStats &la = wa.group_latency(g), &lb = wb.group_latency(g);
    const auto p = [](const sim::LatencyStats& l, double q) { return l.count() ? l.percentile(q) : std::nan(""); };
    out.push_back({name + " p50", "s", p(la, 50), p(lb, 50)});
    out.push_back({name + " p99", "s", p(la, 99), p(lb, 99)});
  }
  return out;
}

void draw_headlines(Session& a, Session& b) {
  if (!a.world || !b.world) return;
  const std::vector<Headline> rows = headlines(a, b);
  const ImGuiTableFlags flags = ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg;
  if (!ImGui::BeginTable("headlines", 4, flags)) return;
  ImGui::TableSetupColumn("so far");
  ImGui::TableSetupColumn(("A " + a.config).c_str());
  ImGui::TableSetupColumn(("B " + b.config).c_str());
  ImGui::TableSetupColumn("B / A");
  ImGui::TableHeadersRow();
  for (const Headline& h : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(h.what.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_value(h.a, h.unit).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_value(h.b, h.unit).c_str());
    ImGui::TableNextColumn();
    if (std::isfinite(h.a) && std::isfinite(h.b) && h.a > 0)
      ImGui::Text("%.3gx", h.b / h.a);
    else
      ImGui::TextUnformatted("-");
  }
  ImGui::EndTable();
}
}  // namespace

Shade warmup_shade(Session& a, Session* b) {
  Shade s;
  const double wa = a.recorder.warmup_s(), wb = b ? b->recorder.warmup_s() : 0;
  s.until_s = static_cast<float>(std::max(wa, wb));
  if (s.until_s <= 0) return s;
  const bool warming = a.recorder.warming() || (b && b->recorder.warming());
  s.zero_s = warming ? 0.0f : static_cast<float>(wa);  // A's window (A/B with different warm-ups: A's clock)
  s.label = warming ? "warm-up so far: not in the figures" : "warm-up: excluded from the figures";
  char buf[256];
  if (b && wa != wb)
    std::snprintf(buf, sizeof buf, "Warm-up (A to %.0f s, B to %.0f s%s): the server serving its load before the measured "
                  "window, as clerk run does; the run's figures (clerk run's, the table, the percentiles) leave it out.",
                  wa, wb, warming ? " so far" : "");
  else
    std::snprintf(buf, sizeof buf, "Warm-up (%s%.0f s): the server serving its load before the measured window, as "
                  "clerk run does; the run's figures (clerk run's, the percentiles) leave it out.",
                  warming ? "so far " : "to ", wa);
  s.why = buf;
  return s;
}

void draw_charts(Session& a, Session* b, const std::string& emphasis, std::map<std::string, Box>* drawn, bool window_only) {
  if (b) draw_headlines(a, *b);
  std::vector<Chart> charts = build_charts(a, b);
  if (!emphasis.empty())
    for (Chart& c : charts)
      for (Series& s : c.series)
        if (s.source.rfind("clients.", 0) == 0 && s.source.rfind("clients." + emphasis + ".", 0) != 0)
          s.colour = mix(s.colour, kPanel, 0.75f);
  Shade warmup = warmup_shade(a, b);
  if (window_only && warmup.zero_s > 2) warmup.first = static_cast<std::size_t>(warmup.zero_s) - 2;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const auto n = static_cast<float>(charts.size());
  const float h = (avail.y - (n - 1) * ImGui::GetStyle().ItemSpacing.y) / n;
  // Each chart keeps room for its plot under a wrapped title and a two-run
  // legend, as the text grows; the window scrolls rather than squeezing a
  // latency axis to a line.
  const ImVec2 size(avail.x, std::max(h, ImGui::GetTextLineHeight() * 10));
  for (const Chart& c : charts) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (drawn) (*drawn)[c.id] = Box{at, ImVec2(at.x + size.x, at.y + size.y)};
    plot(c, size, warmup);
  }
}

nlohmann::ordered_json charts_json(Session& a, Session* b) {
  nlohmann::ordered_json charts = nlohmann::ordered_json::array();
  for (const Chart& c : build_charts(a, b)) {
    nlohmann::ordered_json series = nlohmann::ordered_json::array();
    for (const Series& s : c.series) {
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (float v : *s.values) {
        if (std::isfinite(v))
          values.push_back(static_cast<double>(v));
        else
          values.push_back(nullptr);
      }
      series.push_back({{"label", s.label}, {"session", s.session}, {"run", s.owner}, {"source", s.source}, {"values", std::move(values)}});
    }
    charts.push_back({{"id", c.id}, {"title", c.title}, {"unit", c.unit}, {"log", c.log}, {"series", std::move(series)}});
  }
  return charts;
}

}  // namespace ui
