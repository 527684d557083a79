// Where one request's time went, as the latency percentiles tab shows it
// (issue 22): pick a percentile on the curve (or p50, p99, p99.9, max) and
// see one real request of that percentile, its latency split into the
// fourteen stages of models/net/request_stages.h, as a bar of durations.
//
// The request is the exemplar the model keeps for the latency bucket that
// holds the percentile (the latest response in that 4.4%-wide bucket;
// StageAggregate::percentile_example), or the worst response: an exact
// split in nanoseconds, so the durations drawn sum to its latency. Data
// first (stage_bar), then drawn, so that a test holds the drawn figures to
// the request's latency (ui/tests/stage_split_test.cpp).
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/net/request_stages.h"

namespace ui {

struct StageSegment {
  models::Stage stage;
  double seconds;
};

struct StageBar {
  std::string what;       // "p99", "max", "p99.3"
  double latency_s = 0;   // the request's latency, as wrk measured it
  std::vector<StageSegment> segments;  // the stages it spent time in, in stage order
  bool empty() const { return segments.empty(); }
};

// The request at percentile `p` (0..100) of `agg`, or its worst when `worst`.
StageBar stage_bar(const models::StageAggregate& agg, double p, bool worst);
// What the bar's segments add up to (the request's latency within 1 us).
double bar_total(const StageBar& bar);
// A label for percentile p: "p50", "p99.9", "p99.37".
std::string percentile_label(double p);
// One legend line per segment: "disk: file data (page-cache miss): 41.2 ms (87%)".
std::vector<std::string> bar_legend(const StageBar& bar);
ImU32 stage_colour(models::Stage s);

// Draws the bar and its legend in the space available across, each segment
// as wide as its share of the latency; hovering a segment explains it.
void draw_stage_bar(const StageBar& bar);

}  // namespace ui
