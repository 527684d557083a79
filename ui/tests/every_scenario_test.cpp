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

#include <cfloat>
#include <filesystem>
#include <string>
#include <vector>

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
