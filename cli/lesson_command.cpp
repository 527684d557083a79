// clerk lesson N: a guided lesson (models/scenario/lesson.h) in the
// terminal. Each step: what the student is looking at, the prediction asked
// on stdin (or read from --answers), the run, what to observe, the answer
// from the run's own figures, the explanation with them filled in, the
// step's claims checked, and the exercise (a change the student types, run
// and checked against its goal).
//
// --check runs every step without prompts, checks every claim, and runs
// each exercise's solution against its goal (CI runs it for every lesson).
// --handout DIR writes DIR/N-name.md (the student's page, the run's numbers
// filled in) and DIR/N-name-teacher.md (the answers). Exit status: 0 every
// claim held, 1 one did not, 2 bad input.
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "common/input_file.h"
#include "common/number_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/key_reference.h"
#include "models/scenario/lesson.h"

namespace cli {

namespace {

using models::Expectation;
using models::Lesson;
using models::LessonRuns;
using models::LessonStep;

struct LessonArgs {
  std::string lesson;  // a number, or a lesson file
  std::string lessons_dir;
  bool list = false;
  bool check = false;
  std::string answers;  // a file of answers, one a line; empty: stdin
  std::string handout;  // a folder
};

std::string default_lessons_dir() {
  if (std::filesystem::is_directory("lessons")) return "lessons";
  return std::string(CLERK_SOURCE_DIR) + "/lessons";
}

nlohmann::ordered_json run_json(const models::Scenario& sc) {
  nlohmann::ordered_json json = engines::run_scenario_json(sc, engines::as_written(sc));
  json.erase("wall_s");
  return json;
}

// The lesson's texts as the terminal (and the handouts) show them: a
// lesson file's strings may hold any character, and a control sequence
// (ESC, U+009B, U+202E) would act on the terminal. Each text is shown
// escaped (common/shown_text.h), its line ends kept; ordinary text is
// unchanged. What the loader accepts is not changed.
Lesson shown_lesson(Lesson lesson) {
  const auto show = [](std::string& text) { text = common::shown_lines(text); };
  show(lesson.title);
  show(lesson.summary);
  for (LessonStep& step : lesson.steps) {
    for (std::string* text : {&step.title, &step.setup, &step.explain, &step.teacher, &step.observe.text,
                              &step.predict.question, &step.predict.unit})
      show(*text);
    for (models::LessonChoice& c : step.predict.choices) show(c.text);
    for (Expectation& e : step.expect) show(e.note);
    if (step.exercise) {
      show(step.exercise->task);
      show(step.exercise->goal_unit);  // not the solution: --check runs it as written
    }
  }
  return lesson;
}

// Where the student's answers come from: --answers' file, else stdin.
class Answers {
 public:
  explicit Answers(const std::string& file) {
    if (file.empty()) return;
    // Read whole, as every input file (common/input_file.h): a FIFO or a
    // file that blocks is refused at once, /dev/zero is no regular file.
    try {
      file_ = std::make_unique<std::istringstream>(common::read_input_file(file, kMaxAnswersBytes));
    } catch (const common::InputFileError& e) {
      throw common::BadInput("--answers: '" + common::shown_text(file) + "' " + e.what());
    }
  }
  // The next line; empty at the end of the input.
  std::optional<std::string> next(const std::string& prompt) {
    std::cout << prompt << std::flush;
    std::string line;
    if (!(file_ ? static_cast<bool>(std::getline(*file_, line)) : stdin_line(line))) {
      std::cout << "\n";
      return std::nullopt;
    }
    // Scripted: show what was answered (escaped: the line is the user's bytes).
    if (file_ || !isatty(STDIN_FILENO)) std::cout << common::shown_text(line) << "\n";
    return line;
  }

 private:
  // A line per question: a lesson's answers are a few hundred bytes.
  static constexpr std::uint64_t kMaxAnswersBytes = 1u << 20;
  std::unique_ptr<std::istringstream> file_;
  std::uint64_t stdin_bytes_ = 0;

  // A line of standard input, bounded as --answers is: all of stdin past
  // kMaxAnswersBytes (< /dev/zero, a line that never ends) is bad input,
  // not a string that grows until memory runs out.
  bool stdin_line(std::string& line) {
    char c = 0;
    bool any = false;
    while (std::cin.get(c)) {
      any = true;
      if (++stdin_bytes_ > kMaxAnswersBytes)
        throw common::BadInput("standard input: more than 1 MiB of answers (a lesson's are a few hundred bytes)");
      if (c == '\n') return true;
      line += c;
    }
    return any;
  }
};

// How one step went: what the run says (models::evaluate_step), and for
// the handouts the run's JSON and what the exercise's solution gave.
struct StepOutcome : models::LessonOutcome {
  nlohmann::ordered_json json;
  std::string exercise_result;        // --check / handout: what the solution gave
};

// Runs the step and evaluates everything the run decides.
StepOutcome evaluate(const LessonStep& step, std::vector<nlohmann::ordered_json>& jsons, std::size_t index) {
  jsons[index] = run_json(step.loaded);
  LessonRuns runs;
  for (std::size_t k = 0; k <= index; ++k) runs.runs.push_back(&jsons[k]);
  runs.current = index;
  StepOutcome out;
  static_cast<models::LessonOutcome&>(out) = models::evaluate_step(step, runs);
  return out;
}

// The goal's figure and range in its unit ("181 ms", "at most 50 ms").
std::string goal_value(const models::LessonExercise& x, double v) {
  return fmt::format("{:.3g}{}{}", v * x.goal_scale, x.goal_unit.empty() ? "" : " ", x.goal_unit);
}
std::string goal_range(const models::LessonExercise& x) {
  const std::string unit = x.goal_unit.empty() ? "" : " " + x.goal_unit;
  Expectation scaled = x.goal;
  scaled.min *= x.goal_scale;
  scaled.max *= x.goal_scale;
  return models::range_text(scaled) + unit;
}

// The exercise with a change `key=value` run; its goal's figure, and whether it holds.
std::pair<double, bool> try_change(const LessonStep& step, const std::string& change) {
  std::vector<std::string> with = step.overrides;
  with.push_back(change);
  const models::Scenario sc = models::load_scenario(step.scenario, with);
  const nlohmann::ordered_json json = run_json(sc);
  LessonRuns runs;
  runs.runs.push_back(&json);
  const std::optional<double> v = models::lesson_metric(runs, step.exercise->goal);
  return {v ? *v : NAN, v && *v >= step.exercise->goal.min && *v <= step.exercise->goal.max};
}

std::string highlight_words(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : "; ") + models::highlight_words(id);
  return out;
}

std::string highlight_text(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// A figure of the run's JSON by its dotted path ("server.workers.per_worker.0.connections"); NAN when absent.
double figure(const nlohmann::ordered_json& json, const std::string& path) {
  const nlohmann::ordered_json* at = &json;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string part = path.substr(start, dot - start);
    if (at->is_array() && !part.empty() && part.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(part) < at->size())
      at = &(*at)[std::stoul(part)];
    else if (at->is_object() && at->contains(part))
      at = &(*at)[part];
    else
      return NAN;
    start = dot + 1;
  }
  return at->is_number() ? at->get<double>() : NAN;
}

// A share as a percentage, as the lesson text prints it, but never "100%"
// or "0%" for a share that is not exactly that: 0.996 is "99.6%", not
// "100%" (one decimal, rounded away from the bound it is not).
std::string pct(double v) {
  if (std::isnan(v)) return "?";
  const std::string s = models::format_figure(v, "%");
  const double p = v * 100;
  if (s == "100%" && p != 100) return fmt::format("{:.1f}%", p < 100 ? std::floor(p * 10) / 10 : std::ceil(p * 10) / 10);
  if (s == "0%" && p != 0) return fmt::format("{:.1f}%", p > 0 ? std::ceil(p * 10) / 10 : std::floor(p * 10) / 10);
  return s;
}
std::string ms(double v) { return std::isnan(v) ? "?" : models::format_figure(v, "ms"); }
// A duration in seconds as the lesson text gives it: ms below a second, s above.
std::string duration(double v) {
  return std::isnan(v) ? "?" : models::format_figure(v, std::fabs(v) < 1 ? "ms" : "s");
}
std::string num(double v) { return std::isnan(v) ? "?" : models::format_figure(v, ""); }

// Whether the figure at dotted `path` is a time in seconds: a key ending in
// "_s" (not a rate, "_per_s"), or a statistic of one ("latency_raw_s.mean";
// its count, in_flight or within_stdev_frac are not).
bool in_seconds(const std::string& path) {
  const auto seconds_key = [](const std::string& k) {
    return k.size() > 2 && k.compare(k.size() - 2, 2, "_s") == 0 && !(k.size() > 6 && k.compare(k.size() - 6, 6, "_per_s") == 0);
  };
  const std::size_t dot = path.rfind('.');
  const std::string last = dot == std::string::npos ? path : path.substr(dot + 1);
  if (seconds_key(last)) return true;
  if (dot == std::string::npos) return false;
  const std::size_t before = path.rfind('.', dot - 1);
  const std::string parent = path.substr(before == std::string::npos ? 0 : before + 1, dot - (before == std::string::npos ? 0 : before + 1));
  const bool statistic = last == "mean" || last == "stdev" || last == "max" || last == "min" ||
                         (last.size() >= 2 && last[0] == 'p' && std::isdigit(static_cast<unsigned char>(last[1]))) ||
                         last.rfind("peak_p", 0) == 0;
  return statistic && seconds_key(parent);
}

// What a highlighted element of the store shows in clerk-ui, as figures of
// the whole run the terminal can print (clerk-ui shows the moment `at`).
std::string highlight_figures(const std::string& id, const nlohmann::ordered_json& json, const LessonRuns& runs) {
  const std::string kind = id.substr(0, id.find('.'));
  const std::string rest = id.size() > kind.size() ? id.substr(kind.size() + 1) : "";
  if (kind == "clerk") {
    const std::string w = "server.workers.per_worker." + rest + ".";
    return fmt::format("working {}, waiting for the disk {}, asleep {} of the time; {} requests", pct(figure(json, w + "running_frac")),
                       pct(figure(json, w + "disk_wait_frac")), pct(figure(json, w + "sleeping_frac")),
                       num(figure(json, w + "requests")));
  }
  if (kind == "queue")
    return fmt::format("{} connections, {} requests", num(figure(json, "server.workers.per_worker." + rest + ".connections")),
                       num(figure(json, "server.workers.per_worker." + rest + ".requests")));
  if (kind == "team") {
    if (!(figure(json, "server.thread_pool.threads") > 0)) return "no team";
    const std::string whose = figure(json, "server.workers.count") > 1 ? "every clerk's team together: " : "";
    return whose + fmt::format("{} orders; members working {}, at the warehouse {}, idle {} of the time; orders waiting {} on "
                       "average, {} at most",
                       num(figure(json, "server.thread_pool.tasks")), pct(figure(json, "server.thread_pool.running_frac")),
                       pct(figure(json, "server.thread_pool.disk_wait_frac")),
                       pct(figure(json, "server.thread_pool.sleeping_frac")), num(figure(json, "server.thread_pool.mean_waiting")),
                       num(figure(json, "server.thread_pool.max_waiting")));
  }
  if (kind == "shelves") {
    // The page cache's lookup unit (memory.cache_unit: 64 KiB unless the scenario sets it).
    const double unit = figure(json, "server.page_cache.lookup_unit_bytes");
    const std::string pieces = unit > 0 ? fmt::format("{:g} KB pieces", unit / 1024) : "pieces";
    return fmt::format("{} of the {} looked up were there; {} of the requests never waited for the disk",
                       pct(figure(json, "server.page_cache.hit_ratio")), pieces,
                       pct(figure(json, "server.page_cache.request_hit_ratio")));
  }
  if (kind == "warehouse")
    return fmt::format("{} drive(s), busy {} of the time, {} reads in it on average, {} MB read a second",
                       num(figure(json, "server.disk.drives")), pct(figure(json, "server.disk.utilization")),
                       num(figure(json, "server.disk.mean_queue_depth")), num(figure(json, "server.disk.read_bytes_per_s") / 1e6));
  if (kind == "dock")
    return fmt::format("sent {} Gbit/s on average", num(figure(json, "server.nic_out_gbps_mean")));
  if (kind == "door") return fmt::format("{} connections came in", num(figure(json, "server.requests.connections")));
  if (kind == "series") {
    const std::string g = "clients." + rest + ".";
    std::string out = fmt::format("{} items a second", num(figure(json, g + "requests_per_s")));
    if (figure(json, g + "latency_raw_s.count") > 0)
      out += fmt::format("; wait (whole item) median {}, p99 {}", ms(figure(json, g + "latency_raw_s.p50")),
                         ms(figure(json, g + "latency_raw_s.p99")));
    if (figure(json, g + "ttfb_s.count") > 0)
      out += fmt::format("; first byte median {}, worst second's p99 {}", ms(figure(json, g + "ttfb_s.p50")),
                         ms(figure(json, g + "ttfb_s.peak_p99")));
    return out;
  }
  if (kind == "figure") {
    Expectation e;
    e.metric = rest;
    const std::optional<double> v = models::lesson_metric(runs, e);
    if (!v) return "?";
    const auto ends = [&](const std::string& tail) {
      return rest.size() >= tail.size() && rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0;
    };
    // Shares as percentages and seconds with their unit, as the lesson text
    // quotes them ({...|%}, {...|ms}); a count as a plain number.
    if (ends("_frac") || ends("_share") || ends("_ratio") || ends(".utilization") ||
        rest.find(".blocked_by_cause.") != std::string::npos)
      return pct(*v);
    if (in_seconds(rest)) return duration(*v);
    return models::plain_number(*v);
  }
  return "";
}

// The student's prediction, asked before the run; empty: none given.
std::string ask_prediction(const LessonStep& step, Answers& answers) {
  const models::LessonPredict& p = step.predict;
  std::cout << "\nPredict: " << p.question << "\n";
  if (!p.choices.empty()) {
    for (std::size_t i = 0; i < p.choices.size(); ++i) std::cout << fmt::format("  {}) {}\n", i + 1, p.choices[i].text);
    while (auto line = answers.next(fmt::format("Your answer (1-{}): ", p.choices.size()))) {
      const std::optional<std::size_t> n = common::number_text<std::size_t>(*line);  // digits only
      if (n && *n >= 1 && *n <= p.choices.size()) return *line;
      std::cout << fmt::format("  please type a number from 1 to {}\n", p.choices.size());
    }
    return "";
  }
  while (auto line = answers.next(fmt::format("Your estimate in {} ({:g} to {:g}): ", p.unit, p.slider_min, p.slider_max))) {
    // Read as the other readers read numbers (common/number_text.h): decimal
    // only (strtod took 0x10 as 16), and 1e-400 is out of range, no number
    // clerk can judge.
    const std::optional<double> v = common::number_text<double>(*line);
    if (v && *v >= p.slider_min && *v <= p.slider_max) return *line;
    std::cout << fmt::format("  please type a number from {:g} to {:g}\n", p.slider_min, p.slider_max);
  }
  return "";
}

void tell_answer(const LessonStep& step, const StepOutcome& o, const std::string& guess) {
  std::cout << "Answer: " << models::predict_answer_text(step, o) << "\n";
  if (!guess.empty()) std::cout << models::judge_prediction(step, o, guess).text << "\n";
}

// What each key the exercise offers accepts, from the key reference
// (`clerk keys`), and how attempts combine: each is one change to the step
// as it ran, replacing the attempt before it (the task asks for one setting).
void print_exercise_keys(const models::LessonExercise& x) {
  static const models::KeyReference ref = models::build_key_reference();
  std::cout << "  you may change:\n";
  for (const std::string& k : x.keys) {
    const std::string summary = models::key_summary(ref, k);
    std::cout << "    " << (summary.empty() ? k : summary) << "\n";
  }
  std::cout << "  Type one change as KEY=VALUE (a text value in quotes, like nginx.aio=\"threads\"). Each change is "
               "run on the step as it stands: a new one replaces the one before, they do not add up.\n";
}

void run_exercise(const LessonStep& step, Answers& answers) {
  const models::LessonExercise& x = *step.exercise;
  std::cout << "\nExercise: " << x.task << "\n";
  print_exercise_keys(x);
  while (auto line = answers.next("Your change (KEY=VALUE, empty to skip): ")) {
    if (line->empty()) return;
    const std::size_t eq = line->find('=');
    const std::string key = eq == std::string::npos ? "" : line->substr(0, eq);
    if (std::find(x.keys.begin(), x.keys.end(), key) == x.keys.end()) {
      std::cout << "  change one of: " << highlight_text(x.keys) << "\n";
      continue;
    }
    try {
      const auto [v, ok] = try_change(step, *line);
      std::cout << fmt::format("  {} = {}: {}\n", x.goal.metric, goal_value(x, v),
                               ok ? "goal reached (" + goal_range(x) + ")."
                                  : "not yet; the goal is " + goal_range(x) + ". Try another change.");
      if (ok) return;
    } catch (const models::ConfigError& e) {
      std::cout << "  that change does not load: " << e.what() << "\n";  // ConfigError: shown escaped
    }
  }
}

void print_header(const Lesson& lesson) {
  std::cout << fmt::format("Lesson {}: {}\n\n{}\n", lesson.number, lesson.title, lesson.summary);
}

// The step's run as a command from the project's root (the folder above lessons/).
std::string set_text(const Lesson& lesson, const LessonStep& step) {
  namespace fs = std::filesystem;
  const fs::path root = fs::weakly_canonical(fs::absolute(lesson.file)).parent_path().parent_path();
  std::string out = fs::weakly_canonical(fs::absolute(step.scenario)).lexically_relative(root).string();
  // A key set twice (the lesson's, an earlier step's, this step's) runs with
  // its last value: only that one is shown, where it comes.
  const auto key_of = [](const std::string& o) { return o.substr(0, o.find('=')); };
  for (std::size_t i = 0; i < step.overrides.size(); ++i) {
    bool later = false;
    for (std::size_t j = i + 1; j < step.overrides.size() && !later; ++j)
      later = key_of(step.overrides[j]) == key_of(step.overrides[i]);
    if (!later) out += " --set " + step.overrides[i];
  }
  return common::shown_text(out);
}

int interactive(const Lesson& lesson, Answers& answers) {
  print_header(lesson);
  std::vector<nlohmann::ordered_json> jsons(lesson.steps.size());
  int failed = 0;
  bool told_visualizer = false;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    std::cout << fmt::format("\n== Step {} of {}: {} ==\n{}\n  (clerk run {})\n", i + 1, lesson.steps.size(), step.title,
                             step.setup, set_text(lesson, step));
    const std::string guess = step.predict.given() ? ask_prediction(step, answers) : "";
    std::cout << fmt::format("\nRunning {:g} simulated seconds...\n", step.loaded.duration_s);
    const StepOutcome o = evaluate(step, jsons, i);
    if (!step.observe.text.empty()) {
      // What to observe is drawn in the visualizer; said once a lesson, then
      // the figures it points at, printed here for the whole run.
      if (!told_visualizer && (!std::isnan(step.observe.at_s) || !step.observe.highlight.empty())) {
        std::cout << fmt::format("\n(\"Observe\" describes the visualizer: `clerk-ui --lesson {}` plays this lesson with "
                                 "the store drawn, paused at the moment named, what to look at ringed. Here, the "
                                 "figures of what it points at follow, for the whole run.)\n",
                                 lesson.number);
        told_visualizer = true;
      }
      std::cout << "\nObserve";
      if (!std::isnan(step.observe.at_s)) std::cout << fmt::format(" (at {:g} s, in clerk-ui)", step.observe.at_s);
      std::cout << ": " << o.observe << "\n";
      if (!step.observe.highlight.empty()) {
        std::cout << "  look at: " << highlight_words(step.observe.highlight) << "\n";
        LessonRuns runs;
        for (std::size_t k = 0; k <= i; ++k) runs.runs.push_back(&jsons[k]);
        runs.current = i;
        for (const std::string& id : step.observe.highlight)
          if (const std::string f = highlight_figures(id, jsons[i], runs); !f.empty())
            std::cout << "    " << models::highlight_words(id) << ": " << f << "\n";
      }
    }
    if (step.predict.given()) tell_answer(step, o, guess);
    std::cout << "\nWhy: " << o.explain << "\n\nChecked against the run:\n";
    for (const std::string& c : o.claims) std::cout << "  " << c << "\n";
    failed += o.failed;
    if (step.exercise) run_exercise(step, answers);
  }
  std::cout << (failed ? fmt::format("\nlesson {}: {} claims did not hold for the run\n", lesson.number, failed)
                       : fmt::format("\nlesson {}: done; every claim held for the run\n", lesson.number));
  return failed ? 1 : 0;
}

// Every step run, every claim checked, every exercise's solution run.
std::vector<StepOutcome> check_all(const Lesson& lesson, int& failed) {
  std::vector<nlohmann::ordered_json> jsons(lesson.steps.size());
  std::vector<StepOutcome> outcomes;
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    StepOutcome o = evaluate(step, jsons, i);
    std::cout << fmt::format("step {}: {}\n", i + 1, step.title);
    if (step.predict.given()) std::cout << "  answer: " << models::predict_answer_text(step, o) << "\n";
    for (const std::string& c : o.claims) std::cout << "  " << c << "\n";
    if (step.exercise) {
      const models::LessonExercise& x = *step.exercise;
      // The goal must be unmet as the step stands, and met by the solution.
      bool ok_before = false;
      LessonRuns runs;
      runs.runs.push_back(&jsons[i]);
      const std::optional<double> before = models::lesson_metric(runs, x.goal);
      ok_before = before && *before >= x.goal.min && *before <= x.goal.max;
      const auto [after, ok] = try_change(step, x.solution);
      o.exercise_result = fmt::format("{} = {} with {} ({} before)", x.goal.metric, goal_value(x, after),
                                      common::shown_text(x.solution),
                                      before ? goal_value(x, *before) : "missing");
      std::cout << fmt::format("  {}  exercise: the goal ({} {}) is unmet as the step stands ({})\n",
                               ok_before ? "FAIL" : "ok  ", x.goal.metric, models::range_text(x.goal),
                               before ? models::plain_number(*before) : "missing");
      std::cout << fmt::format("  {}  exercise: the solution {} meets it ({})\n", ok ? "ok  " : "FAIL", common::shown_text(x.solution),
                               models::plain_number(after));
      o.failed += (ok_before ? 1 : 0) + (ok ? 0 : 1);
    }
    failed += o.failed;
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

std::string handout_page(const Lesson& lesson, const std::vector<StepOutcome>& outcomes, bool teacher) {
  std::string md = fmt::format("# Lesson {}: {}{}\n\n", lesson.number, lesson.title, teacher ? " (teacher's page)" : "");
  md += "<!-- Generated by `clerk lesson " + std::to_string(lesson.number) + " --handout docs/lessons` from lessons/" +
        std::filesystem::path(lesson.file).filename().string() + "; do not edit. -->\n\n";
  md += lesson.summary + "\n";
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const LessonStep& step = lesson.steps[i];
    const StepOutcome& o = outcomes[i];
    md += fmt::format("\n## Step {}: {}\n\n{}\n\nThe run: `clerk run {}`\n", i + 1, step.title, step.setup, set_text(lesson, step));
    if (step.predict.given()) {
      md += "\n**Predict, before reading on.** " + step.predict.question + "\n\n";
      if (!step.predict.choices.empty())
        for (std::size_t c = 0; c < step.predict.choices.size(); ++c)
          md += fmt::format("{}. {}\n", c + 1, step.predict.choices[c].text);
      else
        md += fmt::format("Your estimate, in {} ({:g} to {:g}): ______\n", step.predict.unit, step.predict.slider_min,
                          step.predict.slider_max);
    }
    if (!step.observe.text.empty()) {
      md += "\n**Observe";
      if (!std::isnan(step.observe.at_s)) md += fmt::format(" at {:g} s", step.observe.at_s);
      md += ".** " + o.observe + "\n";
      if (!step.observe.highlight.empty()) md += "\nLook at: " + highlight_words(step.observe.highlight) + ".\n";
      // clerk-ui's capture of the moment (clerk-ui --lesson N --captures;
      // scripts/regen-lessons makes them beside the handouts).
      if (!std::isnan(step.observe.at_s))
        md += fmt::format("\n![The store at t = {:g} s of the measured window, what to look at ringed]"
                          "(figures/{}-{}-observe.png)\n", step.observe.at_s, lesson.number, i + 1);
    }
    // The student's page folds the answer away until the prediction is made.
    const bool fold = !teacher && step.predict.given();
    if (fold) md += "\n<details><summary>After your prediction: the answer and why</summary>\n";
    if (step.predict.given()) md += "\n**Answer:** " + models::predict_answer_text(step, o) + "\n";
    md += "\n**Why.** " + o.explain + "\n";
    if (fold) md += "\n</details>\n";
    if (step.exercise) {
      md += "\n**Exercise.** " + step.exercise->task + " You may change: `" + highlight_text(step.exercise->keys) + "`.\n";
      if (teacher)
        md += "\n**Solution:** `--set " + common::shown_text(step.exercise->solution) + "`: " + o.exercise_result + ".\n";
    }
    if (teacher) {
      if (!step.teacher.empty()) md += "\n**Discussion.** " + step.teacher + "\n";
      md += "\nClaims checked by CI (`clerk lesson " + std::to_string(lesson.number) + " --check`):\n\n";
      for (const std::string& c : o.claims) md += "- " + c + "\n";
    }
  }
  return md;
}

// The student's page and the teacher's.
std::array<std::string, 2> handout_paths(const Lesson& lesson, const std::string& dir) {
  const std::string base = (std::filesystem::path(dir) / fmt::format("{}-{}", lesson.number, lesson.name)).string();
  return {base + ".md", base + "-teacher.md"};
}

// Every file the lesson's runs read: the lesson and each step's scenario
// with its includes. A handout may overwrite none of them.
std::vector<std::string> lesson_inputs(const Lesson& lesson) {
  std::vector<std::string> files{lesson.file};
  for (const models::LessonStep& step : lesson.steps)
    files.insert(files.end(), step.loaded.files.begin(), step.loaded.files.end());
  return files;
}

// Both pages or neither (common::OutputSet): a teacher's page that cannot be
// written leaves no student's page of this run behind.
void write_handouts(const Lesson& lesson, const std::vector<StepOutcome>& outcomes, const std::string& dir) {
  const auto [student, teacher] = handout_paths(lesson, dir);
  common::OutputSet pages;
  pages.add(student, handout_page(lesson, outcomes, false));
  pages.add(teacher, handout_page(lesson, outcomes, true));
  pages.write();
  std::cout << "wrote " << common::shown_text(student) << " and " << common::shown_text(teacher) << "\n";
}

int list_lessons(const std::string& dir) {
  const std::vector<std::string> files = models::lesson_files(dir);
  if (files.empty()) {
    std::cerr << "clerk: --lessons: '" << common::shown_text(dir) << "' holds no lesson files (N-name.toml)\n";
    return 2;
  }
  for (const std::string& f : files) {
    const Lesson l = models::load_lesson(f);
    std::cout << fmt::format("{:>3}  {}  ({} steps; {})\n", l.number, common::shown_text(l.title), l.steps.size(),
                             common::shown_text(f));
  }
  return 0;
}

int lesson_command(const LessonArgs& args) {
  const std::string dir = args.lessons_dir.empty() ? default_lessons_dir() : args.lessons_dir;
  if (args.list) return list_lessons(dir);
  if (args.lesson.empty()) {
    std::cerr << "clerk: lesson: give a lesson's number (clerk lesson --list shows them) or file\n";
    return 2;
  }
  std::string file = args.lesson;
  if (file.find_first_not_of("0123456789") == std::string::npos) {
    file = file.size() <= 3 ? models::find_lesson(dir, std::stoi(file)) : "";
    if (file.empty()) {
      std::cerr << "clerk: lesson: no lesson " << args.lesson << " in " << common::shown_text(dir)
                << " (clerk lesson --list)\n";
      return 2;
    }
  }
  const Lesson lesson = shown_lesson(models::load_lesson(file));
  if (!args.handout.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(args.handout, ec)) {
      std::cerr << "clerk: --handout: '" << common::shown_text(args.handout) << "' is not a folder\n";
      return 2;
    }
    // Both pages checked before any run: neither is written when one could not be.
    for (const std::string& page : handout_paths(lesson, args.handout)) {
      common::check_output_path(page);
      common::check_not_an_input(page, lesson_inputs(lesson));
    }
  }
  if (args.check || !args.handout.empty()) {
    int failed = 0;
    const std::vector<StepOutcome> outcomes = check_all(lesson, failed);
    // A handout tells what the run showed: none while a claim fails.
    if (!args.handout.empty() && failed == 0) write_handouts(lesson, outcomes, args.handout);
    std::cout << fmt::format("lesson {}: {}\n", lesson.number,
                             failed ? fmt::format("{} claims failed", failed) : std::string("every claim held"));
    return failed ? 1 : 0;
  }
  Answers answers(args.answers);
  return interactive(lesson, answers);
}

}  // namespace

void add_lesson_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<LessonArgs>();
  LessonArgs& a = *args;
  CLI::App* cmd = clerk.add_subcommand("lesson", "A guided lesson: predict, run, observe, explain (lessons/)");
  cmd->add_option("lesson", a.lesson, "the lesson's number (or a lesson file)");
  cmd->add_flag("--list", a.list, "list the lessons");
  cmd->add_option("--lessons", a.lessons_dir, "folder of the lessons (default: lessons/)");
  cmd->add_flag("--check", a.check, "no prompts: run every step and check every claim and exercise (CI)");
  cmd->add_option("--answers", a.answers, "read the answers from this file, one a line, instead of stdin");
  cmd->add_option("--handout", a.handout, "write DIR/N-name.md and DIR/N-name-teacher.md (runs as --check)")
      ->check([](const std::string& dir) { return dir.empty() ? std::string("is empty: give a folder") : std::string(); });
  commands.add(cmd, [args] { return lesson_command(*args); });
}

}  // namespace cli
