// libFuzzer target: the lesson loader (models/scenario/lesson.h).
//
// The input is a lesson text, written to ROOT/fuzz/1-fuzz.toml in the
// scenario sandbox (fuzz/scenario_sandbox.h), so that a step's
// `scenario = "../local/blocking.toml"` reads the committed scenario; the
// seeds are the committed lessons with their scenario paths made relative
// to there.
//
// Contract on every input: load_lesson() returns a lesson or throws a
// models::ConfigError naming a file, with a message (anything else thrown is
// a finding). A lesson it returns has its number (1), at least one step, and
// every step has a scenario that loaded (fuzz::check_loaded) and at least
// one claim ([[expect]]); a multiple-choice prediction has at least two
// choices, each with a metric; a number's slider is a finite rising range.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <typeinfo>

#include <fmt/format.h>

#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "models/scenario/config_error.h"
#include "models/scenario/lesson.h"

namespace {

void check_lesson(const models::Lesson& l) {
  if (l.number != 1) fuzz::breach(fmt::format("lesson number {} (the file is 1-fuzz.toml)", l.number));
  if (l.steps.empty()) fuzz::breach("a lesson with no step loaded");
  for (const models::LessonStep& s : l.steps) {
    if (s.scenario.empty()) fuzz::breach("a step with no scenario loaded");
    fuzz::check_loaded(s.loaded);
    if (s.expect.empty()) fuzz::breach("a step with no [[expect]] loaded");
    if (s.predict.choices.size() == 1) fuzz::breach("a multiple-choice prediction with one choice");
    for (const models::LessonChoice& c : s.predict.choices)
      if (c.when.metric.empty()) fuzz::breach("a choice with no metric");
    const models::LessonPredict& p = s.predict;
    if (p.given() && p.choices.empty() &&
        !(std::isfinite(p.slider_min) && std::isfinite(p.slider_max) && p.slider_min < p.slider_max))
      fuzz::breach(fmt::format("a number prediction's slider [{}, {}]", p.slider_min, p.slider_max));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path =
      fuzz::sandbox().write_named("1-fuzz.toml", std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    check_lesson(models::load_lesson(path));
  } catch (const models::ConfigError& e) {
    fuzz::check_config_error(e, e.file());
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("load_lesson threw {} (not a ConfigError): {}", typeid(e).name(), e.what()));
  } catch (...) {
    fuzz::breach("load_lesson threw something that is not a std::exception");
  }
  return 0;
}
