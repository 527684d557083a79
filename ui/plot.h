// A small line chart drawn with ImGui's draw list: several series over the
// same seconds, a labelled y axis (linear from zero, or logarithmic by
// decades for latencies that span 1 ms to 10 s), a legend that wraps rather
// than cuts a name off, and a hover line that lists every series at the
// second under the mouse, with a sentence saying what the chart shows in the
// store's and the server's words.
//
// A warm-up before the measured window is shaded and labelled as excluded.
//
// A NaN value is a second without a figure (no response completed): the
// line breaks there, a cross marks it on the baseline, and a second with no
// figure in any series is shaded and labelled "no responses". Never a zero.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ui {

struct Series {
  std::string label;
  const std::vector<float>* values;  // one per second, from second 0
  ImU32 colour;
  float thickness = 1.5f;
  std::string session;  // "A" or "B"
  std::string owner;    // in A/B, the run it belongs to ("B aio threads"): the legend names it once per run
  std::string source;   // the same series in `clerk run --json` (dotted path), "" if it has none
};

struct Chart {
  std::string id, title, unit;
  std::vector<Series> series;
  float y_min_max = 1;  // the linear axis reaches at least this
  bool log = false;     // a log axis (values <= 0 are not drawn)
  const char* store_words = "";
  const char* server_words = "";
};

// Seconds from t = 0 that the run's figures exclude (a warm-up): shaded and
// labelled. until_s = 0: none.
struct Shade {
  float until_s = 0;
  // The run's time that is the measured window's t = 0 (the warm-up's end,
  // once known): the x axis and the hover count from there, the warm-up
  // negative, as --at and a lesson's "pause at" do. 0 while warming.
  float zero_s = 0;
  // Seconds before this one are not drawn: a guided lesson shows the
  // measured window (and the warm-up's last seconds), not minutes of warm-up.
  std::size_t first = 0;
  std::string label;  // drawn in the shade where it fits
  std::string why;    // the hover's sentence
};

void plot(const Chart& chart, ImVec2 size, const Shade& warmup = Shade{});
// The chart's title as drawn: with its unit when the axis does not say it.
std::string titled(const Chart& chart);

// A value with its unit, short: seconds as us/ms/s, shares as percent.
std::string format_value(double v, const std::string& unit);

}  // namespace ui
