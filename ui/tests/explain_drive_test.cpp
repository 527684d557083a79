// A drive's hover explanation comes from the device (BlockDevice::drive_views
// and drive_words, drive_view.h), so clerk-ui names no disk kind: each kind
// still explains its drive in its own words. The text is read from ImGui's
// log of one frame's widgets, headless.
#include <imgui.h>
#include <imgui_internal.h>

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/world.h"
#include "ui/explain.h"

namespace {

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
  }
  ~Headless() { ImGui::DestroyContext(); }
  Headless(const Headless&) = delete;
  Headless& operator=(const Headless&) = delete;
};

// The scenario at `rel` (as clerk-ui opens it), with or without the block layer's queue.
models::Scenario scenario(const char* rel, bool block_queue) {
  models::Scenario sc = models::load_scenario(std::string(CLERK_SOURCE_DIR) + "/scenarios/" + rel, {"warmup=\"0s\""});
  sc.hardware.block_queue = block_queue;
  return sc;
}

// The scenario with its disk made the kind `name` of the same drive, as clerk-ui's disk menu does.
models::Scenario as_kind(models::Scenario sc, const char* name) {
  const models::DiskKind& from = models::disk_kind(sc.hardware.disk);
  const models::DiskKind* to = models::find_disk_kind(name);
  REQUIRE(from.drive);
  REQUIRE(to);
  REQUIRE(to->of_drive);
  sc.hardware.disk = to->of_drive(*from.drive(sc.hardware.disk));
  return sc;
}

// explain_drive's text for each drive, 3 s into the run.
std::vector<std::string> explained(const models::Scenario& sc) {
  Headless ctx;
  models::World w(sc, sc.seed, sc.duration_s);
  w.run_until(sim::seconds(3));
  std::vector<std::string> out;
  for (std::uint32_t d = 0; d < ui::drive_queues(w).size(); ++d) {
    ImGui::NewFrame();
    ImGui::Begin("drive");
    ImGui::LogToBuffer();
    ui::explain_drive(w, d);
    out.emplace_back(GImGui->LogBuffer.c_str());
    ImGui::LogFinish();
    ImGui::End();
    ImGui::Render();
  }
  return out;
}

bool has(const std::string& text, const char* words) { return text.find(words) != std::string::npos; }

// The line of `text` that holds `words`, or "".
std::string line_with(const std::string& text, const char* words) {
  const std::size_t at = text.find(words);
  if (at == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', at);
  const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(from, text.find('\n', at) - from);
}

constexpr const char* kQueueWords = "Server: requests at this drive's queue";
constexpr const char* kGenericWords = "Server: reads queued or in service at the drive.";
constexpr const char* kWhyHere = "Why here: md read_balance (\"3.x\"), 2 copies of each byte";

}  // namespace

TEST_CASE("md raid10 explains each member: its request queue, then why read_balance sent it its reads") {
  const std::vector<std::string> drives = explained(scenario("nginx-9x/blocking.toml", true));
  REQUIRE(drives.size() == 4);
  for (const std::string& t : drives) {
    INFO(t);
    CHECK(has(t, kQueueWords));
    CHECK(has(t, "in the drive (NCQ, up to 31 tags): "));
    CHECK(has(t, "slot sleeps "));
    CHECK(has(t, kWhyHere));
    CHECK(has(t, "pieces pending here now: "));
  }
  CHECK(has(drives[0], "its mirror, drive 1: "));
  CHECK(has(drives[3], "its mirror, drive 2: "));
  // Without the block layer: the drive's own queue, still with read_balance's words.
  for (const std::string& t : explained(scenario("nginx-9x/blocking.toml", false))) {
    INFO(t);
    CHECK(has(t, kGenericWords));
    CHECK_FALSE(has(t, kQueueWords));
    CHECK(has(t, kWhyHere));
  }
}

TEST_CASE("one drive alone explains its request queue, or its own queue, and no read_balance") {
  const models::Scenario raid = scenario("nginx-9x/blocking.toml", true);
  const std::vector<std::string> queued = explained(as_kind(raid, "hdd"));
  REQUIRE(queued.size() == 1);
  CHECK(has(queued[0], kQueueWords));
  CHECK_FALSE(has(queued[0], "Why here"));
  models::Scenario alone = as_kind(raid, "hdd");
  alone.hardware.block_queue = false;
  const std::vector<std::string> own = explained(alone);
  REQUIRE(own.size() == 1);
  CHECK(has(own[0], kGenericWords));
  CHECK_FALSE(has(own[0], "slot sleeps"));
}

TEST_CASE("the SSD explains its units, and a drive of two figures says what any drive does") {
  for (const char* rel : {"cloudflare/blocking.toml", "local/blocking.toml"}) {
    const std::vector<std::string> units = explained(scenario(rel, true));
    REQUIRE(units.size() == 1);
    INFO(units[0]);
    CHECK(has(units[0], "Server: reads at the SSD: up to `parallelism` served at once by its internal units"));
    // The reads here are those in service plus those waiting.
    unsigned long here = 0, serving = 0, parallelism = 0, waiting = 0;
    REQUIRE(std::sscanf(line_with(units[0], "requests here now").c_str(), "%lu requests here now", &here) == 1);
    REQUIRE(std::sscanf(line_with(units[0], "in service:").c_str(), "in service: %lu of %lu units; waiting: %lu",
                        &serving, &parallelism, &waiting) == 3);
    CHECK(serving + waiting == here);
    CHECK(serving <= parallelism);
  }
  const std::vector<std::string> simple = explained(scenario("agreement/slow-disk.toml", true));
  REQUIRE(simple.size() == 1);
  CHECK(has(simple[0], kGenericWords));
  CHECK_FALSE(has(simple[0], "in service:"));
}
