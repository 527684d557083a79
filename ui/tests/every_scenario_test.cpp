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
#include <imgui.h>

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
  void views(ui::App& app) {
    frame(app, ImVec2(-FLT_MAX, -FLT_MAX));
    frame(app, ImVec2(-FLT_MAX, -FLT_MAX));
    for (float x = 380; x < 1600; x += 150)
      for (float y = 20; y < 1000; y += 110) frame(app, ImVec2(x, y));
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
  Headless ui_context;
  for (const std::string& file : runnable()) {
    INFO(file);
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
  }
}
