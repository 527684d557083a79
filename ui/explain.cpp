#include "ui/explain.h"

#include <imgui.h>

#include <utility>

#include "models/hardware/block_queue.h"
#include "models/scenario/disk_kinds.h"
#include "ui/counter_tally.h"

namespace ui {

namespace {
using models::TaskState;

void store(const char* s) { ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1), "Store: %s", s); }
void server_words(const char* s) { ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: %s", s); }

const char* state_word(TaskState s) {
  return s == TaskState::kRunning ? "R (running)" : s == TaskState::kSleeping ? "S (sleeping in epoll_wait)" : "D (waiting for the disk)";
}
}  // namespace

std::vector<std::size_t> drive_queues(models::World& world) {
  std::vector<std::size_t> q;
  for (const models::DriveView& v : world.disk().drive_views()) q.push_back(v.requests);
  return q;
}

bool has_disk(models::World& world) { return !models::disk_kind(world.scenario().hardware.disk).in_memory; }

ShelfFigures shelf_figures(models::World& world) {
  ShelfFigures f;
  // The measured window's counters, as `clerk run` reports them: since the
  // warm-up ended, or since t = 0 while it runs.
  const models::WindowStart& base = world.window();
  const models::PageCacheStats now = world.cache().stats();
  const models::ServerStats& s = world.server().stats();
  const std::uint64_t hits = now.hits - base.cache.hits;
  const std::uint64_t delayed = s.responses_delayed - base.server.responses_delayed;
  f.unit_kib = world.cache().unit_bytes() / 1024;
  f.lookups = now.lookups - base.cache.lookups;
  f.responses = s.responses - base.server.responses;
  f.hit_ratio = f.lookups ? static_cast<double>(hits) / static_cast<double>(f.lookups) : 0.0;
  f.responses_waited = f.responses ? static_cast<double>(delayed) / static_cast<double>(f.responses) : 0.0;
  return f;
}

const char* phase_name(std::uint8_t phase) {
  static const char* names[] = {"unused", "in the listen queue", "idle (keep-alive)", "ready in the epoll list",
                                "being served", "1 ms timer after a full chunk", "waiting for the socket (EPOLLOUT)",
                                "a pool thread sends its chunk", "closed"};
  return phase < 9 ? names[phase] : "?";
}

void explain_clerk(models::World& world, std::uint32_t w) {
  const models::Worker& wk = std::as_const(world.server()).worker(w);
  const TaskState st = world.tasks().state(wk.task());
  ImGui::Text("Clerk %u / worker process %u", w, w);
  if (st == TaskState::kDiskWait) {
    store("the clerk walked to the warehouse for an item that was not on the shelves; his whole queue waits.");
    server_words("the event loop is inside sendfile() or open() on a page-cache miss: D state, no event is handled.");
  } else if (st == TaskState::kRunning) {
    store("the clerk is serving the customer at the counter.");
    server_words("the event loop is handling a ready event (request, writable socket or finished pool task).");
  } else {
    store("nobody is waiting: the clerk waits for customers.");
    server_words("the worker sleeps in epoll_wait until an event or a timer.");
  }
  ImGui::Separator();
  ImGui::Text("state %s", state_word(st));
  const CounterTally tally = tally_counters(world)[w];
  ImGui::Text("customers here: %u (ready %u, on the bench %u, at the desk %u, at the warehouse %u, with the team %u)",
              tally.here(), tally.ready, tally.bench, tally.desk, tally.warehouse, tally.team);
  ImGui::Text("the longest-waiting has waited %s (the counter's colour); %u more on the dock (NIC)",
              seconds_text(tally.oldest_s).c_str(), tally.dock);
  ImGui::Text("epoll: %zu ready events, %zu timers", wk.ready_events(), wk.timers());
  ImGui::Text("accepted %llu connections, handled %llu requests", static_cast<unsigned long long>(wk.accepted),
              static_cast<unsigned long long>(wk.requests));
  const sim::Time now = world.engine().now();
  const double t = sim::to_seconds(now);
  if (t > 0) {
    const auto share = [&](TaskState s) { return 100 * world.tasks().group_integral(w, s, now) / t; };
    ImGui::Text("since start: R %.1f%%  S %.1f%%  D %.1f%%", share(TaskState::kRunning), share(TaskState::kSleeping),
                share(TaskState::kDiskWait));
  }
}

void explain_team(models::World& world, std::uint32_t w) {
  const models::ThreadPool* pool = std::as_const(world.server()).worker(w).pool();
  ImGui::Text("Delivery team of clerk %u / thread pool of worker %u", w, w);
  store("the clerk hands every order to the team and keeps serving; only customers whose items are in the warehouse wait.");
  server_words("with `aio threads` each sendfile() chunk runs in a pool thread; the worker is woken through an eventfd when it is done.");
  ImGui::Separator();
  if (!pool) {
    ImGui::TextUnformatted("no thread pool: `aio` is off");
    return;
  }
  const models::PoolStats ps = pool->stats();
  const std::uint32_t n = world.server().workers();
  ImGui::Text("pool \"%s\": %zu of %zu threads busy, %zu tasks waiting", pool->name().c_str(), pool->busy(), pool->threads(),
              pool->waiting());
  ImGui::Text("threads at the warehouse (D): %.0f", world.tasks().group_now(n + w, TaskState::kDiskWait));
  ImGui::Text("tasks %llu, overflows %llu, max waiting %llu", static_cast<unsigned long long>(ps.tasks),
              static_cast<unsigned long long>(ps.overflows), static_cast<unsigned long long>(ps.max_waiting));
}

void explain_bench(models::World& world, std::uint32_t w) {
  const models::Worker& wk = std::as_const(world.server()).worker(w);
  ImGui::Text("Bench of clerk %u / timers of worker %u", w, w);
  store("after handing over a big piece of an order, the customer steps aside for a moment so others get a turn.");
  server_words(world.server().config().write_posted_next
                   ? "after a full sendfile_max_chunk, NGINX (1.21.4 and later) posts the connection's next write to "
                     "the loop's next turn."
                   : "after a full sendfile_max_chunk, NGINX (up to 1.21.3) defers the connection's next write by a "
                     "1 ms timer.");
  ImGui::Separator();
  ImGui::Text("%zu timers pending", wk.timers());
}

void explain_customer(models::World& world, std::uint32_t id) {
  const models::Nginx& server = world.server();
  models::Wrk& wrk = world.clients();
  ImGui::Text("Customer / connection %u", id);
  if (id >= server.connection_slots()) {
    store("on the way to the store.");
    server_words("the TCP handshake is not complete yet.");
    return;
  }
  const models::HttpConnection& c = server.conn(id);
  const auto phase = static_cast<std::uint8_t>(c.phase);
  using P = models::HttpConnection::Phase;
  switch (c.phase) {
    case P::kQueued: store("waiting in the clerk's queue."); break;
    case P::kSending: store("being served at the counter (or waiting with the clerk at the warehouse)."); break;
    case P::kWaitPool: store("the delivery team fetches this order."); break;
    case P::kDelayed: store("stepped aside for a moment after a big piece of the order."); break;
    case P::kWaitWritable: store("the order is on the loading dock, going out as fast as the truck allows."); break;
    case P::kBacklog: store("just came in through the door; no clerk has taken them yet."); break;
    default: store("outside: reading the last response or about to ask again."); break;
  }
  ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "Server: %s", phase_name(phase));
  ImGui::Separator();
  ImGui::Text("client group \"%s\", worker %d", wrk.group_spec(c.group).name.c_str(), c.worker);
  ImGui::Text("file %u, %.2f of %.2f MB handed to the socket", c.file, static_cast<double>(c.position) / 1e6,
              static_cast<double>(server.files().file_size(0)) / 1e6);
  if (wrk.in_flight(id))
    ImGui::Text("request in flight for %.3f s", sim::to_seconds(world.engine().now() - wrk.request_started(id)));
}

void explain_street(models::World& world) {
  models::Wrk& wrk = world.clients();
  ImGui::TextUnformatted("The street / the client machines (wrk)");
  store("customers outside, reading what they got or about to come back for more.");
  server_words("keep-alive connections with no request at the server: responses in flight to wrk, or the next request on its way.");
  ImGui::Separator();
  for (std::uint32_t g = 0; g < wrk.groups(); ++g) {
    const models::WrkGroupSpec& s = wrk.group_spec(g);
    ImGui::Text("%s: %u connections, %llu responses so far", s.name.c_str(), s.connections,
                static_cast<unsigned long long>(wrk.group_complete(g)));
  }
}

void explain_door(models::World& world) {
  ImGui::TextUnformatted("The door / the listen socket's accept queue");
  store("new customers wait at the door until a clerk lets them in.");
  server_words("established connections not yet accept()ed by a worker.");
  ImGui::Separator();
  ImGui::Text("%zu waiting, %llu accepted so far", world.server().backlog(),
              static_cast<unsigned long long>(world.server().stats().connections));
}

void explain_shelves(models::World& world) {
  const models::PageCacheStats c = world.cache().stats();
  const ShelfFigures f = shelf_figures(world);
  ImGui::TextUnformatted("The shelves / the page cache");
  store("items on the shelves are handed over at once; the rest must come from the warehouse.");
  server_words("file pages in RAM; a sendfile() of cached pages never waits for the disk.");
  ImGui::Separator();
  ImGui::Text("%.2f GiB resident", static_cast<double>(c.resident_units * world.cache().unit_bytes()) / (1 << 30));
  ImGui::Text("hits: %.1f%% of %llu lookups of %llu KiB pieces found on the shelves (page-cache hit ratio)", f.hit_ratio * 100,
              static_cast<unsigned long long>(f.lookups), static_cast<unsigned long long>(f.unit_kib));
  ImGui::Text("waited: %.1f%% of %llu responses waited in line while their clerk was at the warehouse", f.responses_waited * 100,
              static_cast<unsigned long long>(f.responses));
  ImGui::TextDisabled("Why both: one miss sends a clerk to the warehouse for many milliseconds, and every customer in his "
                      "line waits, even for items on the shelves. So a cache that finds 98%% of the pieces can still leave "
                      "most responses waiting. `clerk run` prints the second figure as \"event loop blocked\". Both since t = 0.");
  ImGui::Text("readahead windows %llu, disk reads issued %llu", static_cast<unsigned long long>(c.readahead_windows),
              static_cast<unsigned long long>(c.bios));
}

namespace {

// What is at drive d's block-layer queue, in iostat's and blk-core's words.
void explain_queue(const models::BlockQueue& q) {
  const std::uint32_t allocated = q.allocated(), in_drive = q.in_device();
  ImGui::Text("in the drive (NCQ, up to %u tags): %u", q.spec().queue_depth, in_drive);
  ImGui::Text("in the %s elevator or a plug: %u (of %u request slots, nr_requests)", q.spec().scheduler.c_str(),
              allocated - std::min(allocated, in_drive), q.spec().nr_requests);
  ImGui::Text("tasks asleep for a free slot (get_request): %zu", q.sleepers());
}

// A drive's own words (drive_view.h), each line in its style.
void drive_lines(const std::vector<models::DriveLine>& lines) {
  using Style = models::DriveLine::Style;
  for (const models::DriveLine& l : lines) {
    switch (l.style) {
      case Style::kServer: server_words(l.text.c_str()); break;
      case Style::kText: ImGui::TextUnformatted(l.text.c_str()); break;
      case Style::kWrapped: ImGui::TextWrapped("%s", l.text.c_str()); break;
      case Style::kSeparator: ImGui::Separator(); break;
    }
  }
}

}  // namespace

void explain_drive(models::World& world, std::uint32_t d) {
  const std::vector<models::DriveView> views = world.disk().drive_views();
  const models::DriveWords words = world.disk().drive_words(d);
  const models::DiskStats s = world.disk().stats();
  ImGui::Text("Warehouse bay %u / drive %u", d, d);
  store("crates are orders the warehouse still has to fetch; one worker at a time walks the aisles.");
  ImGui::Separator();
  ImGui::Text("%zu requests here now (crates)", d < views.size() ? views[d].requests : 0);
  const models::BlockQueue* queued = d < views.size() ? views[d].queue : nullptr;
  if (queued) {
    server_words("requests at this drive's queue (the elevator sorts them, NCQ picks among its tags), plus tasks asleep "
                 "for a request slot.");
    explain_queue(*queued);
  } else if (!words.at_drive.empty()) {
    drive_lines(words.at_drive);
  } else {
    server_words("reads queued or in service at the drive.");
  }
  const double t = sim::to_seconds(world.engine().now());
  const std::vector<models::DiskStats> drives = world.disk().drive_stats();
  if (t > 0 && d < drives.size()) {
    const models::DiskStats& m = drives[d];
    const double reads = static_cast<double>(m.reads);
    ImGui::Text("iostat -x: r/s %.1f  rkB/s %.0f  rrqm/s %.1f  avgqu-sz %.1f  await %.0f ms  %%util %.0f", reads / t,
                static_cast<double>(m.read_bytes) / 1024 / t, static_cast<double>(m.merges) / t,
                m.queue_depth_integral / t, m.reads ? m.await_sum_s / reads * 1e3 : 0.0, 100 * m.busy_s / t);
    if (queued)
      ImGui::Text("slot sleeps %llu (most asleep at once %u), most requests outstanding %u",
                  static_cast<unsigned long long>(m.slot_waits), m.max_sleepers, m.max_outstanding);
  }
  if (t > 0)
    ImGui::Text("array: %.1f MB/s read, utilisation %.0f%% since start", static_cast<double>(s.read_bytes) / t / 1e6,
                100 * s.busy_s / t / s.drives);
  drive_lines(words.why_here);
}

void explain_dock(models::World& world) {
  models::Nic& nic = world.nic();
  ImGui::TextUnformatted("The loading dock / the NIC");
  store("orders leave by truck; the truck's capacity is shared by every order on the dock.");
  server_words("TCP payload shares the line rate fairly among connections with data queued; dots here wait for EPOLLOUT.");
  ImGui::Separator();
  ImGui::Text("%zu flows sending now, %.2f GB sent since start", nic.active_flows(), nic.interface_bytes_sent() / 1e9);
  ImGui::Text("line rate %.0f Gbit/s, payload capacity %.2f Gbit/s", nic.spec().line_rate_bps / 1e9,
              nic.spec().payload_Bps() * 8 / 1e9);
}

}  // namespace ui
