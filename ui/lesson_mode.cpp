#include "ui/lesson_mode.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "common/bad_input.h"
#include "common/input_file.h"
#include "common/number_text.h"
#include "common/shown_text.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_error.h"
#include "ui/dim.h"
#include "ui/layout.h"
#include "ui/palette.h"

namespace ui {

namespace {

using Phase = LessonMode::Phase;

const models::LessonStep& current(const LessonMode& m) { return m.lesson.steps[m.step]; }

// A line per question: a lesson's answers are a few hundred bytes (as clerk lesson's limit).
constexpr std::uint64_t kMaxAnswersBytes = 1u << 20;

// The step's figures, as clerk lesson gets them: the scenario as written, run whole.
nlohmann::ordered_json run_step(const models::Scenario& sc) {
  nlohmann::ordered_json json = engines::run_scenario_json(sc, engines::as_written(sc));
  json.erase("wall_s");
  return json;
}

std::string lessons_dir() {
  std::error_code ec;
  if (std::filesystem::is_directory("lessons", ec)) return "lessons";
  return std::string(CLERK_SOURCE_DIR) + "/lessons";
}

// The run's figures of the step, once its run is done: the answer, the
// filled texts and the verdict on the student's guess.
bool collect(LessonMode& m, bool wait) {
  if (m.outcome) return true;
  if (!m.pending.valid()) return false;
  if (!wait && m.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
  try {
    m.jsons[m.step] = m.pending.get();
  } catch (const std::exception& e) {  // the model refused the run: said as a claim that failed
    m.outcome = models::LessonOutcome{};
    m.outcome->failed = 1;
    m.outcome->claims.push_back(std::string("FAIL  the step's run did not complete: ") + e.what());
    return true;
  }
  models::LessonRuns runs;
  for (std::size_t k = 0; k <= m.step; ++k) runs.runs.push_back(&m.jsons[k]);
  runs.current = m.step;
  m.outcome = models::evaluate_step(current(m), runs);
  m.verdict = models::judge_prediction(current(m), *m.outcome, m.guesses[m.step]);
  return true;
}

// The instant to pause at, in the run's time: the observed moment of the
// measured window, or its end when the step names none.
double pause_at(const App& app, const LessonMode& m) {
  const double at = current(m).observe.at_s;
  return std::isnan(at) ? sim::to_seconds(app.a.end()) : sim::to_seconds(app.a.run_time(at));
}

std::string kind_of(const std::string& id) { return id.substr(0, id.find('.')); }
std::string rest_of(const std::string& id) {
  const std::size_t dot = id.find('.');
  return dot == std::string::npos ? "" : id.substr(dot + 1);
}

// Where element `id` is drawn (display pixels); nullopt when not on screen.
std::optional<Box> where(const App& app, const LessonMode& m, const std::string& id) {
  const StoreLayout& L = app.anim_a.layout;
  const std::string kind = kind_of(id), rest = rest_of(id);
  if (kind == "clerk" || kind == "queue" || kind == "team") {
    const auto n = static_cast<std::size_t>(std::strtoul(rest.c_str(), nullptr, 10));
    if (n >= L.counters.size()) return std::nullopt;
    const Counter& c = L.counters[n];
    if (kind == "queue") return c.lane;
    if (kind == "team") return c.team;
    return Box{ImVec2(c.desk.min.x, c.desk.min.y), ImVec2(c.cell.at(0.70f, 0).x, c.desk.max.y)};  // the desk and the clerk at it
  }
  if (kind == "shelves") return L.shelves;
  if (kind == "warehouse") return L.warehouse;
  if (kind == "door") return L.door;
  if (kind == "dock") return L.dock;
  if (kind == "series") {
    const auto it = app.chart_boxes.find("lat");  // the group's latency, the figure lessons ask about
    if (it != app.chart_boxes.end()) return it->second;
    return std::nullopt;
  }
  if (kind == "figure") {
    const auto it = m.figures.find(id);
    if (it != m.figures.end()) return it->second;
  }
  return std::nullopt;
}

// The ring's rectangle: a little outside the element, inside the display.
Box ring_of(Box b) {
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  constexpr float out = 5, edge = 3;
  return Box{ImVec2(std::max(b.min.x - out, edge), std::max(b.min.y - out, edge)),
             ImVec2(std::min(b.max.x + out, ds.x - edge), std::min(b.max.y + out, ds.y - edge))};
}

void heading(const char* text) { wrapped_text(ImVec4(1.0f, 0.85f, 0.45f, 1), text); }

void predict_widgets(App& app, LessonMode& m) {
  const models::LessonPredict& p = current(m).predict;
  if (!p.choices.empty()) {
    for (std::size_t i = 0; i < p.choices.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::RadioButton("##choice", m.pick == static_cast<int>(i))) m.pick = static_cast<int>(i);
      ImGui::SameLine();
      ImGui::TextWrapped("%zu) %s", i + 1, p.choices[i].text.c_str());
      ImGui::PopID();
    }
  } else {
    char format[64];
    std::snprintf(format, sizeof format, "%%.3g %s", p.unit.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##guess", &m.number, static_cast<float>(p.slider_min), static_cast<float>(p.slider_max), format))
      m.number_set = true;
  }
  const bool answered = p.choices.empty() ? m.number_set : m.pick >= 0;
  ImGui::BeginDisabled(!answered);
  if (ImGui::Button("Run the step")) {
    char guess[64];
    if (p.choices.empty())
      std::snprintf(guess, sizeof guess, "%.3g", static_cast<double>(m.number));
    else
      std::snprintf(guess, sizeof guess, "%d", m.pick + 1);
    commit_prediction(app, m, guess);
  }
  ImGui::EndDisabled();
  same_line_if_fits(button_width("run without predicting"));
  if (ImGui::SmallButton("run without predicting")) commit_prediction(app, m, "");
}

std::string guess_words(const LessonMode& m) {
  const models::LessonStep& st = current(m);
  const std::string& g = m.guesses[m.step];
  if (g.empty()) return "(none)";
  if (!st.predict.choices.empty()) {
    const std::size_t k = std::stoul(g);
    return g + ") " + (k >= 1 && k <= st.predict.choices.size() ? st.predict.choices[k - 1].text : "");
  }
  return g + " " + st.predict.unit;
}

void running_status(App& app, const LessonMode& m) {
  const models::LessonStep& st = current(m);
  if (!app.a.world) return;
  if (!app.a.world->measuring()) {
    wrapped_disabled("Warming up, as clerk run does: the caches settle before the measured window (fast-forwarded). "
                     "t = 0 is where the measured window begins.");
    return;
  }
  const double t = app.a.window_time(app.a.now()).value_or(0);
  char text[128];
  if (std::isnan(st.observe.at_s))
    std::snprintf(text, sizeof text, "t = %.2f s of the measured window; running to its end (%g s).", t, st.loaded.duration_s);
  else
    std::snprintf(text, sizeof text, "t = %.2f s of the measured window; pausing at t = %g s to look.", t, st.observe.at_s);
  wrapped_disabled(text);
}

void observe_section(LessonMode& m) {
  const models::LessonStep& st = current(m);
  const models::LessonObserve& o = st.observe;
  if (o.text.empty() && o.highlight.empty()) return;
  char title[96];
  if (std::isnan(o.at_s))
    std::snprintf(title, sizeof title, "Observe:");
  else
    std::snprintf(title, sizeof title, "Observe, at t = %g s of the measured window:", o.at_s);
  wrapped_text(ImGui::ColorConvertU32ToFloat4(kRing), title);
  if (m.outcome)
    ImGui::TextWrapped("%s", m.outcome->observe.c_str());
  else
    wrapped_disabled("(the step's figures are being computed: the same run as clerk lesson's, in the background)");
  if (o.highlight.empty()) return;
  ImGui::TextUnformatted("Look at (ringed):");
  for (const std::string& id : o.highlight) {
    ImGui::Bullet();
    if (kind_of(id) != "figure") {
      ImGui::TextWrapped("%s", models::highlight_words(id).c_str());
      continue;
    }
    // One number: shown here, in the panel, and ringed.
    const std::string metric = rest_of(id);
    std::string value = "...";
    if (m.outcome) {
      models::Expectation e;
      e.metric = metric;
      models::LessonRuns runs;
      for (std::size_t k = 0; k <= m.step; ++k) runs.runs.push_back(&m.jsons[k]);
      runs.current = m.step;
      const std::optional<double> v = models::lesson_metric(runs, e);
      value = v ? models::format_figure(*v, "") : "n/a";
    }
    ImGui::TextWrapped("%s = %s", metric.c_str(), value.c_str());
    m.figures[id] = Box{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  }
}

void explain_section(App& app, LessonMode& m) {
  const models::LessonStep& st = current(m);
  if (!m.outcome) {
    wrapped_disabled("(the step's run is finishing...)");
    return;
  }
  const models::LessonOutcome& o = *m.outcome;
  if (st.predict.given()) {
    ImGui::TextWrapped("Answer: %s", models::predict_answer_text(st, o).c_str());
    if (!m.verdict.text.empty())
      wrapped_text(m.verdict.right ? ImVec4(0.45f, 0.9f, 0.5f, 1) : ImVec4(1.0f, 0.6f, 0.3f, 1), m.verdict.text.c_str());
  }
  heading("Why");
  ImGui::TextWrapped("%s", o.explain.c_str());
  if (ImGui::TreeNode("Checked against the run")) {
    for (const std::string& c : o.claims) wrapped_text(c.rfind("ok", 0) == 0 ? ImVec4(0.6f, 0.8f, 0.6f, 1) : ImVec4(1, 0.4f, 0.3f, 1), c.c_str());
    ImGui::TreePop();
  }
  if (st.exercise) {
    heading("Exercise");
    ImGui::TextWrapped("%s", st.exercise->task.c_str());
    std::string keys;
    for (const std::string& k : st.exercise->keys) keys += (keys.empty() ? "" : ", ") + k;
    ImGui::TextWrapped("You may change: %s. Try it with the settings above (Restart at t=0), or in the terminal: clerk lesson %d.",
                       keys.c_str(), m.lesson.number);
  }
  const bool last = m.step + 1 == m.lesson.steps.size();
  if (ImGui::Button(last ? "Finish the lesson" : "Next step")) {
    if (last)
      m.phase = Phase::kDone;
    else
      enter_step(app, m, m.step + 1);
  }
}

void done_section(const LessonMode& m) {
  char text[160];
  std::snprintf(text, sizeof text, "Lesson %d done: %s", m.lesson.number, m.lesson.title.c_str());
  heading(text);
  for (std::size_t i = 0; i < m.lesson.steps.size(); ++i)
    ImGui::BulletText("step %zu: %s", i + 1, m.lesson.steps[i].title.c_str());
  ImGui::TextWrapped("The handout, with the answers for the teacher: docs/lessons/. In the terminal: clerk lesson %d.",
                     m.lesson.number);
}

}  // namespace

bool start_lesson(App& app, const std::string& which, std::string& error) {
  std::string file = which;
  auto m = std::make_shared<LessonMode>();
  try {
    if (!which.empty() && which.find_first_not_of("0123456789") == std::string::npos) {
      file = which.size() <= 3 ? models::find_lesson(lessons_dir(), std::stoi(which)) : "";
      if (file.empty()) {
        error = "--lesson: no lesson " + which + " in " + common::shown_text(lessons_dir()) + " (clerk lesson --list)";
        return false;
      }
    }
    m->lesson = models::load_lesson(file);
  } catch (const common::BadInput& e) {  // a ConfigError, or an unreadable file
    error = common::shown_text(e.what());
    return false;
  } catch (const std::filesystem::filesystem_error& e) {
    // Listing the lessons' folder: an entry that cannot be looked at (a
    // symbolic link loop, no permission) is the user's to fix, not a crash.
    error = "--lesson " + common::shown_text(which) + ": cannot list the lessons in '" + common::shown_text(lessons_dir()) +
            "': '" + common::shown_text(e.path1().string()) + "': " + e.code().message();
    return false;
  }
  m->guesses.assign(m->lesson.steps.size(), "");
  m->jsons.assign(m->lesson.steps.size(), nlohmann::ordered_json());
  app.guided = m;
  app.show_lesson = true;
  enter_step(app, *m, 0);
  if (!app.error.empty()) {
    error = app.error;
    return false;
  }
  return true;
}

void enter_step(App& app, LessonMode& m, std::size_t i) {
  m.step = i;
  app.replay.active = false;
  m.phase = Phase::kPredict;
  m.outcome.reset();
  m.verdict = {};
  m.pick = -1;
  const models::LessonPredict& p = current(m).predict;
  m.number = static_cast<float>(p.slider_min);
  m.number_set = false;
  // As clerk run and clerk lesson run it: the scenario's own warm-up, not the visualizer's cold start.
  open_scenario(app, current(m).scenario, current(m).overrides, true);
  app.playing = false;
  app.to_window = false;
  app.stop_at_s = -1;
}

void commit_prediction(App& app, LessonMode& m, const std::string& guess) {
  m.guesses[m.step] = guess;
  m.pending = std::async(std::launch::async, run_step, current(m).loaded);
  m.phase = Phase::kRunning;
  app.to_window = true;  // the warm-up fast-forwarded, then the window at the chosen speed
  app.playing = true;
  app.stop_at_s = -1;    // set once the window's start is known
}

void update_lesson(App& app, LessonMode& m) {
  if (m.phase == Phase::kRunning || m.phase == Phase::kObserve) collect(m, false);
  if (m.phase != Phase::kRunning || !app.a.world || !app.a.world->measuring()) return;
  const double stop = pause_at(app, m);
  app.stop_at_s = stop;
  if (sim::to_seconds(app.a.now()) + 1e-9 >= stop || app.a.now() >= app.a.end()) {
    app.playing = false;
    m.phase = Phase::kObserve;
  }
}

bool finish_step(App& app, LessonMode& m, bool wait) {
  if (!collect(m, wait)) return false;
  m.phase = Phase::kExplain;
  app.stop_at_s = -1;  // Play goes on to the window's end
  return true;
}

void draw_lesson_mode(App& app, LessonMode& m) {
  m.figures.clear();
  if (m.phase == Phase::kDone) {
    done_section(m);
    return;
  }
  const models::LessonStep& st = current(m);
  char text[256];
  std::snprintf(text, sizeof text, "Lesson %d: %s", m.lesson.number, m.lesson.title.c_str());
  ImGui::TextWrapped("%s", text);
  std::snprintf(text, sizeof text, "Step %zu of %zu: %s", m.step + 1, m.lesson.steps.size(), st.title.c_str());
  heading(text);
  if (m.phase == Phase::kPredict) {
    if (m.step == 0) {
      ImGui::TextWrapped("%s", m.lesson.summary.c_str());
      ImGui::Separator();
    }
    ImGui::TextWrapped("%s", st.setup.c_str());
  } else if (ImGui::TreeNode("What you are looking at")) {
    ImGui::TextWrapped("%s", st.setup.c_str());
    ImGui::TreePop();
  }
  ImGui::Separator();
  if (st.predict.given()) {
    heading("Predict, before the run");
    ImGui::TextWrapped("%s", st.predict.question.c_str());
    if (m.phase == Phase::kPredict)
      predict_widgets(app, m);
    else
      ImGui::TextWrapped("Your prediction: %s", guess_words(m).c_str());
  } else if (m.phase == Phase::kPredict && ImGui::Button("Run the step")) {
    commit_prediction(app, m, "");
  }
  if (m.phase == Phase::kRunning) running_status(app, m);
  if (m.phase == Phase::kObserve || m.phase == Phase::kExplain) {
    ImGui::Separator();
    observe_section(m);
  }
  if ((m.phase == Phase::kObserve || m.phase == Phase::kExplain) && !st.observe.replay.empty() && !app.replay.active) {
    char label[160];
    std::snprintf(label, sizeof label, "Follow one customer: the %s request%s%s", st.observe.replay.c_str(),
                  st.observe.replay_group.empty() ? "" : " of ", st.observe.replay_group.c_str());
    if (ImGui::Button(label)) start_step_replay(app, m);
  }
  if (m.phase == Phase::kObserve) {
    if (ImGui::Button("Continue: the answer and why")) {
      m.phase = Phase::kExplain;
      app.replay.active = false;
    }
  }
  if (m.phase == Phase::kExplain) {
    if (!m.outcome) collect(m, false);
    app.stop_at_s = -1;
    ImGui::Separator();
    explain_section(app, m);
  }
}

bool start_step_replay(App& app, const LessonMode& m, double at_s) {
  const models::LessonObserve& o = current(m).observe;
  if (o.replay.empty() || !app.a.world) return false;
  std::uint32_t group = 0;
  std::string error;
  if (!o.replay_group.empty() && !client_group(app.a, o.replay_group, group, error)) {
    app.error = "observe.replay_group: " + error;  // the loader refuses it; a run of another scenario would not have it
    return false;
  }
  app.replay.fixed = at_s >= 0;
  app.replay.t = std::max(at_s, 0.0);
  if (start_replay(app.replay, app.a, group, o.replay, error)) return true;
  app.error = error;
  return false;
}

std::vector<ElementBox> element_boxes(const App& app, const LessonMode& m) {
  std::vector<ElementBox> out;
  const std::vector<std::string>& lit = current(m).observe.highlight;
  for (const std::string& id : lit)
    if (const std::optional<Box> b = where(app, m, id)) out.push_back({id, ring_of(*b), true});
  std::vector<std::string> others = {"shelves", "warehouse", "door", "dock"};
  const std::size_t workers = std::min<std::size_t>(app.anim_a.layout.counters.size(), 8);
  for (std::size_t w = 0; w < workers; ++w) {
    others.push_back("clerk." + std::to_string(w));
    others.push_back("queue." + std::to_string(w));
    if (app.a.world && app.a.recorder.has_pools()) others.push_back("team." + std::to_string(w));
  }
  for (const std::string& id : others)
    if (std::find(lit.begin(), lit.end(), id) == lit.end())
      if (const std::optional<Box> b = where(app, m, id)) out.push_back({id, ring_of(*b), false});
  return out;
}

void draw_lesson_overlay(App& app, LessonMode& m) {
  if (m.phase != Phase::kObserve) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  std::vector<Box> holes;
  const auto panel = app.view_boxes.find("lesson");
  if (panel != app.view_boxes.end()) holes.push_back(panel->second);
  const std::vector<ElementBox> boxes = element_boxes(app, m);
  for (const ElementBox& e : boxes)
    if (e.ringed) holes.push_back(e.ring);
  // What does not matter now, dimmed; what does, ringed and named.
  dim_outside(dl, holes, IM_COL32(0, 0, 0, 150));
  // The names first, the rings over them: a name never hides a ring.
  std::vector<Box> named;  // the names placed so far: one never covers another
  for (const ElementBox& e : boxes) {
    if (!e.ringed || kind_of(e.id) == "figure") continue;  // a figure is named in the panel beside it
    const std::string words = models::highlight_words(e.id);
    const ImVec2 size = ImGui::CalcTextSize(words.c_str());
    // Above the ring, or inside its top when there is no room above; a line
    // higher (or lower, inside) while it would cover a name already placed.
    const bool above = e.ring.min.y - size.y - 4 >= 0;
    float y = above ? e.ring.min.y - size.y - 4 : e.ring.min.y + 5;
    const float x = std::min(e.ring.min.x + 4, ImGui::GetIO().DisplaySize.x - size.x - 4);
    const auto covers = [&](float top) {
      const Box b{ImVec2(x - 3, top - 1), ImVec2(x + size.x + 3, top + size.y + 1)};
      return std::any_of(named.begin(), named.end(), [&](const Box& o) {
        return b.min.x < o.max.x && o.min.x < b.max.x && b.min.y < o.max.y && o.min.y < b.max.y;
      });
    };
    for (int tries = 0; covers(y) && tries < 8; ++tries) y += (above && y - size.y - 2 >= 0 ? -1.0f : 1.0f) * (size.y + 2);
    named.push_back(Box{ImVec2(x - 3, y - 1), ImVec2(x + size.x + 3, y + size.y + 1)});
    const ImVec2 at(x, y);
    dl->AddRectFilled(ImVec2(at.x - 3, at.y - 1), ImVec2(at.x + size.x + 3, at.y + size.y + 1), IM_COL32(0, 0, 0, 220), 3);
    dl->AddText(at, kRing, words.c_str());
  }
  for (const ElementBox& e : boxes)
    if (e.ringed) dl->AddRect(e.ring.min, e.ring.max, kRing, 6, 0, 3);
}

bool read_answers(const LessonMode& m, const std::string& file, std::vector<std::string>& guesses, std::string& error) {
  guesses.assign(m.lesson.steps.size(), "");
  if (file.empty()) return true;
  // Read whole as clerk lesson --answers reads it (common/input_file.h):
  // a FIFO, /dev/zero or a folder is refused at once, never waited on.
  std::istringstream in;
  try {
    in.str(common::read_input_file(file, kMaxAnswersBytes));
  } catch (const common::InputFileError& e) {
    error = "--answers: '" + common::shown_text(file) + "' " + e.what();
    return false;
  }
  int line_no = 0;
  for (std::size_t i = 0; i < m.lesson.steps.size(); ++i) {
    const models::LessonPredict& p = m.lesson.steps[i].predict;
    std::string line;
    if (!p.given()) continue;
    if (!std::getline(in, line)) break;
    ++line_no;
    // Decimal, all of the line, as clerk lesson --answers reads it
    // (common/number_text.h: strtod took "0x10" as 16).
    const std::optional<double> read = common::number_text<double>(line);
    const bool number = read.has_value();
    const double v = read.value_or(0);
    const bool ok = p.choices.empty() ? number && v >= p.slider_min && v <= p.slider_max
                                      : number && v == std::floor(v) && v >= 1 && v <= static_cast<double>(p.choices.size());
    if (!ok) {
      char why[160];
      if (p.choices.empty())
        std::snprintf(why, sizeof why, "step %zu wants a number from %g to %g", i + 1, p.slider_min, p.slider_max);
      else
        std::snprintf(why, sizeof why, "step %zu wants a choice from 1 to %zu", i + 1, p.choices.size());
      error = "--answers: " + common::shown_text(file) + ":" + std::to_string(line_no) + ": '" + common::shown_text(line) +
              "': " + why;
      return false;
    }
    guesses[i] = line;
  }
  return true;
}

std::string capture_base(const LessonMode& m, const std::string& dir, std::size_t i, const char* moment) {
  return dir + "/" + std::to_string(m.lesson.number) + "-" + std::to_string(i + 1) + "-" + moment;
}

std::vector<std::string> capture_files(const LessonMode& m, const std::string& dir) {
  std::vector<std::string> files;
  for (std::size_t i = 0; i < m.lesson.steps.size(); ++i) {
    for (const char* moment : {"observe", "replay"}) {
      if (std::string(moment) == "replay" && m.lesson.steps[i].observe.replay.empty()) continue;
      files.push_back(capture_base(m, dir, i, moment) + ".png");
      files.push_back(capture_base(m, dir, i, moment) + ".txt");
    }
    files.push_back(capture_base(m, dir, i, "explain") + ".png");
  }
  return files;
}

void run_step_headless(App& app, LessonMode& m, std::size_t i, const std::string& guess) {
  enter_step(app, m, i);
  commit_prediction(app, m, guess);
  const double at = current(m).observe.at_s;
  if (std::isnan(at)) {
    run_to_window(app);
    run_to(app, sim::to_seconds(app.a.end()));
  } else {
    run_to_window_time(app, at);
  }
  app.playing = false;
  m.phase = Phase::kObserve;
  collect(m, true);
}

std::string rings_text(const App& app, const LessonMode& m, float sx, float sy) {
  std::string out;
  char line[256];
  const std::vector<ElementBox> boxes = element_boxes(app, m);
  for (const std::string& id : current(m).observe.highlight)
    if (std::none_of(boxes.begin(), boxes.end(), [&](const ElementBox& e) { return e.ringed && e.id == id; }))
      out += "missing " + id + "\n";  // highlighted, but drawn nowhere: the test fails on it
  for (const ElementBox& e : boxes) {
    std::snprintf(line, sizeof line, "%s %s %.0f %.0f %.0f %.0f\n", e.ringed ? "ring" : "other", e.id.c_str(),
                  static_cast<double>(e.ring.min.x * sx), static_cast<double>(e.ring.min.y * sy),
                  static_cast<double>(e.ring.max.x * sx), static_cast<double>(e.ring.max.y * sy));
    out += line;
  }
  return out;
}

}  // namespace ui
