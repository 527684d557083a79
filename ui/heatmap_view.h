// Latency heat maps, one per client group, as Brendan Gregg's latency heat
// maps and Grafana's heatmap panel draw them: x time (one column per
// simulated second), y latency on fixed log bins (wrk_result.h's heat bins,
// 10 a decade from 1 us), colour the number of responses completed that
// second whose latency fell in that bin. A tail shows as the faint cells high
// above the bright band; a stall as a column that climbs, or an empty one
// ("no responses"). The columns are `clerk run --json`'s
// clients.NAME.per_s.latency_bins, read by the recorder as each second ends:
// one source of numbers, every response, written by `--series` too.
//
// Colour is a sequential palette (viridis' upper two thirds, van der Walt and
// Smith for matplotlib 1.5, 2015) whose lightness rises monotonically for
// normal vision and the three dichromacies, so "more" reads as "lighter" to
// everyone; its darkest colour stands 3:1 off the window (WCAG 2.1, 1.4.11)
// so that a single slow response is visible. Counts map to it on a log
// scale, one scale for every map drawn, so A and B compare.
//
// Beside each map, where the pane is wide enough, stands where the group's
// p99 spent its time so far: the mean stage split of the responses in the
// latency bucket that holds the 99th percentile (request_stages.h's
// percentile_row, the row `clerk run` prints).
#pragma once
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "models/clients/wrk_result.h"
#include "ui/session.h"

namespace ui {

struct HeatMap {
  std::string title;   // the group's name, and in A/B its run
  std::string session; // "A" or "B"
  std::string source;  // the columns in `clerk run --json`
  std::uint32_t group = 0;
  const std::vector<models::LatencyBins>* columns = nullptr;  // one per second
};

// The heat maps of A (and B, in A/B), group by group.
std::vector<HeatMap> build_heatmaps(Session& a, Session* b);

// The palette's colour at t in 0..1 (0: one response, 1: the fullest cell).
ImU32 heat_colour(float t);
// Where a cell of `count` responses sits on the palette when the fullest cell
// holds `most`: log(count) / log(most), 1 when every cell holds the same.
float heat_level(std::uint64_t count, std::uint64_t most);
// The stops the palette interpolates, darkest first (tests check them).
const std::vector<ImU32>& heat_stops();

void draw_heatmaps(Session& a, Session* b);
// Every heat map as JSON: per second {"first": bin, "counts": [...]}, the
// form of clients.NAME.per_s.latency_bins.
nlohmann::ordered_json heatmaps_json(Session& a, Session* b);

}  // namespace ui
