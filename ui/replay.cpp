#include "ui/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "ui/app.h"
#include "ui/dim.h"
#include "ui/palette.h"

namespace ui {

namespace {

using models::Stage;

constexpr double kWalk = 0.35;  // share of a stop's screen time spent walking there from the last place
constexpr ImU32 kCustomer = IM_COL32(255, 120, 200, 255);  // the customer followed: a colour no place uses
constexpr ImU32 kTrail = IM_COL32(255, 120, 200, 150);

Place place_of(Stage s, models::Runner runner) {
  const bool in_pool = runner == models::Runner::kPool;
  switch (s) {
    case Stage::kClient:
    case Stage::kNetwork: return Place::kStreet;
    case Stage::kBacklog: return Place::kDoor;
    case Stage::kLoopBlocked:
    case Stage::kLoopBusy: return Place::kQueue;
    case Stage::kTimer: return Place::kBench;
    case Stage::kRunQueue:
    case Stage::kCpu: return in_pool ? Place::kTeam : Place::kCounter;  // io_uring's retry: the worker's task_work
    case Stage::kPoolQueue: return runner == models::Runner::kUring ? Place::kCounter : Place::kTeam;
    case Stage::kDiskSlot:
    case Stage::kDiskMetadata:
    case Stage::kDiskData: return Place::kWarehouse;
    case Stage::kReclaim: return Place::kShelves;
    case Stage::kSocket: return Place::kDock;
    case Stage::kCount: break;
  }
  return Place::kCounter;
}

std::string ms(double s) {
  char b[32];
  std::snprintf(b, sizeof b, s >= 0.1 ? "%.0f ms" : s >= 0.001 ? "%.1f ms" : "%.3f ms", s * 1e3);
  return b;
}

// Who goes to the warehouse for a disk stop, in the store's words and the server's.
const char* who_reads(models::Runner r) {
  switch (r) {
    case models::Runner::kLoop: return " (the clerk himself goes: his loop is blocked)";
    case models::Runner::kPool: return " (the delivery team goes; the clerk serves on)";
    case models::Runner::kAio: return " (the warehouse sends it by its own courier, the kernel's AIO; the clerk serves on)";
    case models::Runner::kUring: return " (the warehouse rings when it is in, io_uring's page callback; nobody waits there, the clerk serves on)";
    case models::Runner::kPreload: return " (ordered ahead from the warehouse, the kernel's preload; the clerk serves on)";
  }
  return "";
}
const char* reader(models::Runner r) {
  switch (r) {
    case models::Runner::kLoop: return ", the worker in D (its loop blocked)";
    case models::Runner::kPool: return ", a pool thread in D";
    case models::Runner::kAio: return ", native AIO in flight (no thread in D)";
    case models::Runner::kUring: return ", an io_uring read waiting on the page's wait queue (a callback, no thread in D)";
    case models::Runner::kPreload: return ", a preload read in flight (aio daemon or sendfile's own read; no worker in D)";
  }
  return "";
}

// An io_uring leg away from the warehouse (nowait_probe.h): waiting for a
// ring entry (the model's bound: one wait entry per SQ entry), or the read's
// retry once the page is in, which the kernel runs as the submitting
// worker's task_work (io_async_buf_func()): the clerk copies it himself.
// The stages io_uring's own words describe: waiting for a ring entry
// (kPoolQueue) and the worker's task_work retry of the read, waiting for
// its CPU and on it (kRunQueue, kCpu). Any other stop (a reclaim on the
// shelves) keeps its stage's words.
bool uring_stage(Stage s) { return s == Stage::kPoolQueue || s == Stage::kRunQueue || s == Stage::kCpu; }

void uring_words(Stage s, std::string& store, std::string& server) {
  if (s == Stage::kPoolQueue) {
    store = "waiting for a free order slip (every one of the ring's is out)";
    server = "io_uring: every ring entry in flight";
    return;
  }
  store += ", unpacking what the warehouse sent";
  server += ", io_uring's retry of the read (task_work)";
}

// A customer: a head and a body, drawn around `c` (the body's centre).
void draw_customer(ImDrawList* dl, ImVec2 c, float r) {
  dl->AddCircleFilled(c, r, kCustomer, 20);
  dl->AddCircleFilled(ImVec2(c.x, c.y - r * 1.45f), r * 0.6f, kCustomer, 16);
  dl->AddCircle(c, r, kInk, 20, 1.5f);
  dl->AddCircle(ImVec2(c.x, c.y - r * 1.45f), r * 0.6f, kInk, 16, 1.5f);
}

void replay_bar(App& app, Box store) {
  Replay& r = app.replay;
  ImGui::SetNextWindowPos(ImVec2(store.min.x + 8, store.min.y + 26), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.9f);
  ImGui::Begin("follow one customer", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  app.view_boxes["replay"] = Box{pos, ImVec2(pos.x + size.x, pos.y + size.y)};
  ImGui::TextUnformatted("Follow one customer:");
  for (const char* which : {"p50", "p99", "max"}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(which, r.which == which)) {
      std::string error;
      Replay next = r;
      if (start_replay(next, app.a, r.group, which, error)) r = next;
    }
  }
  ImGui::SameLine();
  if (ImGui::Button(r.paused ? "play" : "pause")) r.paused = !r.paused;
  ImGui::SameLine();
  if (ImGui::Button("again")) r.t = 0;
  ImGui::SameLine();
  if (ImGui::Button("close")) r.active = false;
  ImGui::End();
}

}  // namespace

const char* place_name(Place p) {
  switch (p) {
    case Place::kStreet: return "street";
    case Place::kDoor: return "door";
    case Place::kQueue: return "queue";
    case Place::kBench: return "bench";
    case Place::kCounter: return "counter";
    case Place::kTeam: return "team";
    case Place::kWarehouse: return "warehouse";
    case Place::kShelves: return "shelves";
    case Place::kDock: return "dock";
  }
  return "?";
}

std::vector<std::string> stop_caption(const JourneyStop& st) {
  std::vector<std::string> out;
  if (st.stage == Stage::kCount) {
    out.push_back("the last " + std::to_string(st.folded) + " legs, summed: " + ms(st.seconds) + " real time (a journey keeps " +
                  std::to_string(models::Journey::kLegs - 1) + " legs apart and sums the rest in its last)");
    return out;
  }
  const models::StageInfo& info = models::stage_info(st.stage);
  std::string store = info.store, server = info.server;
  if (st.part_s > 0) {
    const models::StageInfo& part = models::stage_info(models::RequestStages::split_into(st.stage));
    if (st.seconds - st.part_s > 0) {
      store = std::string(part.store) + " " + ms(st.part_s) + ", " + store + " " + ms(st.seconds - st.part_s);
      server = std::string(part.server) + " " + ms(st.part_s) + "; " + server + " " + ms(st.seconds - st.part_s);
    } else {
      store = part.store;
      server = part.server;
    }
  }
  if (st.place == Place::kWarehouse) {
    store += who_reads(st.runner);
    server += reader(st.runner);
  } else if (st.place == Place::kTeam && st.stage != Stage::kPoolQueue) {
    server += ", a pool thread";
  } else if (st.runner == models::Runner::kUring && uring_stage(st.stage)) {
    uring_words(st.stage, store, server);
  }
  out.push_back(std::string("at the ") + (st.place == Place::kTeam ? "delivery team" : place_name(st.place)) + ", " + ms(st.seconds) + " real time");
  out.push_back("store: " + store);
  out.push_back("server: " + server);
  return out;
}

std::vector<JourneyStop> journey_stops(const models::Journey& j) {
  std::vector<JourneyStop> out;
  for (std::size_t i = 0; i < j.count; ++i) {
    const Stage s = j.stages[i];
    JourneyStop st;
    st.stage = s;
    st.runner = j.runners[i];
    st.place = s == Stage::kCount ? (out.empty() ? Place::kStreet : out.back().place) : place_of(s, st.runner);
    st.seconds = sim::to_seconds(j.legs[i].duration);
    st.part_s = sim::to_seconds(j.legs[i].part);
    if (s == Stage::kCount) st.folded = j.folded;
    out.push_back(st);
  }
  return out;
}

std::vector<double> screen_seconds(const std::vector<JourneyStop>& stops) {
  double longest = 0;
  for (const JourneyStop& s : stops) longest = std::max(longest, s.seconds);
  std::vector<double> out;
  for (const JourneyStop& s : stops) out.push_back(longest > 0 ? std::max(kMinStopS, s.seconds / longest * kLongestStopS) : kMinStopS);
  return out;
}

ReplayAt replay_at(const std::vector<double>& screen, double t) {
  ReplayAt at;
  if (screen.empty()) {
    at.done = true;
    return at;
  }
  double start = 0;
  for (std::size_t i = 0; i < screen.size(); ++i) {
    if (t < start + screen[i]) {
      at.stop = i;
      at.fraction = std::max(0.0, (t - start) / screen[i]);
      return at;
    }
    start += screen[i];
  }
  at.stop = screen.size() - 1;
  at.fraction = 1;
  at.done = true;
  return at;
}

double replay_midway(const Replay& r) {
  std::size_t longest = 0;
  for (std::size_t i = 0; i < r.stops.size(); ++i)
    if (r.stops[i].seconds > r.stops[longest].seconds) longest = i;
  double t = 0;
  for (std::size_t i = 0; i < longest && i < r.screen.size(); ++i) t += r.screen[i];
  return r.screen.empty() ? 0 : t + r.screen[longest] / 2;
}

double replay_length(const Replay& r) { return std::accumulate(r.screen.begin(), r.screen.end(), 0.0); }

bool client_group(const Session& s, const std::string& name, std::uint32_t& group, std::string& error) {
  if (!s.world) {
    error = "no run";
    return false;
  }
  const models::Wrk& wrk = s.world->clients();
  std::string names;
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    if (wrk.group_spec(g).name == name) {
      group = g;
      return true;
    }
    names += (g ? ", " : "") + wrk.group_spec(g).name;
  }
  error = "'" + name + "': no client group of that name in this run (its groups: " + names + ")";
  return false;
}

namespace {
// Why there is nobody to follow: how much of the run has passed.
std::string no_response_yet(const Session& s, const std::string& group) {
  char when[96];
  if (s.world->measuring())
    std::snprintf(when, sizeof when, "in the first %.6g s of the measured window",
                  sim::to_seconds(s.world->engine().now() - s.world->window_start()));
  else
    std::snprintf(when, sizeof when, "during the warm-up (%.6g s so far)", sim::to_seconds(s.world->engine().now()));
  return "no response of group " + group + " has completed " + when;
}
}  // namespace

bool start_replay(Replay& r, const Session& s, std::uint32_t group, const std::string& which, std::string& error) {
  if (!s.world) {
    error = "no run";
    return false;
  }
  const models::Wrk& wrk = s.world->clients();
  if (group >= wrk.groups()) {
    error = "no client group " + std::to_string(group) + " (the run has " + std::to_string(wrk.groups()) + ")";
    return false;
  }
  const models::StageAggregate* agg = wrk.group_stages(group);
  if (agg == nullptr) {
    error = "this run keeps no stage clocks, so no request's journey can be shown";
    return false;
  }
  const models::JourneyRow row = which == "max" ? agg->worst_journey() : agg->percentile_journey(which == "p50" ? 50 : 99);
  if (row.requests == 0 || row.journey.count == 0) {
    error = no_response_yet(s, wrk.group_spec(group).name);
    return false;
  }
  r.active = true;
  r.which = which;
  r.group = group;
  r.group_name = wrk.group_spec(group).name;
  r.latency_s = row.latency_s;
  r.stops = journey_stops(row.journey);
  r.screen = screen_seconds(r.stops);
  if (!r.fixed) r.t = 0;
  r.paused = false;
  return true;
}

Box place_box(const StoreLayout& L, Place p) {
  const Counter* c = L.counters.empty() ? nullptr : &L.counters[0];
  switch (p) {
    case Place::kStreet: return L.street;
    case Place::kDoor: return L.door;
    case Place::kQueue: return c ? c->lane : L.shop;
    case Place::kBench: return c ? c->bench : L.shop;
    case Place::kCounter: return c ? Box{ImVec2(c->lane.max.x, c->desk.min.y), ImVec2(c->cell.at(0.70f, 0).x, c->desk.max.y)} : L.shop;
    case Place::kTeam: return c ? c->team : L.shop;
    case Place::kWarehouse: return L.warehouse;
    case Place::kShelves: return L.shelves;
    case Place::kDock: return L.dock;
  }
  return L.shop;
}

ImVec2 place_point(const StoreLayout& L, Place p) {
  const Box b = place_box(L, p);
  if (p == Place::kQueue) return b.at(0.88f, 0.5f);  // the head of the queue, nearest the counter
  if (p == Place::kCounter && !L.counters.empty()) {
    const Counter& c = L.counters[0];
    return ImVec2(c.desk.min.x - (c.desk.min.x - c.lane.max.x) * 0.5f, c.desk.min.y + c.desk.h() * 0.5f);
  }
  return b.at(0.5f, 0.55f);
}

ImVec2 customer_point(const Replay& r, const StoreLayout& L) {
  const ReplayAt at = replay_at(r.screen, r.t);
  if (r.stops.empty()) return L.street.at(0.5f, 0.5f);
  const ImVec2 to = place_point(L, r.stops[at.stop].place);
  const ImVec2 from = at.stop == 0 ? L.street.at(0.5f, 0.5f) : place_point(L, r.stops[at.stop - 1].place);
  const float k = static_cast<float>(std::min(1.0, at.fraction / kWalk));
  const float e = k * k * (3 - 2 * k);  // eased
  return ImVec2(from.x + (to.x - from.x) * e, from.y + (to.y - from.y) * e);
}

void draw_replay(App& app, float dt) {
  Replay& r = app.replay;
  if (!r.active || r.stops.empty()) return;
  const auto store_it = app.view_boxes.find("store");
  if (store_it == app.view_boxes.end()) return;
  if (!r.paused && !r.fixed) r.t += static_cast<double>(dt);
  const StoreLayout& L = app.anim_a.layout;
  const ReplayAt at = replay_at(r.screen, r.t);
  const JourneyStop& st = r.stops[at.stop];
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  // Everything but the lesson's panel dimmed, the store less than the rest.
  const Box store = store_it->second;
  const auto lesson = app.view_boxes.find("lesson");
  const ImU32 shade = IM_COL32(0, 0, 0, 170);
  std::vector<Box> keep = {store};
  if (lesson != app.view_boxes.end()) keep.push_back(lesson->second);  // the lesson's text stays readable
  dim_outside(dl, keep, shade);
  dl->AddRectFilled(store.min, store.max, IM_COL32(0, 0, 0, 140));
  const float r0 = std::max(L.dot * 2.5f, 7.0f);
  // The trail: the places visited so far, in order.
  ImVec2 prev = L.street.at(0.5f, 0.5f);
  for (std::size_t i = 0; i < at.stop; ++i) {
    const ImVec2 p = place_point(L, r.stops[i].place);
    dl->AddLine(prev, p, kTrail, 2);
    dl->AddCircleFilled(p, 3, kTrail);
    prev = p;
  }
  // The place the customer is at (or walking to), ringed.
  const Box here = place_box(L, st.place);
  dl->AddRect(ImVec2(here.min.x - 3, here.min.y - 3), ImVec2(here.max.x + 3, here.max.y + 3), kCustomer, 5, 0, 2.5f);
  if (st.place == Place::kWarehouse && !L.counters.empty() &&
      (st.runner == models::Runner::kLoop || st.runner == models::Runner::kPool)) {
    // Who went: the clerk himself (his loop blocked) or the delivery team;
    // the kernel's own reads (AIO, a preload) take nobody of the store.
    const Counter& c = L.counters[0];
    const bool team = st.runner == models::Runner::kPool;
    dl->AddLine(team ? c.team.at(0.5f, 0.5f) : c.clerk, place_point(L, st.place), team ? kTeam : kDiskWait, 2.5f);
  }
  const ImVec2 me = customer_point(r, L);
  draw_customer(dl, me, r0);
  // The caption at the store's bottom, over a panel.
  std::vector<std::string> lines;
  char head[256];
  std::snprintf(head, sizeof head, "One customer: the %s request of %s, %s in all. Stop %zu of %zu%s", r.which.c_str(),
                r.group_name.c_str(), ms(r.latency_s).c_str(), at.stop + 1, r.stops.size(), at.done ? " (the end)" : "");
  lines.push_back(head);
  for (const std::string& l : stop_caption(st)) lines.push_back(l);
  const float fs = ImGui::GetFontSize(), pad = 6;
  const float wrap = store.w() - 12 - pad * 2;
  float h = (fs + 3) + pad * 2;  // the route's line
  for (const std::string& l : lines) h += ImGui::CalcTextSize(l.c_str(), nullptr, false, wrap).y + 3;
  const Box cap{ImVec2(store.min.x + 6, store.max.y - h - 6), ImVec2(store.max.x - 6, store.max.y - 6)};
  dl->AddRectFilled(cap.min, cap.max, IM_COL32(20, 22, 30, 235), 4);
  dl->AddRect(cap.min, cap.max, kCustomer, 4, 0, 1.5f);
  float y = cap.min.y + pad;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    dl->AddText(nullptr, 0, ImVec2(cap.min.x + pad, y), i == 0 ? kCustomer : kInk, lines[i].c_str(), nullptr, wrap);
    y += ImGui::CalcTextSize(lines[i].c_str(), nullptr, false, wrap).y + 3;
  }
  // The route: every stop in order, the present one bright.
  float x = cap.min.x + pad;
  for (std::size_t i = 0; i < r.stops.size(); ++i) {
    const std::string word = (i ? "> " : "") + std::string(place_name(r.stops[i].place));
    const float w = ImGui::CalcTextSize(word.c_str()).x + 4;
    if (x + w > cap.max.x - pad) {
      dl->AddText(ImVec2(x, y), kFaint, "...");
      break;
    }
    dl->AddText(ImVec2(x, y), i == at.stop ? kCustomer : i < at.stop ? kInk : kFaint, word.c_str());
    x += w;
  }
  replay_bar(app, store);
}

std::string replay_text(const App& app, float sx, float sy) {
  const Replay& r = app.replay;
  if (!r.active || r.stops.empty()) return "replay none\n";
  const ReplayAt at = replay_at(r.screen, r.t);
  const ImVec2 me = customer_point(r, app.anim_a.layout);
  const Box here = place_box(app.anim_a.layout, r.stops[at.stop].place);
  char line[256];
  std::snprintf(line, sizeof line, "replay %s stop %zu/%zu %s %.0f %.0f place %.0f %.0f %.0f %.0f\n", r.which.c_str(), at.stop + 1,
                r.stops.size(), place_name(r.stops[at.stop].place), static_cast<double>(me.x * sx), static_cast<double>(me.y * sy),
                static_cast<double>(here.min.x * sx), static_cast<double>(here.min.y * sy), static_cast<double>(here.max.x * sx),
                static_cast<double>(here.max.y * sy));
  return line;
}

}  // namespace ui
