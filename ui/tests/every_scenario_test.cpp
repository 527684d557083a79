// Every committed runnable scenario opens in clerk-ui (issue 22): its World
// is built, and every view (controls, store, timeline, charts, and the
// tooltips under the pointer) is drawn from it at t = 0, mid-run and at the
// end, alone and in the A/B view. Drawn as clerk-ui draws them, one frame
// between ImGui::NewFrame() and ImGui::Render(), with no window: what is
// tested is what the views read from the model, which is where the picker's
// reuseport scenarios once read past a table's end and crashed. The test
// runs in the sanitized suite, where ASan sees any such read.
//
// Runs are shortened to at most kSeconds simulated seconds to keep the
// suite's time low: "the end" is the end of that shortened run.
//
// The small window a laptop gives (1280x800), with the text at 1 and at
// 1.5 times its size and the latency percentiles tab open (with a request's
// stage split), is drawn mid-run and in A/B, and no tile's widgets reach
// past its right edge (a horizontal scroll is what a cut-off control was).
#include <imgui.h>
#include <imgui_internal.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "models/server/nginx_config.h"
#include "models/scenario/scenario_files.h"
#include "ui/app.h"
#include "ui/frame.h"

namespace {

constexpr double kSeconds = 2.0;

// An ImGui context with a built font atlas and a display, and no renderer:
// Render() only builds the draw lists.
struct Headless {
  Headless() {
    ImGui::CreateContext();
    ImGui::GetIO().BackendFlags |= ui::kRendererNeeds;  // as clerk-ui's renderer declares (ui/frame.h)
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 1000);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::StyleColorsDark();
  }
  ~Headless() { ImGui::DestroyContext(); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;

  // The display's size and the text's scale for the frames that follow.
  void display(ImVec2 size, float font_scale) {
    ImGui::GetIO().DisplaySize = size;
    ImGui::GetIO().FontGlobalScale = font_scale;
  }
  // One frame with the pointer at `at`.
  void frame(ui::App& app, ImVec2 at) {
    ImGui::GetIO().MousePos = at;
    ImGui::NewFrame();
    ui::draw_frame(app, 1.0f / 60, true);
    ImGui::Render();
    REQUIRE(ImGui::GetDrawData() != nullptr);
    CHECK(ImGui::GetDrawData()->TotalVtxCount > 0);
  }
  // Two frames without a pointer (the first lays the windows out), then the
  // pointer on a coarse grid over the store, the timeline and the charts, so
  // that the tooltips under it are drawn.
  void views(ui::App& app, float step = 1) {
    frame(app, ImVec2(-FLT_MAX, -FLT_MAX));
    frame(app, ImVec2(-FLT_MAX, -FLT_MAX));
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    for (float x = ds.x * 0.24f; x < ds.x; x += 150 * step)
      for (float y = 20; y < ds.y; y += 110 * step) frame(app, ImVec2(x, y));
  }
  // The small window, both text sizes, the percentiles tab open.
  void small_windows(ui::App& app) {
    for (float scale : {1.0f, 1.5f}) {
      INFO("1280x800, font scale " << scale);
      display(ImVec2(1280, 800), scale);
      app.tails_first = true;
      views(app, 2);
      for (const char* tile : {"controls", "store", "timeline", "charts"}) {
        INFO(tile);
        const ImGuiWindow* w = ImGui::FindWindowByName(tile);
        REQUIRE(w != nullptr);
        // Nothing reaches past the tile's right edge (its widgets' extent, last frame).
        CHECK(w->ContentSize.x <= w->ContentRegionRect.GetWidth() + 1);
      }
    }
    display(ImVec2(1600, 1000), 1);
  }
};

std::vector<std::string> runnable() {
  return models::runnable_scenarios((std::filesystem::path(CLERK_SOURCE_DIR) / "scenarios").string());
}

}  // namespace

TEST_CASE("clerk-ui lists only runnable scenarios, the loader's list") {
  const std::vector<std::string> files = ui::find_scenarios();
  CHECK(files == runnable());
  for (const std::string& f : files) {
    INFO(f);
    const std::string name = std::filesystem::path(f).filename().string();
    CHECK(name != "common.toml");
    CHECK(name.find("-common.toml") == std::string::npos);
    CHECK(f.find("/hardware/") == std::string::npos);
    CHECK(f.find("/sweeps/") == std::string::npos);
  }
  CHECK(files.size() >= 20);
}

TEST_CASE("every runnable scenario opens, and every view draws at t = 0, mid-run and the end, alone and A/B") {
  for (const std::string& file : runnable()) {
    INFO(file);
    Headless ui_context;  // each scenario from ImGui's first frame (which tab is open, where windows scrolled)
    ui::App app;
    REQUIRE(ui::open_scenario(app, file, {}));
    if (app.loaded.duration_s > kSeconds) REQUIRE(ui::open_scenario(app, file, {"duration=\"2s\""}));
    REQUIRE(app.a.world);
    const double end = sim::to_seconds(app.a.end());
    ui_context.views(app);                       // t = 0
    ui::run_to(app, end / 2);
    ui_context.views(app);                       // mid-run
    ui::run_to(app, end);
    ui_context.views(app);                       // the end
    ui::set_ab(app, true);                       // B joins at the end: it replays to A's instant
    ui::run_to(app, end);
    ui_context.views(app);
    ui::restart_sessions(app, false);            // both from t = 0
    ui_context.views(app);
    ui::run_to(app, end / 2);
    ui_context.views(app);
    CHECK(app.a.now() == app.b.now());
    // Last, as the percentiles tab stays open once chosen: the small window, A/B and alone.
    ui_context.small_windows(app);
    ui::set_ab(app, false);
    ui_context.small_windows(app);
  }
}

namespace {

// Every knob at one end of its range (the widgets' own limits, KnobLimits),
// aio threads on; accept policy and sendfile_max_chunk at the first or the
// last of their lists. The disk stays the scenario's (the widget offers only
// the kinds whose figures the scenario gives).
ui::Knobs at_end(ui::Knobs k, const models::Scenario& sc, bool top) {
  using L = ui::KnobLimits;
  const int end = top ? 1 : 0;
  k.workers = L::kWorkers[end];
  k.aio = static_cast<int>(models::aio_mode_index(models::find_aio_mode("threads")));
  k.pool_threads = L::kPoolThreads[end];
  k.max_queue = L::kMaxQueue[end];
  k.chunk_kib = top ? L::kChunksKib[std::size(L::kChunksKib) - 1] : L::kChunksKib[0];
  k.accept = top ? static_cast<int>(models::accept_policies().size()) - 1 : 0;
  k.cache_gib = L::kCacheGib[end];
  for (std::size_t g = 0; g < k.connections.size() && g < sc.clients.size(); ++g)
    k.connections[g] = top ? L::kMaxConnections : static_cast<int>(sc.clients[g].threads);
  k.duration_s = L::kDurationS[end];
  return k;
}

// Frames drawn while playing as fast as the budget allows; the slowest frame's wall time.
double play(Headless& ctx, ui::App& app, int frames) {
  using Clock = std::chrono::steady_clock;
  double slowest = 0;
  app.playing = true;
  app.fastest = true;
  for (int i = 0; i < frames; ++i) {
    const auto t0 = Clock::now();
    ui::advance(app, 1.0 / 60);
    ctx.frame(app, ImVec2(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.3f));
    slowest = std::max(slowest, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return slowest;
}

}  // namespace

// Issue 19: the visualizer at its extremes. Each committed scenario with
// every knob at its minimum, then at its maximum (A with these settings, B
// the same without aio threads), played, replayed to the present instant with
// the settings, then A alone. ASan (the sanitized suite) sees any bad read.
// The slowest frame is reported, not asserted: a frame's simulation is
// bounded by the playback budget, and the time drawing takes is measured in
// clerk-ui --bench, never in a test.
TEST_CASE("every knob at both ends of its range, on every runnable scenario, alone, A/B and replayed") {
  double slowest = 0;
  for (const std::string& file : runnable()) {
    for (bool top : {false, true}) {
      INFO(file << (top ? ": every knob at its maximum" : ": every knob at its minimum"));
      Headless ctx;
      ui::App app;
      REQUIRE(ui::open_scenario(app, file, {}));
      app.edit_a = at_end(app.edit_a, app.loaded, top);
      app.edit_b = app.edit_a;
      app.edit_b.aio = static_cast<int>(models::aio_mode_index(models::find_aio_mode("off")));
      ui::restart_sessions(app, false);
      REQUIRE(app.a.world);
      // Settings the model refuses (a preload larger than the smallest
      // cache) are said in the controls, and the loaded run goes on.
      if (!app.error.empty()) {
        CHECK(app.error.rfind("not applied: ", 0) == 0);
        CHECK(app.a.scenario.hardware.page_cache_bytes == app.loaded.hardware.page_cache_bytes);
      }
      slowest = std::max(slowest, play(ctx, app, 3));
      ui::set_ab(app, true);
      if (!app.b.world) {  // B refused for the same reason: said, and A goes on alone
        CHECK(app.error.rfind("B not started: ", 0) == 0);
        CHECK_FALSE(app.ab);
      }
      slowest = std::max(slowest, play(ctx, app, 3));
      ui::restart_sessions(app, true);  // "Apply now (replay)"
      slowest = std::max(slowest, play(ctx, app, 3));
      CHECK(app.b.now() <= app.a.now());  // B catches up with A over frames, never passes it
      ui::set_ab(app, false);
      slowest = std::max(slowest, play(ctx, app, 2));
    }
  }
  WARN("slowest frame with the knobs at their ends: " << slowest << " s");
}
