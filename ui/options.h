// clerk-ui's command line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ui {

struct Options {
  std::string scenario;
  std::vector<std::string> overrides;  // --set KEY=VALUE
  std::optional<std::uint64_t> seed;
  double at_s = 0;                     // --at: run to this instant before the first frame
  std::string screenshot;              // --screenshot: render, save, exit
  std::string series;                  // --series: write every plotted series as JSON, exit (no window)
  std::string crop;                    // --crop VIEW: save only that window
  std::optional<std::pair<float, float>> hover;  // --hover X,Y: the pointer there (tooltips in screenshots)
  bool list_scenarios = false;         // --list-scenarios: print the picker's list and exit
  bool ab = false;                     // --ab: start with the A/B view, B toggling aio
  bool lesson = false;                 // --lesson: the lesson panel (the scenario file's narrative)
  std::string guided;                  // --lesson N: walk lesson N (or a lesson file), lesson_mode.h
  std::string answers;                 // --answers FILE: a guided lesson's predictions, one a line, as clerk lesson reads them
  std::string captures;                // --captures DIR: walk the lesson headless, capturing each observed moment
  bool tails = false;                  // --tails: the latency percentiles tab first
  bool heatmap = false;                // --heatmap: the latency heat map tab first
  std::string replay;                  // --replay p50|p99|max: follow one customer (replay.h)
  std::string replay_group;            // --replay-group NAME: whose request (the first client group when empty)
  double replay_at_s = -1;             // --replay-at: with --screenshot, the replay that many screen seconds in
  bool replay_longest = false;         // --replay-at longest: halfway through its longest stop
  bool paused = false;
  int width = 1600, height = 1000;
  bool bench = false;                  // --bench: report frame times and exit
  int bench_frames = 600;
  float speed = 1;
  float font_scale = 1;                // --font-scale: ImGui's FontGlobalScale
};

inline constexpr float kFontScaleMin = 0.75f, kFontScaleMax = 2.5f;

// Parses argv; on bad input prints why and returns the exit status (2),
// on --help prints usage and returns 0; otherwise returns nullopt.
std::optional<int> parse_options(int argc, char** argv, Options& out);

}  // namespace ui
