// A guided lesson (issue 16): steps that each run a scenario, ask the
// student to predict a figure before the run, say what to observe, explain
// with the run's own numbers, and check every claim as an [[expect]].
//
// A lesson is a TOML file under lessons/, named N-name.toml (N its number),
// data only, like a scenario; the loader is as strict as the scenario's
// (config_loader's Section: an unknown key is a ConfigError naming the
// file, line and key). The format, key by key, is in lessons/README.md.
//
// Each step runs `scenario` (a path relative to the lesson file) with the
// lesson's `set` and its own; a step without `scenario` runs the previous
// step's scenario with the previous step's changes and its own `set` after
// them. Every step's scenario is loaded when the lesson is, so a bad
// override fails before any run.
//
// What the text says about the run is computed from it, never written in:
//  - a multiple-choice answer is the one choice whose condition (a metric
//    and a range, like an [[expect]]) holds for the run; none or several
//    holding is a failed claim;
//  - a number's answer is the metric's value;
//  - the explanation's placeholders {dotted.metric} (or {steps.K.metric}
//    for step K's run; {A / B} for a ratio of two; {metric|ms} and the
//    other formats of format_figure) are looked up in the run's JSON, the one `clerk run
//    --json` writes. A placeholder that no run of the step can have is a
//    ConfigError at load time.
// Expressions: wherever a metric is read (placeholders, expectations,
// choices, goals), it may be an expression: figures and numbers joined by
// " + ", " - ", " * " and " / " (one space each side; products and quotients
// bind first; parentheses group), so that a claim can be a law checked on the
// run, e.g. Little's law, "clients.g.requests_per_s *
// clients.g.latency_raw_s.mean / clients.g.connections" near 1.
// This library reads lessons and evaluates them against runs' JSON; the
// front ends (cli/lesson_command.cpp, clerk-ui) run the scenarios.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace models {

// A figure of one of the lesson's runs: `metric` of this step's run, or of
// step K's when it reads "steps.K.metric"; with relative_to ("step K"),
// divided by the same metric of step K's run.
struct LessonRuns {
  std::vector<const nlohmann::ordered_json*> runs;  // runs[k]: step k+1's JSON (null: not run yet)
  std::size_t current = 0;                          // the step being evaluated, 0-based
};

struct LessonChoice {
  std::string text;
  Expectation when;  // this choice is the answer when its metric is in [min, max]
};

struct LessonPredict {
  std::string question;
  std::vector<LessonChoice> choices;  // multiple choice; empty: a number
  // A number: the metric's value times `scale`, in `unit`, asked on a slider
  // from slider_min to slider_max; a guess within `tolerance` (relative) of
  // the run's value counts as right.
  Expectation number;
  double scale = 1;
  std::string unit;
  double slider_min = 0, slider_max = 0;
  double tolerance = 0.5;
  bool given() const { return !question.empty(); }
};

// What to look at: a moment of the run and the elements to highlight,
// named as kinds the visualizer maps (observe_kinds()):
//   clerk.N (worker N's event loop), team.N (worker N's thread pool),
//   queue.N (the connections waiting on worker N), shelves (the page cache),
//   warehouse (the disk), door (the listen socket), dock (the NIC: the
//   loading dock of ui/store_layout.h), series.GROUP (a client
//   group's chart series), figure.METRIC (one number of the report).
struct LessonObserve {
  double at_s = NAN;  // NAN: no pause
  std::vector<std::string> highlight;
  // Follow one customer (clerk-ui's replay, ui/replay.h): "p50", "p99" or
  // "max" of client group `replay_group` (the scenario's first when empty);
  // "" for none.
  std::string replay;
  std::string replay_group;
  std::string text;
  int line = 0;  // the line of `text`
};

struct LessonExercise {
  std::string task;
  std::vector<std::string> keys;  // the keys the student may change
  Expectation goal;               // the figure and its bound the changed run must meet
  double goal_scale = 1;          // the goal's figures are shown times this, in goal_unit
  std::string goal_unit;
  std::string solution;           // KEY=VALUE: the teacher's answer; --check runs it
  std::string file;
  int line = 0;
};

struct LessonStep {
  std::string title;
  std::string scenario;                // the scenario file (resolved)
  std::vector<std::string> overrides;  // every --set of this step, the lesson's first
  std::string setup;                   // before the question: what the student is looking at
  LessonPredict predict;
  LessonObserve observe;
  std::string explain;                 // with {placeholders}
  int explain_line = 0;
  std::string teacher;                 // discussion points for the teacher's page
  std::optional<LessonExercise> exercise;
  std::vector<Expectation> expect;     // every claim of the text
  Scenario loaded;                     // the scenario with the overrides, as it will run
  std::string file;
  int line = 0;
};

struct Lesson {
  std::string file;
  int number = 0;
  std::string name;  // the file's name after "N-", without .toml
  std::string title;
  std::string summary;
  std::vector<LessonStep> steps;
};

// Reads a lesson file; throws ConfigError (file, line, key).
Lesson load_lesson(const std::string& path);

// The lesson files of a folder (N-name.toml), by number. A lesson name that
// cannot be examined (a link in a loop) is a ConfigError naming it.
std::vector<std::string> lesson_files(const std::string& dir);
// The file of lesson N in `dir`; empty when there is none. Two files of the
// same number (1-a.toml, 01-b.toml) are a ConfigError naming both.
std::string find_lesson(const std::string& dir, int number);

// The value of an expectation's metric (or expression) over the runs (see
// LessonRuns): empty when a run or a figure is missing, a divisor is 0, or
// relative_to's figure is 0. With relative_to, every figure of the base is
// read at that step.
std::optional<double> lesson_metric(const LessonRuns& runs, const Expectation& e);
bool holds(const LessonRuns& runs, const Expectation& e);
// The index of the one choice that holds; empty when none or several do.
std::optional<std::size_t> answer_choice(const LessonRuns& runs, const LessonPredict& p);
// A guess of a number prediction (in the prediction's unit) is right when it
// is within the tolerance of the run's value.
bool guess_is_right(double guess, double actual_scaled, double tolerance);

// `text` with every {placeholder} replaced by its figure; `{{` and `}}` are
// braces. Throws std::out_of_range naming the placeholder when a figure is
// null in the run or a ratio's base is 0 (load_lesson has checked the names,
// not the values: the front end reports it as a failed claim).
std::string fill_placeholders(const std::string& text, const LessonRuns& runs);
// A figure as the text shows it: format "" (3 significant figures), "ms"
// (x1000, " ms"), "s" (" s"), "%" (x100, "%"), "int" (rounded, with
// thousands separated by commas), "x" (" times", 2 significant figures).
std::string format_figure(double v, const std::string& format);

// How one step went, as its run (and the runs before it) say: what clerk
// lesson prints and clerk-ui shows, computed once here for both.
struct LessonOutcome {
  std::optional<std::size_t> choice;  // the answer of a multiple-choice question
  double number = NAN;                // the answer of a number question, in its unit
  std::string explain;                // the explanation, placeholders filled
  std::string observe;                // what to observe, placeholders filled
  std::vector<std::string> claims;    // "ok    note: the run gives v (range)  [metric]" or "FAIL  ..."
  int failed = 0;
};
// Evaluates step `runs.current` of `step` against the runs (runs.runs[k]
// must hold step k+1's JSON up to the current one). A placeholder the run
// left null, or a ratio over 0, is a failed claim naming the text's file,
// line and key; the text is then left unfilled.
LessonOutcome evaluate_step(const LessonStep& step, const LessonRuns& runs);
// The answer in words: "2) They wait longer..." or "28.1 ms".
std::string predict_answer_text(const LessonStep& step, const LessonOutcome& o);
// The student's guess (a choice's number from 1, or a number in the
// prediction's unit, as typed) against the run: whether it is right, and a
// sentence saying so. An empty guess, or one that is no number in range
// (1e-400, 1e999): not judged (right false, text empty).
struct LessonVerdict {
  bool right = false;
  std::string text;
};
LessonVerdict judge_prediction(const LessonStep& step, const LessonOutcome& o, const std::string& guess);
// A number as the claims print it (4 significant figures, "inf"), and an
// expectation's range in words ("at most 0.05", "between 2 and 5").
std::string plain_number(double v);
std::string range_text(const Expectation& e);

// The kinds observe.highlight may name (see LessonObserve).
const std::vector<std::string>& observe_kinds();
// A highlighted element in the store's words and the server's: "clerk 0
// (worker 0)", "the shelves (page cache)".
std::string highlight_words(const std::string& id);

}  // namespace models
