// clerk-ui --lesson N: a guided lesson (models/scenario/lesson.h) in the
// visualizer, as `clerk lesson N` gives it in the terminal. Each step:
//  1. predict: the step's setup and question, answered with a choice or a
//     slider before anything runs; the answer is kept;
//  2. run: the step's scenario as clerk run runs it (its warm-up
//     fast-forwarded), played up to the step's "observe at" moment, in the
//     measured window's time as the report counts it, and paused there;
//  3. observe: what does not matter is dimmed and a ring (kRing) drawn
//     around each highlighted element, the store's places, a client group's
//     latency chart, or a figure shown in the panel;
//  4. explain: the answer from the run's figures, the student's prediction
//     against it, and the explanation with its placeholders filled.
// The lesson's logic (answers, placeholders, claims, verdicts) is the
// terminal's, in models/scenario/lesson.h; the step's figures come from the
// same run as the terminal's (engines::run_scenario_json on the step's
// scenario, in a background thread while the store plays), so both say the
// same numbers. This file decides what is shown and drawn.
#pragma once
#include <nlohmann/json.hpp>

#include <future>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/lesson.h"
#include "ui/app.h"

namespace ui {

struct LessonMode {
  enum class Phase { kPredict, kRunning, kObserve, kExplain, kDone };
  models::Lesson lesson;
  std::size_t step = 0;
  Phase phase = Phase::kPredict;
  std::vector<std::string> guesses;             // per step, as the terminal reads them ("2", "28"); "" none
  std::vector<nlohmann::ordered_json> jsons;    // per step, once its run is done
  std::future<nlohmann::ordered_json> pending;  // the step's run, in the background
  std::optional<models::LessonOutcome> outcome;
  models::LessonVerdict verdict;
  int pick = -1;         // the choice picked (0-based), -1: none yet
  float number = 0;      // the slider's value
  bool number_set = false;
  std::map<std::string, Box> figures;  // figure.METRIC rows drawn in the panel this frame
};

// Loads the lesson (a number in lessons/, or a file) into app.guided and
// opens its first step; false with `error` on a bad one.
bool start_lesson(App& app, const std::string& which, std::string& error);
// Opens step `i`'s scenario (as written: its own warm-up) and asks its question.
void enter_step(App& app, LessonMode& m, std::size_t i);
// Keeps the student's answer and starts the step's run.
void commit_prediction(App& app, LessonMode& m, const std::string& guess);
// Per frame: pauses at the observed moment, collects the step's figures.
void update_lesson(App& app, LessonMode& m);
// The step's figures and the explanation; `wait`: block until the run is
// done (headless), else false while it is still running.
bool finish_step(App& app, LessonMode& m, bool wait);

// The lesson panel, and the dimming and rings over the other windows.
void draw_lesson_mode(App& app, LessonMode& m);
void draw_lesson_overlay(App& app, LessonMode& m);

// Where each element a lesson may name is drawn this frame, as the ring
// around it (display pixels): the step's highlighted ones first (`ringed`
// true), then the others the store and the charts show.
struct ElementBox {
  std::string id;
  Box ring;
  bool ringed = false;
};
std::vector<ElementBox> element_boxes(const App& app, const LessonMode& m);

// The step's replay (its observe.replay: follow one customer, ui/replay.h)
// started; false when the step asks for none or the run has no such
// request yet. `at_s` >= 0: held that many screen seconds in (headless).
bool start_step_replay(App& app, const LessonMode& m, double at_s = -1);

// Headless (--captures): the predictions of `file`, one a line as clerk
// lesson --answers reads them, one per step that asks (a choice's number, or
// a number in the slider's range); a step past the file's end is not
// predicted. False with `error` (the file and line) on a bad answer.
bool read_answers(const LessonMode& m, const std::string& file, std::vector<std::string>& guesses, std::string& error);
// Headless (--captures): where step `i`'s capture at `moment` ("observe",
// "replay" or "explain") goes, without its extension: DIR/N-K-MOMENT.
std::string capture_base(const LessonMode& m, const std::string& dir, std::size_t i, const char* moment);
// Every file the headless walk may write (the PNGs, and the rings' or the
// replay's .txt beside the observed ones), for the checks before it starts.
std::vector<std::string> capture_files(const LessonMode& m, const std::string& dir);
// Headless: opens step `i`, predicts `guess`, runs to the observed moment
// (the window's end when the step names none), the step's figures collected.
void run_step_headless(App& app, LessonMode& m, std::size_t i, const std::string& guess);
// The rings of a capture, for a test to find them in its pixels: a line per
// element, "ring ID X0 Y0 X1 Y1" for a highlighted one and "other ..." for
// the others, in framebuffer pixels (display pixels times sx, sy);
// "missing ID" for a highlighted element drawn nowhere.
std::string rings_text(const App& app, const LessonMode& m, float sx, float sy);

}  // namespace ui
