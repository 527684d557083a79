#include "ui/options.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "common/finite_range.h"
#include "common/number_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "models/scenario/limits.h"

namespace ui {

namespace {
// A number is decimal, all of the text (common/number_text.h), as --seed
// and clerk's options read one (probe 6: strtod took "0x10" as 16 and
// "0x1p-4" as 0.0625), finite and in [lo, hi]; into `v`.
bool finite_in(const std::string& text, double lo, double hi, double& v) {
  const std::optional<double> n = common::number_text<double>(text);
  if (!n || !std::isfinite(*n) || *n < lo || *n > hi) return false;
  v = *n;
  return true;
}

// --hover's pixels are floats: any finite one (a pointer off the window is
// no error), up to what a float holds.
constexpr double kMaxPixel = std::numeric_limits<float>::max();

// Short messages (CLI11's own range check prints DBL_MAX in 309 digits) and
// no wrapping: "-1" read into an unsigned seed is 2^64-1 (issue 21).
CLI::Validator seed_check() {
  return CLI::Validator([](std::string& text) { return models::limits::seed_problem(text); }, "SEED");
}

CLI::Validator at_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        if (!finite_in(text, 0, models::limits::kMaxRunSeconds, v))
          return "must be a number of seconds from 0 to " +
                 std::to_string(static_cast<long>(models::limits::kMaxRunSeconds));
        return "";
      },
      "SECONDS");
}
// CLI::Range lets NaN through (every comparison with it is false): a
// number from `lo` to `hi`, finite, else "must be " + `wanted`.
CLI::Validator number_check(double lo, double hi, std::string wanted, const char* name) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double v = 0;
        return finite_in(text, lo, hi, v) ? std::string() : "must be " + wanted;
      },
      name);
}
CLI::Validator speed_check() {
  return number_check(0.001, 1000, "a number of simulated seconds per second from 0.001 to 1000", "SPEED");
}
// "" is no file: --screenshot '' opened the window instead (probe 5,
// finding 7), where clerk's --json '' is refused.
CLI::Validator name_check(const char* wanted, const char* name) {
  return CLI::Validator([=](std::string& text) { return text.empty() ? std::string("needs a ") + wanted : std::string(); },
                        name);
}
CLI::Validator file_name_check() { return name_check("file name", "FILE"); }
CLI::Validator font_scale_check() {
  char range[64];
  std::snprintf(range, sizeof range, "a number from %g to %g", static_cast<double>(kFontScaleMin),
                static_cast<double>(kFontScaleMax));
  return number_check(kFontScaleMin, kFontScaleMax, range, "SCALE");
}
}  // namespace

std::optional<int> parse_options(int argc, char** argv, Options& o) {
  CLI::App cli{"clerk-ui: the store clerk, live. Watches a clerk scenario run: the store, the timeline and the charts."};
  o.scenario = std::string(CLERK_SOURCE_DIR) + "/scenarios/nginx-9x/blocking.toml";
  cli.add_option("--scenario", o.scenario, "scenario file (default: the 9x run without a thread pool)");
  cli.add_option("--set", o.overrides, "KEY=VALUE over the file, as in clerk run (repeatable)");
  cli.add_option("--seed", o.seed, "random seed (default: the scenario's)")->check(seed_check());
  cli.add_option("--at", o.at_s, "run to this second of the measured window before showing (t = 0 where the warm-up ends: the warm-up runs first; "
                 "at most the run's duration)")->check(at_check());
  cli.add_option("--screenshot", o.screenshot, "render one frame to this PNG and exit")->check(file_name_check());
  cli.add_option("--series", o.series,
                 "write every plotted series as JSON to this file and exit, without a window (runs to --at, "
                 "else to the end)")
      ->check(file_name_check());
  cli.add_option("--crop", o.crop, "with --screenshot: only this view")
      ->check(CLI::IsMember({"controls", "store", "timeline", "charts", "lesson"}));
  std::string hover;
  CLI::Option* hover_given = cli.add_option("--hover", hover, "with --screenshot: put the pointer at X,Y (window pixels) to show its tooltip");
  cli.add_flag("--list-scenarios", o.list_scenarios, "print the runnable scenarios the picker lists, one a line, and exit");
  cli.add_flag("--ab", o.ab, "start with the A/B view (B toggles aio threads)");
  CLI::Option* lesson = cli.add_option("--lesson", o.guided,
                                       "without a value: show the lesson panel; --lesson N: walk guided lesson N of lessons/ "
                                       "(or a lesson file): predict, run, observe, explain")
                           ->expected(0, 1);
  cli.add_option("--answers", o.answers, "with --lesson N and --captures: the predictions, one a line, as clerk lesson --answers reads them")
      ->check(file_name_check());
  cli.add_option("--captures", o.captures,
                 "with --lesson N: walk every step headless and write DIR/N-K-observe.png (with DIR/N-K-observe.txt, "
                 "where each element's ring is) at each observed moment and DIR/N-K-explain.png after the run, all together once "
                 "the walk is over (all or none), then exit")
      ->check(name_check("folder name", "DIR"));
  cli.add_flag("--tails", o.tails, "open the latency percentiles tab below the store");
  cli.add_flag("--heatmap", o.heatmap, "open the latency heat map tab below the store");
  cli.add_flag("--paused", o.paused, "start paused");
  cli.add_option("--replay", o.replay, "follow one customer: the p50 or p99 request of the first client group, or its worst (max), replayed in slow motion")
      ->check(CLI::IsMember({"p50", "p99", "max"}));
  cli.add_option("--replay-group", o.replay_group, "with --replay: whose request, a client group of the scenario (the first when absent)");
  std::string replay_at;
  CLI::Option* replay_at_given = cli.add_option("--replay-at", replay_at,
                 "with --replay and --screenshot: the replay this many screen seconds in, or 'longest' (halfway through its longest stop)");
  cli.add_option("--width", o.width, "window width")->check(common::whole_range(640, 8192));
  cli.add_option("--height", o.height, "window height")->check(common::whole_range(480, 8192));
  cli.add_flag("--bench", o.bench, "measure frame times at --speed and print them");
  cli.add_option("--frames", o.bench_frames, "frames measured by --bench")->check(common::whole_range(10, 100000));
  cli.add_option("--speed", o.speed, "simulated seconds per real second")->check(speed_check());
  cli.add_option("--font-scale", o.font_scale, "text size, 1 = 13 px (Ctrl +/- and Ctrl 0 change it while running)")
      ->check(font_scale_check());
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's message quotes the command line as given: shown escaped.
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", common::shown_text(e.what()).c_str());
    return 2;
  }
  if (hover_given->count() > 0) {  // "--hover ''" too: given, and no X,Y
    // A pointer is at finite, non-negative pixels, each written in decimal.
    const std::size_t comma = hover.find(',');
    double x = 0, y = 0;
    if (comma == std::string::npos || !finite_in(hover.substr(0, comma), 0, kMaxPixel, x) ||
        !finite_in(hover.substr(comma + 1), 0, kMaxPixel, y)) {
      std::fprintf(stderr, "clerk-ui: --hover wants X,Y in window pixels, 0 or more (got \"%s\")\n",
                   common::shown_text(hover).c_str());
      return 2;
    }
    o.hover = std::make_pair(static_cast<float>(x), static_cast<float>(y));
  }
  o.lesson = lesson->count() > 0 && o.guided.empty();
  if ((!o.answers.empty() || !o.captures.empty()) && o.guided.empty()) {
    std::fprintf(stderr, "clerk-ui: --answers and --captures need --lesson N\n");
    return 2;
  }
  if (!o.captures.empty() && !o.screenshot.empty()) {
    std::fprintf(stderr, "clerk-ui: --captures and --screenshot are separate runs: give one\n");
    return 2;
  }
  if (replay_at_given->count() > 0) {  // "--replay-at ''" too: given, and no time
    double v = 0;
    if (replay_at == "longest") {
      o.replay_longest = true;
      o.replay_at_s = 0;
    } else if (finite_in(replay_at, 0, 3600, v)) {
      o.replay_at_s = v;
    } else {
      std::fprintf(stderr, "clerk-ui: --replay-at wants screen seconds from 0 to 3600, or 'longest' (got \"%s\")\n",
                   common::shown_text(replay_at).c_str());
      return 2;
    }
  }
  if (o.replay_at_s >= 0 && (o.replay.empty() || o.screenshot.empty())) {
    std::fprintf(stderr, "clerk-ui: --replay-at needs --replay and --screenshot\n");
    return 2;
  }
  if (!o.replay_group.empty() && o.replay.empty()) {
    std::fprintf(stderr, "clerk-ui: --replay-group needs --replay\n");
    return 2;
  }
  // The replay follows a request of the run so far: at the measured
  // window's start no response has been counted yet.
  if (!o.replay.empty() && !(o.at_s > 0)) {
    std::fprintf(stderr, "clerk-ui: --replay needs --at S (a moment of the measured window, so that responses exist to follow)\n");
    return 2;
  }
  if (!o.crop.empty() && o.screenshot.empty()) {
    std::fprintf(stderr, "clerk-ui: --crop needs --screenshot\n");
    return 2;
  }
  // Known before the run (probe 5, finding 7: "nothing to capture", exit 1,
  // after it): the lesson panel is drawn only with --lesson.
  if (o.crop == "lesson" && lesson->count() == 0) {
    std::fprintf(stderr, "clerk-ui: --crop lesson needs --lesson (the lesson panel is drawn only then)\n");
    return 2;
  }
  // The pointer is put at --hover only in a headless capture; a window has the user's.
  if (o.hover && o.screenshot.empty() && o.captures.empty()) {
    std::fprintf(stderr, "clerk-ui: --hover needs --screenshot or --captures\n");
    return 2;
  }
  // --series writes without a window: what only a window shows would be dropped unsaid.
  if (!o.series.empty() && (!o.replay.empty() || o.bench)) {
    std::fprintf(stderr, "clerk-ui: --series writes without a window: not with %s\n", o.bench ? "--bench" : "--replay");
    return 2;
  }
  // A capture leaves at its third frame, long before --bench's measured ones.
  if (o.bench && (!o.screenshot.empty() || !o.captures.empty())) {
    std::fprintf(stderr, "clerk-ui: --bench and %s are separate runs: give one\n",
                 o.screenshot.empty() ? "--captures" : "--screenshot");
    return 2;
  }
  // Before the scenario is run and a window opened (issue 21, finding 8):
  // the rules of the writer that saves it (common/output_file.h).
  for (const auto& [flag, path] : {std::pair<const char*, const std::string*>{"--screenshot", &o.screenshot}, {"--series", &o.series}}) {
    if (path->empty()) continue;
    try {
      common::check_output_path(*path);
    } catch (const common::OutputError& e) {
      std::fprintf(stderr, "clerk-ui: %s %s: %s\n", flag, common::shown_text(*path).c_str(),
                   common::shown_text(e.reason()).c_str());
      return 2;
    }
  }
  if (!o.series.empty() && (!o.screenshot.empty() || !o.captures.empty())) {
    std::fprintf(stderr, "clerk-ui: --series and %s are separate runs: give one\n",
                 o.screenshot.empty() ? "--captures" : "--screenshot");
    return 2;
  }
  return std::nullopt;
}

}  // namespace ui
