#include "ui/charts_view.h"

#include <imgui.h>

#include <string>
#include <vector>

#include "ui/palette.h"
#include "ui/plot.h"

namespace ui {

namespace {
ImU32 lighter(ImU32 c) { return mix(c, IM_COL32(255, 255, 255, 255), 0.5f); }

// Adds one series per session: A in `colour`, B lighter and thinner.
void both(std::vector<Series>& out, Session& a, Session* b, const std::string& label, ImU32 colour,
          const std::vector<float>& (*pick)(Session&)) {
  out.push_back(Series{b ? a.label + " " + label : label, &pick(a), colour, 2.0f});
  if (b) out.push_back(Series{b->label + " " + label, &pick(*b), lighter(colour), 1.2f});
}
}  // namespace

void draw_charts(Session& a, Session* b) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float h = (avail.y - 5 * ImGui::GetStyle().ItemSpacing.y) / 6.0f;
  const ImVec2 size(avail.x, std::max(h, 60.0f));
  std::vector<Series> s;

  both(s, a, b, "out", kDock, [](Session& x) -> const std::vector<float>& { return x.recorder.out_gbps; });
  plot("nic", "Outbound traffic (ifstat)", "Gbit/s", s, 1.0f, "goods leaving by the loading dock each second.",
       "server NIC outbound, interface bytes (payload and headers) per 1 s sample.", size);

  s.clear();
  for (Session* x : {&a, b}) {
    if (!x) continue;
    for (std::size_t g = 0; g < x->recorder.groups.size(); ++g) {
      const ImU32 c = x == &a ? group_colour(static_cast<std::uint32_t>(g)) : lighter(group_colour(static_cast<std::uint32_t>(g)));
      s.push_back(Series{(b ? x->label + " " : "") + x->recorder.groups[g].name, &x->recorder.groups[g].requests_per_s, c,
                         x == &a ? 2.0f : 1.2f});
    }
  }
  plot("rps", "Requests per second, per client group", "req/s", s, 1.0f, "customers served each second, by kind.",
       "responses wrk completed each second, per wrk group.", size);

  s.clear();
  for (Session* x : {&a, b}) {
    if (!x) continue;
    for (std::size_t g = 0; g < x->recorder.groups.size(); ++g) {
      const ImU32 c = x == &a ? group_colour(static_cast<std::uint32_t>(g)) : lighter(group_colour(static_cast<std::uint32_t>(g)));
      const std::string name = (b ? x->label + " " : "") + x->recorder.groups[g].name;
      s.push_back(Series{name + " p99", &x->recorder.groups[g].latency_p99_s, c, x == &a ? 2.0f : 1.2f});
      s.push_back(Series{name + " p50", &x->recorder.groups[g].latency_p50_s, mix(c, kPanel, 0.45f), 1.0f});
    }
  }
  plot("lat", "Latency p50 / p99 of responses completed that second", "s", s, 0.01f,
       "how long a customer waited, from asking to having everything.",
       "request written to last byte read, per wrk group, without wrk's coordinated-omission correction.", size);

  s.clear();
  both(s, a, b, "hit ratio", kShelf, [](Session& x) -> const std::vector<float>& { return x.recorder.cache_hit_ratio; });
  plot("cache", "Page cache hit ratio", "of lookups", s, 1.0f, "share of items found on the shelves.",
       "page-cache lookups by sendfile() that found the data in RAM, per second.", size);

  s.clear();
  both(s, a, b, "per drive", kCrate, [](Session& x) -> const std::vector<float>& { return x.recorder.disk_queue_depth; });
  plot("disk", "Disk queue depth", "requests", s, 1.0f, "crates waiting in each warehouse bay.",
       "mean reads queued or in service per drive, time-averaged over the second.", size);

  s.clear();
  both(s, a, b, "workers in D", kDiskWait, [](Session& x) -> const std::vector<float>& { return x.recorder.workers_disk_wait; });
  both(s, a, b, "pool tasks waiting", kTeam, [](Session& x) -> const std::vector<float>& { return x.recorder.pool_waiting_total; });
  plot("block", "Blocked clerks and waiting orders", "mean count", s, 1.0f,
       "clerks away at the warehouse; orders waiting for the delivery team.",
       "workers in D state (time-averaged); tasks waiting in all thread pools' queues.", size);
}

}  // namespace ui
