// clerk-ui: the store clerk's queue, live. A Dear ImGui program in the shape
// of ImGui's GLFW + OpenGL3 example: set up, then one loop that polls input,
// advances the simulation within a time budget, draws every window, renders.
// The application owns its state (App); the views draw from it each frame.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/bad_input.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "common/standard_output.h"
#include "ui/app.h"
#include "ui/capture.h"
#include "ui/lesson_mode.h"
#include "ui/frame.h"
#include "ui/frame_stats.h"
#include "ui/options.h"
#include "ui/series_export.h"

namespace {

void glfw_error(int code, const char* what) {
  std::fprintf(stderr, "clerk-ui: GLFW error %d: %s\n", code, common::shown_text(what).c_str());
}

// What the run reads: the scenario's files, and a lesson's with its answers.
std::vector<std::string> inputs_of(const models::Scenario& scenario, const ui::LessonMode* lesson, const std::string& answers) {
  std::vector<std::string> files = scenario.files;
  if (!lesson) return files;
  files.push_back(lesson->lesson.file);
  for (const models::LessonStep& step : lesson->lesson.steps)
    files.insert(files.end(), step.loaded.files.begin(), step.loaded.files.end());
  if (!answers.empty()) files.push_back(answers);
  return files;
}

// Before anything runs: no output is one of the inputs (common::check_not_an_input,
// as clerk run's --json), and each capture of --captures could be written.
// False with the reason on standard error.
bool check_outputs(const ui::Options& opt, const std::vector<std::string>& inputs, const ui::LessonMode* lesson) {
  const char* flag = "--series";
  try {
    common::check_not_an_input(opt.series, inputs);
    flag = "--screenshot";
    common::check_not_an_input(opt.screenshot, inputs);
    flag = "--captures";
    if (lesson && !opt.captures.empty())
      for (const std::string& file : ui::capture_files(*lesson, opt.captures)) {
        common::check_output_path(file);
        common::check_not_an_input(file, inputs);
      }
  } catch (const common::OutputError& e) {
    std::fprintf(stderr, "clerk-ui: %s: %s\n", flag, common::shown_text(e.what()).c_str());
    return false;
  }
  return true;
}

// --at within the run's measured window, which lasts the scenario's
// duration (t = 0 where the warm-up ends), as a lesson's observe.at must be:
// beyond it the run was held at its end without a word (probe 6). False
// with the message (the option, its value, the window's length) on
// standard error, before anything runs or is written.
bool at_within_run(const ui::App& app, double at_s) {
  const double window_s = app.a.scenario.duration_s;
  if (at_s <= window_s) return true;
  std::fprintf(stderr,
               // %.15g: the value as given (probe 7: --at 1.0000000001 read "--at 1: beyond ... 0 to 1").
               "clerk-ui: --at %.15g: beyond the run, whose measured window lasts %.15g s (duration); give --at from 0 to "
               "%.15g\n",
               at_s, window_s, window_s);
  return false;
}

// --replay-at within the replay, which lasts the sum of its stops' screen
// seconds (each 0.6 to 4 s): beyond it the capture showed the replay's end
// without a word. -1: not given. False with the message on standard error.
bool replay_at_within(const ui::Replay& r, double replay_at_s) {
  const double length_s = ui::replay_length(r);
  if (replay_at_s <= length_s) return true;
  std::fprintf(stderr,
               "clerk-ui: --replay-at %.15g: beyond the replay of %s, which lasts %.2f screen seconds (%zu stops); "
               "give --replay-at from 0 to %.2f\n",
               replay_at_s, r.which.c_str(), length_s, r.stops.size(), length_s);
  return false;
}

// --captures' files, all or none (probe 6): held in memory through the walk
// and written together once it is over, as clerk lesson --handout's pages
// (common::OutputSet). A file that cannot be written (a link to /dev/full)
// replaces none and leaves no temporary; a stop signal during the walk ends
// the process before anything is written, and one during the write is held
// by the set (all or none). False with the message on standard error.
bool write_captures(const common::OutputSet& captured, const std::string& dir) {
  try {
    captured.write();
  } catch (const common::OutputError& e) {
    std::fprintf(stderr, "clerk-ui: --captures: %s (none of the lesson's captures was written)\n",
                 common::shown_text(e.what()).c_str());
    return false;
  }
  std::printf("wrote the captures in %s\n", common::shown_text(dir).c_str());
  return true;
}

// The part of the display --screenshot saves: all of it, or the --crop view
// as drawn this frame; nothing when that view was not drawn.
std::optional<ui::Box> shot_box(const ui::App& app, const std::string& crop, ImVec2 display) {
  if (crop.empty()) return ui::Box{ImVec2(0, 0), display};
  const auto it = app.view_boxes.find(crop);
  if (it == app.view_boxes.end() || it->second.w() <= 0 || it->second.h() <= 0) return std::nullopt;
  return it->second;
}

int run(int argc, char** argv) {
  ui::Options opt;
  if (auto status = ui::parse_options(argc, argv, opt)) return *status;

  if (opt.list_scenarios) {
    for (const std::string& f : ui::find_scenarios()) std::printf("%s\n", f.c_str());
    return 0;
  }
  // The model first: a bad scenario is the user's error (2), before any window.
  ui::App app;
  if (!ui::open_scenario(app, opt.scenario, opt.overrides)) {
    std::fprintf(stderr, "clerk-ui: %s\n", common::shown_text(app.error).c_str());
    return 2;
  }
  const std::vector<std::string> scenario_files = app.loaded.files;  // before a lesson opens its own
  if (opt.seed) {
    app.edit_a.seed = app.edit_b.seed = *opt.seed;
    ui::restart_sessions(app, false);
  }
  if (opt.ab) ui::set_ab(app, true);
  app.show_lesson = opt.lesson;
  // --lesson N: the guided lesson; with --captures, walked headless with the predictions of --answers.
  std::vector<std::string> guesses;
  const bool lesson_capture = !opt.captures.empty();
  if (!opt.guided.empty()) {
    std::string error;
    if (!ui::start_lesson(app, opt.guided, error) || !ui::read_answers(*app.guided, opt.answers, guesses, error)) {
      std::fprintf(stderr, "clerk-ui: %s\n", common::shown_text(error).c_str());
      return 2;
    }
    std::error_code ec;
    if (lesson_capture && !std::filesystem::is_directory(opt.captures, ec)) {
      std::fprintf(stderr, "clerk-ui: --captures: '%s' is not a folder\n", common::shown_text(opt.captures).c_str());
      return 2;
    }
  }
  std::vector<std::string> inputs = inputs_of(app.loaded, app.guided.get(), opt.answers);
  inputs.insert(inputs.end(), scenario_files.begin(), scenario_files.end());
  if (!check_outputs(opt, inputs, app.guided.get())) return 2;
  std::uint32_t replay_group = 0;
  if (!opt.replay_group.empty()) {
    std::string error;
    if (!ui::client_group(app.a, opt.replay_group, replay_group, error)) {
      std::fprintf(stderr, "clerk-ui: --replay-group: %s\n", common::shown_text(error).c_str());
      return 2;
    }
  }
  app.tails_first = opt.tails;
  app.heatmap_first = opt.heatmap;
  app.speed = opt.speed;
  app.playing = !opt.paused && !app.guided;  // a lesson's step runs once its prediction is made
  const bool capture = !opt.screenshot.empty() || lesson_capture;
  if (!at_within_run(app, opt.at_s)) return 2;
  // --at counts in the measured window's time (t = 0 where the warm-up ends), as the figures do.
  if (!opt.series.empty()) return ui::write_series(app, opt.series, opt.at_s > 0 ? opt.at_s : -1);
  if (opt.at_s > 0) ui::run_to_window_time(app, opt.at_s);
  if (!opt.replay.empty()) {
    std::string error;
    app.replay.fixed = opt.replay_at_s >= 0;
    app.replay.t = std::max(opt.replay_at_s, 0.0);
    if (!ui::start_replay(app.replay, app.a, replay_group, opt.replay, error)) {
      // The visualizer starts cold where clerk run warms up first: say so
      // where that is why nobody has finished yet.
      const models::StageAggregate* done = app.a.world ? app.a.world->clients().group_stages(replay_group) : nullptr;
      const char* cold = app.cold_by_default && done && done->count() == 0
                             ? " (the visualizer starts cold, where clerk run warms up first: --set warmup=... does the same here)"
                             : "";
      std::fprintf(stderr, "clerk-ui: --replay %s: %s%s\n", opt.replay.c_str(), common::shown_text(error).c_str(), cold);
      return 2;
    }
    if (opt.replay_longest) app.replay.t = ui::replay_midway(app.replay);
    if (!replay_at_within(app.replay, opt.replay_at_s)) return 2;
  }

  // A display that cannot do what was asked (none, no OpenGL 3.0 window,
  // OpenGL older than 3.2) is exit 2, as clerk plot without gnuplot: 1 is
  // only for a lesson's claim that does not hold (probe 5, finding 7).
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::fprintf(stderr, "clerk-ui: cannot open a display (is DISPLAY set? headless: run under Xvfb)\n");
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "clerk-ui: the store clerk", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "clerk-ui: cannot create an OpenGL 3.0 window\n");
    glfwTerminate();
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(opt.bench || capture ? 0 : 1);  // the benchmark measures frames, not the display's refresh

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is tiled, nothing to remember
  ImGui::StyleColorsDark();
  io.FontGlobalScale = opt.font_scale;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  if (!ui::renders_large_meshes(io)) {
    const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    std::fprintf(stderr,
                 "clerk-ui: this display's OpenGL is %s; clerk-ui needs 3.2 or later (its views at the knobs' ends "
                 "draw more than 65,536 vertices in one window, which ImGui's OpenGL renderer draws from 3.2 on)\n",
                 version ? version : "unknown");
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return 2;
  }

  // The headless lesson: the step shown, and whether its explanation (after the observed moment).
  std::size_t shot_step = 0;
  bool shot_explain = false;
  bool shot_replay = false;  // the step's replay (observe.replay), held midway, captured between the two
  int settle = 0, claims_failed = 0;
  common::OutputSet captured;  // every capture of the walk, written together at its end
  if (lesson_capture) ui::run_step_headless(app, *app.guided, 0, guesses[0]);

  ui::FrameStats stats;
  const int warmup = 60;
  int frame = 0;
  int status = 0;
  auto last = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window)) {
    glfwPollEvents();
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (opt.bench && frame > warmup) stats.add(dt * 1000);

    // The simulation: as much as the speed asks and the budget allows.
    const bool measured = opt.bench && frame > warmup;
    auto lap = [&, t = std::chrono::steady_clock::now()](double& sum) mutable {
      const auto n = std::chrono::steady_clock::now();
      if (measured) sum += std::chrono::duration<double, std::milli>(n - t).count();
      t = n;
    };
    if (!capture) ui::advance(app, dt);
    lap(stats.sim_ms);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // A screenshot shows the pointer only where --hover puts it, not wherever the X server's pointer is.
    if (capture) io.MousePos = opt.hover ? ImVec2(opt.hover->first, opt.hover->second) : ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    // Ctrl +/- scale the text, Ctrl 0 resets it (as browsers do).
    if (io.KeyCtrl) {
      float& scale = io.FontGlobalScale;
      if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD)) scale += 0.125f;
      if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT)) scale -= 0.125f;
      if (ImGui::IsKeyPressed(GLFW_KEY_0) || ImGui::IsKeyPressed(GLFW_KEY_KP_0)) scale = 1;
      scale = std::clamp(scale, ui::kFontScaleMin, ui::kFontScaleMax);
    }

    ui::draw_frame(app, static_cast<float>(dt), capture);
    const ImVec2 ds = io.DisplaySize;

    ImGui::Render();
    lap(stats.ui_ms);
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (measured) glFinish();  // so that the render time is the render's, not the swap's
    lap(stats.render_ms);

    // Headless capture: a few frames so that every window has its size, then save and leave.
    if (!opt.screenshot.empty() && frame == 2) {
      const float sx = static_cast<float>(fb_w) / ds.x, sy = static_cast<float>(fb_h) / ds.y;
      if (const std::optional<ui::Box> b = shot_box(app, opt.crop, ds); !b) {
        // parse_options refuses a view that is not drawn (--crop lesson without --lesson).
        std::fprintf(stderr, "clerk-ui: internal error: --crop %s: the view was not drawn; please report this bug with the "
                     "command line and the scenario\n", common::shown_text(opt.crop).c_str());
        status = 3;
      } else {
        std::string error;
        try {
          if (!ui::save_png(opt.screenshot, static_cast<int>(b->min.x * sx), static_cast<int>(b->min.y * sy),
                            static_cast<int>(b->w() * sx), static_cast<int>(b->h() * sy), fb_h, error)) {
            std::fprintf(stderr, "clerk-ui: --screenshot: %s\n", common::shown_text(error).c_str());
            status = 2;  // the display's doing (ui/capture.h)
          }
        } catch (const common::OutputError& e) {  // the path, or a disk that is full: the user's to fix
          std::fprintf(stderr, "clerk-ui: --screenshot: %s\n", common::shown_text(e.what()).c_str());
          status = 2;
        }
      }
      // Where the customer followed stands in the capture (replay.h), for a test to look there.
      if (app.replay.active) std::printf("%s", ui::replay_text(app, sx, sy).c_str());
      glfwSetWindowShouldClose(window, 1);
    }
    // The headless lesson: a few frames so that every window has its size, then save and go on.
    if (lesson_capture && ++settle == 3) {
      settle = 0;
      ui::LessonMode& m = *app.guided;
      const std::string base =
          ui::capture_base(m, opt.captures, shot_step, shot_explain ? "explain" : shot_replay ? "replay" : "observe");
      const std::string shown_base = common::shown_text(base);
      const float sx = static_cast<float>(fb_w) / ds.x, sy = static_cast<float>(fb_h) / ds.y;
      std::string png, error;
      // Held in memory until the walk ends ("made" says so; written by write_captures, all or none): a PNG the
      // display could not give is exit 2 with nothing written. 1 stays the claims'.
      const bool ok = ui::encode_png(0, 0, fb_w, fb_h, fb_h, png, error);
      if (ok) {
        captured.add(base + ".png", std::move(png));
        if (!shot_explain)
          captured.add(base + ".txt", shot_replay ? ui::replay_text(app, sx, sy) : ui::rings_text(app, m, sx, sy));
      }
      if (!ok) {
        std::fprintf(stderr, "clerk-ui: --captures: %s for %s.png\n", common::shown_text(error).c_str(), shown_base.c_str());
        status = 2;
        glfwSetWindowShouldClose(window, 1);
      } else if (!shot_explain && !shot_replay && ui::start_step_replay(app, m, 0)) {
        std::printf("made %s.png\n", shown_base.c_str());
        app.replay.t = ui::replay_midway(app.replay);  // the longest stop, half shown
        shot_replay = true;
      } else if (!shot_explain) {
        std::printf("made %s.png\n", shown_base.c_str());
        if (shot_replay) std::printf("  %s", ui::replay_text(app, sx, sy).c_str());
        app.replay.active = false;
        shot_replay = false;
        ui::finish_step(app, m, true);
        shot_explain = true;
      } else {
        const models::LessonStep& st = m.lesson.steps[shot_step];
        // The lesson's texts come from its file: shown escaped, as every file's text.
        std::printf("made %s.png\nstep %zu: %s\n", shown_base.c_str(), shot_step + 1, common::shown_text(st.title).c_str());
        if (st.predict.given())
          std::printf("  answer: %s\n  %s\n", common::shown_text(models::predict_answer_text(st, *m.outcome)).c_str(),
                      m.verdict.text.empty() ? "(no prediction)" : common::shown_text(m.verdict.text).c_str());
        for (const std::string& c : m.outcome->claims) std::printf("  %s\n", common::shown_text(c).c_str());
        claims_failed += m.outcome->failed;
        if (++shot_step < m.lesson.steps.size()) {
          shot_explain = false;
          ui::run_step_headless(app, m, shot_step, guesses[shot_step]);
        } else {
          std::printf("lesson %d: %s\n", m.lesson.number,
                      claims_failed ? "a claim did not hold for the run" : "every claim held");
          status = write_captures(captured, opt.captures) ? (claims_failed ? 1 : 0) : 2;
          glfwSetWindowShouldClose(window, 1);
        }
      }
      std::fflush(stdout);  // a long walk's progress, seen as it goes (into a pipe or a log too)
    }
    if (opt.bench && frame == warmup + opt.bench_frames) {
      std::printf("clerk-ui --bench %s: %zu connections, %u workers, speed %g, sim reached %.2f s\n%s\n",
                  common::shown_text(app.a.scenario.name).c_str(), static_cast<std::size_t>(app.a.world->clients().connections_opened()),
                  app.a.world->server().workers(), static_cast<double>(opt.speed), sim::to_seconds(app.a.now()),
                  stats.summary().c_str());
      std::printf("renderer: %s, %dx%d, last frame %d vertices in %d draw lists\n",
                  reinterpret_cast<const char*>(glGetString(GL_RENDERER)), fb_w, fb_h, ImGui::GetDrawData()->TotalVtxCount,
                  ImGui::GetDrawData()->CmdListsCount);
      std::printf("model kept up with %.0f%% of the asked speed\n", static_cast<double>(app.achieved) * 100);
      glfwSetWindowShouldClose(window, 1);
    }
    glfwSwapBuffers(window);
    lap(stats.swap_ms);
    ++frame;
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}

}  // namespace

// The last line of defence, as clerk's common::guarded: bad input that got
// this far is exit 2 with its message; anything else is a bug in clerk-ui,
// said so (exit 3), never an abort.
int main(int argc, char** argv) {
  int status = 3;
  try {
    status = run(argc, argv);
  } catch (const common::BadInput& e) {
    std::fprintf(stderr, "clerk-ui: %s\n", common::shown_text(e.what()).c_str());
    status = 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "clerk-ui: out of memory; please report this bug with the command line and the scenario\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clerk-ui: internal error: %s; please report this bug with the command line and the scenario\n",
                 common::shown_text(e.what()).c_str());
  } catch (...) {
    std::fprintf(stderr, "clerk-ui: internal error; please report this bug with the command line and the scenario\n");
  }
  // A report lost on its way out (standard output onto a full disk) is no
  // success: exit 2 with a message, as clerk's commands do.
  return common::flush_standard_output(status, "clerk-ui: cannot write to standard output");
}
