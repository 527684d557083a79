#include "ui/store_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "ui/counter_tally.h"
#include "ui/explain.h"
#include "ui/palette.h"
#include "ui/text_fit.h"

namespace ui {

namespace {

// The store's draw list's vertices past which no more customer dots are
// drawn: room left below 65,536 for what is drawn after them (labels, the
// hover box) and the rest of the window.
constexpr int kDotVertexBudget = 48000;

using Phase = models::HttpConnection::Phase;

enum class HitKind { kNone, kClerk, kTeam, kBench, kCustomer, kStreet, kDoor, kShelves, kDrive, kDock };
struct Hit {
  HitKind kind = HitKind::kNone;
  std::uint32_t index = 0;
};

// Slot k of a grid filling `box` row by row from the top left.
ImVec2 grid_slot(const Box& box, float spacing, int k) {
  const int per_row = std::max(1, static_cast<int>(box.w() / spacing));
  return ImVec2(box.min.x + spacing * (static_cast<float>(k % per_row) + 0.5f),
                box.min.y + spacing * (static_cast<float>(k / per_row) + 0.5f));
}
int grid_cap(const Box& box, float spacing) {
  return std::max(1, static_cast<int>(box.w() / spacing)) * std::max(1, static_cast<int>(box.h() / spacing));
}
// Slot k of a counter's queue: from the counter outwards, then the next row.
ImVec2 lane_slot(const Counter& c, int k) {
  const int per_row = std::max(1, static_cast<int>(c.lane.w() / c.spacing));
  return ImVec2(c.lane.max.x - c.spacing * (static_cast<float>(k % per_row) + 0.5f),
                c.lane.min.y + c.spacing * (static_cast<float>(k / per_row) + 0.5f));
}

void text(ImDrawList* dl, ImVec2 at, ImU32 col, const char* s) { dl->AddText(at, col, s); }

// Every word of `s` fits `width` (else wrapping breaks words: "shelve / s").
bool words_fit(const char* s, float width) {
  const std::string t(s);
  std::size_t start = 0;
  while (start < t.size()) {
    const std::size_t end = std::min(t.find(' ', start), t.size());
    if (ImGui::CalcTextSize(t.c_str() + start, t.c_str() + end).x > width) return false;
    start = end + 1;
  }
  return true;
}
// Text wrapped at `width` pixels; returns the y below it.
float wrapped(ImDrawList* dl, ImVec2 at, ImU32 col, const char* s, float width) {
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, col, s, nullptr, width);
  return at.y + ImGui::CalcTextSize(s, nullptr, false, width).y;
}

void draw_clerk(ImDrawList* dl, ImVec2 at, float size, ImU32 col) {
  dl->AddCircleFilled(ImVec2(at.x, at.y - size * 0.9f), size * 0.45f, col, 10);
  dl->AddRectFilled(ImVec2(at.x - size * 0.45f, at.y - size * 0.4f), ImVec2(at.x + size * 0.45f, at.y + size * 0.8f), col, 2);
}

// "clerk 3  12 here, oldest 1.2 s", shortened until it fits `width` pixels.
void counter_label(char* buf, std::size_t size, std::uint32_t i, const CounterTally& t, float width) {
  const int here = static_cast<int>(t.here());
  std::snprintf(buf, size, "clerk %u  %d here, oldest %s", i, here, seconds_text(t.oldest_s).c_str());
  if (ImGui::CalcTextSize(buf).x <= width) return;
  std::snprintf(buf, size, "clerk %u  %d here", i, here);
  if (ImGui::CalcTextSize(buf).x <= width) return;
  std::snprintf(buf, size, "%u: %d", i, here);
}

ImU32 state_colour(models::TaskState s) {
  return s == models::TaskState::kRunning ? kRunning : s == models::TaskState::kSleeping ? kSleeping : kDiskWait;
}

}  // namespace

void draw_store(Session& s, StoreAnim& anim, Box area, float zoom, ImVec2 pan, float dt, bool snap, const char* title) {
  models::World& world = *s.world;
  models::Nginx& server = world.server();
  const std::uint32_t n = server.workers();
  const std::vector<std::size_t> queues = drive_queues(world);
  const float lh = ImGui::GetFontSize();
  const StoreLayout L = layout_store(area, n, static_cast<std::uint32_t>(queues.size()), zoom, pan, lh);
  anim.layout = L;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(area.min, area.max, true);
  // Thousands of small shapes: without anti-aliased edges each costs a third
  // of the triangles, which software rendering feels.
  const ImDrawListFlags flags = dl->Flags;
  dl->Flags &= ~(ImDrawListFlags_AntiAliasedFill | ImDrawListFlags_AntiAliasedLines);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool mouse_in = area.contains(mouse) && ImGui::IsWindowHovered();
  Hit hit;
  const float ease = snap ? 1.0f : 1.0f - std::exp(-dt * 10.0f);
  char buf[160];

  // The places.
  // Places are outlined, not filled: under software rendering every filled pixel costs.
  dl->AddRect(L.street.min, L.street.max, kPanel, 4, 0, 2);
  text(dl, ImVec2(L.street.min.x + 3, L.street.min.y + 1), kInk, fitted({"street"}, L.street.w() - 4).c_str());
  dl->AddRectFilled(L.door.min, L.door.max, IM_COL32(70, 60, 45, 255), 2);
  // The title, cut to the pane with "..." where it must be; the whole on hover.
  const std::string shown_title = fitted({title}, area.w() - 4);
  text(dl, ImVec2(L.all.min.x + 2, L.all.min.y + 1), kInk, shown_title.c_str());
  if (mouse_in && shown_title != title && mouse.y < L.all.min.y + lh + 2) ImGui::SetTooltip("%s", title);
  if (mouse_in) {
    if (L.street.contains(mouse)) hit = {HitKind::kStreet, 0};
    if (L.door.contains(mouse)) hit = {HitKind::kDoor, 0};
  }

  // Shelves: the page cache, filled as it holds data.
  {
    const Box& b = L.shelves;
    dl->AddRect(b.min, b.max, kShelf, 4);
    const models::PageCacheStats c = world.cache().stats();
    const double cap = static_cast<double>(s.scenario.hardware.page_cache_bytes);
    const float fill = cap > 0 ? static_cast<float>(static_cast<double>(c.resident_units * world.cache().unit_bytes()) / cap) : 0;
    // Two figures that answer different questions, both over the measured
    // window as `clerk run` prints them: how many pieces were on the shelves, and how
    // many responses waited in line while their clerk was at the warehouse.
    // Short forms when the long ones would fill more than two thirds of the box.
    const ShelfFigures f = shelf_figures(world);
    const float wrap = b.w() - 8;
    char head[64], hits[64], waited[64];
    // A few files in a large cache are not "0% full".
    char full[16];
    if (fill > 0 && fill < 0.005f)
      std::snprintf(full, sizeof full, "<1%%");
    else
      std::snprintf(full, sizeof full, "%.0f%%", static_cast<double>(fill) * 100);
    std::snprintf(head, sizeof head, "shelves = page cache, %s full", full);
    std::snprintf(hits, sizeof hits, "%.0f%% of %llu KiB pieces on the shelf", f.hit_ratio * 100,
                  static_cast<unsigned long long>(f.unit_kib));
    std::snprintf(waited, sizeof waited, "%.0f%% of responses waited for the warehouse", f.responses_waited * 100);
    const auto tall = [&] {
      return ImGui::CalcTextSize(head, nullptr, false, wrap).y + ImGui::CalcTextSize(hits, nullptr, false, wrap).y +
                 ImGui::CalcTextSize(waited, nullptr, false, wrap).y > b.h() * 0.67f ||
             !words_fit(head, wrap) || !words_fit(hits, wrap) || !words_fit(waited, wrap);
    };
    if (tall()) {
      std::snprintf(head, sizeof head, "page cache, %s full", full);
      std::snprintf(hits, sizeof hits, "%.0f%% of %lluK pieces hit", f.hit_ratio * 100, static_cast<unsigned long long>(f.unit_kib));
      std::snprintf(waited, sizeof waited, "%.0f%% of responses waited", f.responses_waited * 100);
    }
    if (tall()) {
      std::snprintf(head, sizeof head, "shelves %s full", full);
      std::snprintf(hits, sizeof hits, "%.0f%% hits", f.hit_ratio * 100);
      std::snprintf(waited, sizeof waited, "%.0f%% waited", f.responses_waited * 100);
    }
    dl->PushClipRect(b.min, b.max, true);
    float y = wrapped(dl, ImVec2(b.min.x + 4, b.min.y + 2), kInk, head, wrap);
    y = wrapped(dl, ImVec2(b.min.x + 4, y), kShelf, hits, wrap);
    y = wrapped(dl, ImVec2(b.min.x + 4, y), f.responses_waited > 0.05 ? kDiskWait : kInk, waited, wrap);
    dl->PopClipRect();
    const float top = y + 2, rows_h = std::max(b.max.y - 4 - top, 8.0f);
    for (int row = 0; row < 4; ++row) {
      const float y0 = top + rows_h * static_cast<float>(row) / 4.0f;
      const float y1 = y0 + rows_h / 4.0f - 3;
      dl->AddRectFilled(ImVec2(b.min.x + 6, y1), ImVec2(b.max.x - 6, y1 + 2), kFaint);
      const float row_fill = std::clamp(fill * 4 - static_cast<float>(row), 0.0f, 1.0f);
      if (row_fill > 0) dl->AddRectFilled(ImVec2(b.min.x + 8, y0 + 2), ImVec2(b.min.x + 8 + (b.w() - 16) * row_fill, y1), kShelf);
    }
    if (mouse_in && b.contains(mouse)) hit = {HitKind::kShelves, 0};
  }

  // The warehouse: one bay per drive, crates for the reads it has to serve.
  {
    const Box& b = L.warehouse;
    dl->AddRect(b.min, b.max, kCrate, 4, 0, 2);
    text(dl, ImVec2(b.min.x + 4, b.min.y + 2), kInk, fitted({"warehouse = disk", "warehouse", "disk"}, b.w() - 8).c_str());
    if (!has_disk(world))
      wrapped(dl, ImVec2(b.min.x + 4, b.min.y + 4 + lh), kFaint, "none: every file is on the shelves (disk type \"none\")",
              b.w() - 8);
    for (std::size_t d = 0; d < L.drives.size(); ++d) {
      const Box& bay = L.drives[d];
      dl->AddRect(bay.min, bay.max, kFaint, 2);
      const float crate = std::clamp(bay.w() * 0.3f, 3.0f, 8.0f);
      const int per_row = std::max(1, static_cast<int>((bay.w() - 4) / (crate + 1)));
      const int cap = per_row * std::max(1, static_cast<int>((bay.h() - 18) / (crate + 1)));
      const int q = static_cast<int>(queues[d]);
      for (int k = 0; k < std::min(q, cap); ++k) {
        const float x = bay.min.x + 2 + static_cast<float>(k % per_row) * (crate + 1);
        const float y = bay.max.y - 2 - static_cast<float>(k / per_row + 1) * (crate + 1);
        dl->AddRectFilled(ImVec2(x, y), ImVec2(x + crate, y + crate), kCrate);
      }
      std::snprintf(buf, sizeof buf, "%d", q);
      if (ImGui::CalcTextSize(buf).x <= bay.w() - 4) text(dl, ImVec2(bay.min.x + 3, bay.min.y + 2), kInk, buf);  // else the hover says
      if (mouse_in && bay.contains(mouse)) hit = {HitKind::kDrive, static_cast<std::uint32_t>(d)};
    }
  }

  // The loading dock: the NIC sending what the clerks and the team put on it.
  {
    const Box& b = L.dock;
    dl->AddRect(b.min, b.max, kDock, 4);
    const float gbps = s.recorder.out_gbps.empty() ? 0 : s.recorder.out_gbps.back();
    const float line = static_cast<float>(s.scenario.hardware.nic.line_rate_bps / 1e9);
    text(dl, ImVec2(b.min.x + 4, b.min.y + 2), kInk, fitted({"dock = NIC", "dock", "NIC"}, b.w() - 8).c_str());
    char full[64], shorter[64];
    std::snprintf(full, sizeof full, "%.2f of %.0f Gbit/s", static_cast<double>(gbps), static_cast<double>(line));
    std::snprintf(shorter, sizeof shorter, "%.2f Gbit/s", static_cast<double>(gbps));
    text(dl, ImVec2(b.min.x + 4, b.min.y + 3 + lh), kInk, fitted({full, shorter}, b.w() - 8).c_str());
    dl->AddRectFilled(ImVec2(b.min.x + 6, b.min.y + 6 + 2 * lh), ImVec2(b.min.x + 6 + (b.w() - 12) * std::min(gbps / line, 1.0f), b.min.y + 11 + 2 * lh), kDock);
    if (mouse_in && b.contains(mouse)) hit = {HitKind::kDock, 0};
  }

  // Counters, clerks and delivery teams. A counter's count is every customer
  // of its clerk (counter_tally.h), its colour how long the longest-waiting
  // one has waited, and an orange frame says the clerk is away at the warehouse.
  anim.walk.resize(n, 0.0f);
  const std::vector<CounterTally> tally = tally_counters(world);
  std::vector<int> lane_count(n, 0), bench_count(n, 0), team_count(n, 0);
  std::vector<ImVec2> clerk_at(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Counter& c = L.counters[i];
    const models::Worker& wk = std::as_const(server).worker(i);
    const models::TaskState st = world.tasks().state(wk.task());
    const CounterTally& t = tally[i];
    dl->AddRectFilled(c.cell.min, c.cell.max, counter_warmth(wait_warmth(t.oldest_s)), 4);
    if (st == models::TaskState::kDiskWait) dl->AddRect(c.cell.min, c.cell.max, kDiskWait, 4, 0, 2);
    dl->AddRectFilled(c.desk.min, c.desk.max, IM_COL32(140, 120, 90, 255), 2);
    const float target = st == models::TaskState::kDiskWait ? 1.0f : 0.0f;
    anim.walk[i] += (target - anim.walk[i]) * ease;
    const float k = anim.walk[i];
    // Clerks at the warehouse stand in a column so that each stays visible.
    const ImVec2 far(L.warehouse_door.x - 6 - static_cast<float>(i % 4) * 5,
                     L.warehouse.min.y + 20 + (L.warehouse.h() - 30) * (static_cast<float>(i) + 0.5f) / static_cast<float>(n));
    const ImVec2 at(c.clerk.x + (far.x - c.clerk.x) * k, c.clerk.y + (far.y - c.clerk.y) * k);
    clerk_at[i] = at;
    const float size = std::clamp(c.cell.h() * 0.22f, 4.0f, 14.0f);
    if (k > 0.02f) {
      dl->AddLine(c.clerk, at, (kDiskWait & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 120), 1.0f);
      dl->AddRect(ImVec2(c.clerk.x - size * 0.45f, c.clerk.y - size * 1.3f), ImVec2(c.clerk.x + size * 0.45f, c.clerk.y + size * 0.8f), kDiskWait, 2);
    }
    draw_clerk(dl, at, size, state_colour(st));
    if (c.cell.h() > 34 && c.cell.w() > 40) {
      counter_label(buf, sizeof buf, i, t, c.cell.w() - 6);
      text(dl, ImVec2(c.cell.min.x + 3, c.cell.min.y + 1), kInk, buf);
    }
    // The delivery team: one mark per thread, filled while it carries an order.
    if (const models::ThreadPool* pool = wk.pool()) {
      const int threads = static_cast<int>(pool->threads()), busy = static_cast<int>(pool->busy());
      const Box marks{c.team.min, c.team.at(1.0f, 0.55f)};
      const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(threads * marks.w() / std::max(marks.h(), 1.0f)))));
      const int rows = (threads + cols - 1) / cols;
      const float m = std::max(1.5f, std::min(marks.w() / static_cast<float>(cols), marks.h() / static_cast<float>(rows)));
      // The idle part of the team is one dim block; busy members are marks on it.
      dl->AddRectFilled(marks.min, ImVec2(marks.min.x + m * static_cast<float>(cols), marks.min.y + m * static_cast<float>(rows)),
                        IM_COL32(75, 60, 100, 255));
      for (int t = 0; t < busy; ++t) {
        const ImVec2 p(marks.min.x + m * static_cast<float>(t % cols), marks.min.y + m * static_cast<float>(t / cols));
        dl->AddRectFilled(p, ImVec2(p.x + m - 1, p.y + m - 1), kTeam);
      }
      if (mouse_in && c.team.contains(mouse)) hit = {HitKind::kTeam, i};
    }
    if (mouse_in && c.cell.contains(mouse) && hit.kind != HitKind::kTeam) hit = {HitKind::kClerk, i};
    if (mouse_in && c.bench.contains(mouse)) hit = {HitKind::kBench, i};
    if (mouse_in && std::fabs(mouse.x - at.x) < size && std::fabs(mouse.y - at.y) < size) hit = {HitKind::kClerk, i};
  }

  // Customers: every connection is a dot where its phase puts it.
  const models::Wrk& wrk = world.clients();
  const auto conns = static_cast<std::uint32_t>(wrk.connections_opened());
  anim.dot.resize(conns);
  anim.placed.resize(conns, 0);
  const float sp = std::max(L.dot * 2.2f, 2.5f);
  const auto groups = static_cast<float>(wrk.groups());
  const Box street_grid{ImVec2(L.street.min.x + 3, L.street.min.y + 3 + lh), ImVec2(L.street.max.x - 3, L.street.max.y - 4 - (lh + 1) * groups)};
  const Box dock_grid{ImVec2(L.dock.min.x + 6, L.dock.min.y + 16 + 2 * lh), ImVec2(L.dock.max.x - 6, L.dock.max.y - 4)};
  const int street_cap = grid_cap(street_grid, sp), door_cap = grid_cap(L.door, sp), dock_cap = grid_cap(dock_grid, sp);
  int street = 0, door = 0, dock = 0;
  float best = L.dot + 3;
  std::int64_t best_conn = -1;
  for (std::uint32_t id = 0; id < conns; ++id) {
    const models::HttpConnection* hc = id < server.connection_slots() ? &std::as_const(server).conn(id) : nullptr;
    const Phase ph = hc ? hc->phase : Phase::kIdle;
    if (ph == Phase::kClosed || ph == Phase::kUnused) continue;
    const auto w = static_cast<std::uint32_t>(hc && hc->worker >= 0 ? hc->worker : 0);
    const Counter& c = L.counters[std::min(w, n - 1)];
    ImVec2 target;
    bool visible = true;
    switch (ph) {
      case Phase::kBacklog:
        visible = door < door_cap;
        target = grid_slot(L.door, sp, door++);
        break;
      case Phase::kQueued:
        visible = lane_count[w] < c.lane_cap;
        target = lane_slot(c, lane_count[w]++);
        break;
      case Phase::kSending:
        target = ImVec2(clerk_at[w].x - L.dot * 2.5f, clerk_at[w].y);
        break;
      case Phase::kDelayed:
        visible = bench_count[w] < grid_cap(c.bench, sp);
        target = grid_slot(c.bench, sp, bench_count[w]++);
        break;
      case Phase::kWaitPool: {
        const Box orders{c.team.at(0.0f, 0.6f), c.team.max};
        visible = team_count[w] < grid_cap(orders, sp);
        target = grid_slot(orders, sp, team_count[w]++);
        break;
      }
      case Phase::kWaitWritable:
        visible = dock < dock_cap;
        target = grid_slot(dock_grid, sp, dock++);
        break;
      default:  // idle: on the street, reading a response or about to ask again
        visible = street < street_cap;
        target = grid_slot(street_grid, sp, street++);
        break;
    }
    if (!visible) continue;
    ImVec2& p = anim.dot[id];
    if (!anim.placed[id]) {
      p = target;
      anim.placed[id] = 1;
    } else {
      p.x += (target.x - p.x) * ease;
      p.y += (target.y - p.y) * ease;
    }
    const ImU32 col = group_colour(hc ? hc->group : 0);
    // Tens of thousands of connections fill the grids' every slot: past a
    // budget the dots are left out, so that the window's draw list stays
    // within the 65,536 vertices of ImGui's 16-bit indices on a renderer
    // without vertex offsets (OpenGL before 3.2: the window asks for 3.0).
    if (dl->VtxBuffer.Size >= kDotVertexBudget) continue;
    if (L.dot < 2.5f)
      dl->AddRectFilled(ImVec2(p.x - L.dot, p.y - L.dot), ImVec2(p.x + L.dot, p.y + L.dot), col);
    else
      dl->AddCircleFilled(p, L.dot, col, 6);
    if (mouse_in) {
      const float d = std::fabs(mouse.x - p.x) + std::fabs(mouse.y - p.y);
      if (d < best) {
        best = d;
        best_conn = id;
      }
    }
  }
  // What does not fit is counted where it waits.
  const auto more = [&](int count, int cap, ImVec2 at) {
    if (count <= cap) return;
    std::snprintf(buf, sizeof buf, "+%d", count - cap);
    dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(at.x + ImGui::CalcTextSize(buf).x + 1, at.y + lh), IM_COL32(0, 0, 0, 170));
    text(dl, at, kInk, buf);
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    const Counter& c = L.counters[i];
    more(lane_count[i], c.lane_cap, ImVec2(c.lane.min.x, c.lane.max.y - lh));
    more(bench_count[i], grid_cap(c.bench, sp), ImVec2(c.bench.min.x, c.bench.min.y));
    const Box orders{c.team.at(0.0f, 0.6f), c.team.max};
    more(team_count[i], grid_cap(orders, sp), ImVec2(orders.min.x, orders.max.y - lh));
  }
  more(street, street_cap, ImVec2(street_grid.min.x, street_grid.max.y - lh));
  more(door, door_cap, ImVec2(L.door.min.x, L.door.max.y - lh));
  more(dock, dock_cap, ImVec2(dock_grid.min.x, dock_grid.max.y - lh));
  // Which colour is which client group.
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    const ImVec2 at(L.street.min.x + 4, L.street.max.y - (lh + 1) * (groups - static_cast<float>(g)) - 2);
    dl->AddRectFilled(ImVec2(at.x, at.y + lh * 0.25f), ImVec2(at.x + lh * 0.55f, at.y + lh * 0.8f), group_colour(g));
    text(dl, ImVec2(at.x + lh * 0.8f, at.y), kInk, fitted({wrk.group_spec(g).name}, L.street.w() - lh * 0.8f - 6).c_str());
  }
  if (best_conn >= 0) hit = {HitKind::kCustomer, static_cast<std::uint32_t>(best_conn)};

  // Legend along the bottom edge.
  // Legend along the bottom edge, as long a version as fits.
  {
    const float room = L.all.max.x - L.shop.min.x - 4;
    const char* legend = "clerk = worker, queue = ready connections, bench = 1 ms timers, team = thread pool; counter colour = "
                         "longest wait (10 ms to 1 s); hover for details";
    if (ImGui::CalcTextSize(legend).x > room) legend = "clerk = worker, queue = ready, bench = 1 ms timers, team = pool; colour = longest wait; hover";
    if (ImGui::CalcTextSize(legend).x > room) legend = "colour = longest wait; hover for details";
    text(dl, ImVec2(L.shop.min.x + 2, L.all.max.y - lh - 1), kFaint, fitted({legend, "colour = longest wait"}, room).c_str());
  }
  dl->Flags = flags;
  dl->PopClipRect();

  if (hit.kind == HitKind::kNone) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
  switch (hit.kind) {
    case HitKind::kClerk: explain_clerk(world, hit.index); break;
    case HitKind::kTeam: explain_team(world, hit.index); break;
    case HitKind::kBench: explain_bench(world, hit.index); break;
    case HitKind::kCustomer: explain_customer(world, hit.index); break;
    case HitKind::kStreet: explain_street(world); break;
    case HitKind::kDoor: explain_door(world); break;
    case HitKind::kShelves: explain_shelves(world); break;
    case HitKind::kDrive: explain_drive(world, hit.index); break;
    case HitKind::kDock: explain_dock(world); break;
    case HitKind::kNone: break;
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace ui
