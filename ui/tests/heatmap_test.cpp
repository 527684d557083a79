// The latency heat map (ui/heatmap_view.h): its palette reads as "more is
// lighter" to every viewer, its counts are the model's per-second columns
// (clerk run --json's per_s.latency_bins), and each column counts every
// response completed that second.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/scenario/result_json.h"
#include "ui/app.h"
#include "ui/colour_check.h"
#include "ui/heatmap_view.h"
#include "ui/palette.h"

namespace {

using ui::Vision;

const std::string kBlocking = std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml";

// The smallest rise of L* between neighbouring samples of a palette, as `v` sees it.
template <typename Colour>
double smallest_rise(Colour colour, Vision v) {
  double smallest = 1e9;
  double last = ui::lab_seen(ui::rgb_of(colour(0.0f)), v)[0];
  for (int k = 1; k <= 60; ++k) {
    const double l = ui::lab_seen(ui::rgb_of(colour(static_cast<float>(k) / 60)), v)[0];
    smallest = std::min(smallest, l - last);
    last = l;
  }
  return smallest;
}

}  // namespace

TEST_CASE("heat palette: lightness rises with the count for normal vision and every dichromacy") {
  for (Vision v : {Vision::kNormal, Vision::kProtanopia, Vision::kDeuteranopia, Vision::kTritanopia}) {
    CAPTURE(static_cast<int>(v));
    CHECK(smallest_rise(ui::heat_colour, v) > 0);
    // From the fewest to the most: far apart (about 17 just noticeable differences).
    const double span = ui::lab_seen(ui::rgb_of(ui::heat_colour(1)), v)[0] - ui::lab_seen(ui::rgb_of(ui::heat_colour(0)), v)[0];
    CHECK(span >= 40);
  }
  // A rainbow (blue, green, yellow, red) does not: red is darker than yellow.
  const auto rainbow = [](float t) {
    static const ImU32 stops[] = {IM_COL32(40, 60, 220, 255), IM_COL32(40, 200, 60, 255), IM_COL32(250, 230, 40, 255),
                                  IM_COL32(220, 30, 30, 255)};
    const float x = t * 3;
    const int i = std::min(static_cast<int>(x), 2);
    return ui::mix(stops[i], stops[i + 1], x - static_cast<float>(i));
  };
  CHECK(smallest_rise(rainbow, Vision::kNormal) < 0);
}

TEST_CASE("heat palette: one response stands out 3:1 from the window") {
  CHECK(ui::contrast_ratio(ui::rgb_of(ui::heat_colour(0)), ui::rgb_of(ui::kWindow)) >= 3.0);
  CHECK(ui::heat_colour(0) == ui::heat_stops().front());
  CHECK(ui::heat_colour(1) == ui::heat_stops().back());
}

TEST_CASE("heat levels: the count on a log scale up to the fullest cell") {
  CHECK(ui::heat_level(0, 100) == 0);
  CHECK(ui::heat_level(1, 100) == 0);
  CHECK(ui::heat_level(10, 100) == Approx(0.5));
  CHECK(ui::heat_level(100, 100) == Approx(1));
  CHECK(ui::heat_level(1, 1) == 1);
}

TEST_CASE("the heat map's columns are the model's, and each sums to the second's responses") {
  ui::App app;
  REQUIRE(ui::open_scenario(app, kBlocking, {}));
  ui::run_to(app, 4.0);
  const ui::Recorder& r = app.a.recorder;
  const models::Wrk& wrk = app.a.world->clients();
  REQUIRE(r.groups.size() == 2);
  const nlohmann::ordered_json maps = ui::heatmaps_json(app.a, nullptr);
  REQUIRE(maps.size() == 2);
  std::uint64_t counted = 0;
  for (std::uint32_t g = 0; g < 2; ++g) {
    INFO("group " << r.groups[g].name);
    REQUIRE(r.groups[g].latency_bins.size() == 4);
    CHECK(maps[g]["source"] == "clients." + r.groups[g].name + ".per_s.latency_bins");
    for (std::size_t s = 0; s < 4; ++s) {
      INFO("second " << s);
      const models::LatencyBins& col = r.groups[g].latency_bins[s];
      const models::SecondFigures f = wrk.group_second(g, s);
      CHECK(static_cast<float>(col.total()) == r.groups[g].requests_per_s[s]);
      CHECK(col.total() == f.responses);
      CHECK(col.first == f.latency_bins.first);
      CHECK(col.counts == f.latency_bins.counts);
      CHECK(maps[g]["columns"][s] == models::latency_bins_json(f.latency_bins));
      counted += col.total();
    }
  }
  CHECK(counted > 0);
  // The blocked random load completes nothing in its first second: no column, not a column of zeros.
  CHECK(r.groups[1].latency_bins[0].counts.empty());
}
