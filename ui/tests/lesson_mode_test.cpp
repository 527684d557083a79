// clerk-ui --lesson N as a student plays it, frame by frame without a
// window (issue 16): the step waits for the prediction, then runs (the
// warm-up fast-forwarded), pauses at the observed moment counted in the
// measured window's time, and explains with the figures the terminal's
// logic (models/scenario/lesson.h) computes from the same run.
#include <catch2/catch.hpp>

#include <string>

#include "ui/app.h"
#include "ui/lesson_mode.h"

namespace {
const std::string kLesson = std::string(CLERK_SOURCE_DIR) + "/ui/tests/data/1-warm.toml";
using Phase = ui::LessonMode::Phase;
}  // namespace

TEST_CASE("a guided step waits for the prediction, then pauses at its moment of the measured window") {
  ui::App app;
  std::string error;
  REQUIRE(ui::start_lesson(app, kLesson, error));
  ui::LessonMode& m = *app.guided;
  CHECK(m.phase == Phase::kPredict);
  for (int i = 0; i < 10; ++i) {
    ui::advance(app, 1.0 / 60);
    ui::update_lesson(app, m);
  }
  CHECK(app.a.now() == 0);  // nothing runs before the student has predicted
  ui::commit_prediction(app, m, "50");
  int frames = 0;
  while (m.phase == Phase::kRunning && frames < 100000) {
    ui::advance(app, 1.0 / 60);
    ui::update_lesson(app, m);
    ++frames;
  }
  REQUIRE(m.phase == Phase::kObserve);
  CHECK_FALSE(app.playing);
  REQUIRE(app.a.world->measuring());
  CHECK(app.a.world->window_start() == sim::seconds(1));
  // "at = 0.5s" is the window's 0.5 s, the run's 1.5 s.
  CHECK(app.a.now() == sim::seconds(1) + sim::milliseconds(500));
  CHECK(*app.a.window_time(app.a.now()) == Approx(0.5));
  // Play stays paused there until the student goes on.
  ui::advance(app, 0.1);
  CHECK(app.a.now() == sim::seconds(1) + sim::milliseconds(500));

  REQUIRE(ui::finish_step(app, m, true));
  CHECK(m.phase == Phase::kExplain);
  REQUIRE(m.outcome);
  CHECK(m.outcome->failed == 0);
  CHECK(m.outcome->explain.find('{') == std::string::npos);  // placeholders filled
  CHECK(m.verdict.text.rfind("You predicted 50 %: ", 0) == 0);
  // The verdict is the terminal's, on the same figure.
  CHECK(m.verdict.right == models::guess_is_right(50, m.outcome->number, m.lesson.steps[0].predict.tolerance));
  CHECK(app.stop_at_s < 0);  // Play goes on to the window's end
}

TEST_CASE("a guided lesson that does not load is refused with the loader's message") {
  ui::App app;
  std::string error;
  CHECK_FALSE(ui::start_lesson(app, std::string(CLERK_SOURCE_DIR) + "/tests/data/lessons/bad/1-bad-key.toml", error));
  CHECK(error.find("unknown key") != std::string::npos);
  CHECK_FALSE(ui::start_lesson(app, "99", error));
  CHECK(error.find("no lesson 99") != std::string::npos);
}
