// The pure parts of a lesson (models/scenario/lesson.h): figures as the text
// shows them, placeholders filled from runs' JSON, the one choice that holds,
// a guess within its tolerance.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "models/scenario/lesson.h"

namespace {

using models::Expectation;
using models::LessonRuns;

nlohmann::ordered_json run(double p50, double tasks) {
  return {{"clients", {{"hot", {{"latency_raw_s", {{"p50", p50}}}}}}}, {"server", {{"thread_pool", {{"tasks", tasks}}}}}};
}

Expectation when(const std::string& metric, double lo, double hi, const std::string& relative_to = "") {
  Expectation e;
  e.metric = metric;
  e.min = lo;
  e.max = hi;
  e.relative_to = relative_to;
  return e;
}

}  // namespace

TEST_CASE("lesson figures: each format as the text shows it") {
  CHECK(models::format_figure(0.02873, "ms") == "28.7 ms");
  CHECK(models::format_figure(0.1813, "ms") == "181 ms");
  CHECK(models::format_figure(0.9053, "%") == "91%");
  CHECK(models::format_figure(0.0481, "%") == "4.8%");
  // Short of all is never shown as all.
  CHECK(models::format_figure(0.996, "%") == "99.6%");
  CHECK(models::format_figure(0.9996, "%") == "99.96%");
  CHECK(models::format_figure(0.99996, "%") == "99.996%");
  CHECK(models::format_figure(0.9999999, "%") == "99.999%");
  CHECK(models::format_figure(-0.996, "%") == "-99.6%");
  CHECK(models::format_figure(1.0, "%") == "100%");
  CHECK(models::format_figure(1.004, "%") == "100.4%");
  CHECK(models::format_figure(10940, "int") == "10,940");
  CHECK(models::format_figure(1234567, "int") == "1,234,567");
  CHECK(models::format_figure(0.09085, "x") == "0.091 times");
  CHECK(models::format_figure(9.8443, "") == "9.84");
  CHECK(models::format_figure(22468, "") == "22,468");
}

TEST_CASE("lesson placeholders: this step's run, an earlier step's, a ratio, braces") {
  const nlohmann::ordered_json one = run(0.200, 0), two = run(0.020, 5000);
  LessonRuns runs;
  runs.runs = {&one, &two};
  runs.current = 1;
  CHECK(models::fill_placeholders("{clients.hot.latency_raw_s.p50|ms} against {steps.1.clients.hot.latency_raw_s.p50|ms}",
                                  runs) == "20 ms against 200 ms");
  CHECK(models::fill_placeholders("{clients.hot.latency_raw_s.p50 / steps.1.clients.hot.latency_raw_s.p50|x}", runs) ==
        "0.1 times");
  CHECK(models::fill_placeholders("{{not a placeholder}} {server.thread_pool.tasks|int}", runs) ==
        "{not a placeholder} 5,000");
  CHECK_THROWS_AS(models::fill_placeholders("{server.nothing}", runs), std::out_of_range);
}

TEST_CASE("lesson placeholders: a null figure or a ratio over 0 throws, naming the placeholder") {
  nlohmann::ordered_json one = run(0.200, 0), two = run(0.020, 5000);
  two["server"]["thread_pool"]["tasks"] = nullptr;
  LessonRuns runs;
  runs.runs = {&one, &two};
  runs.current = 1;
  CHECK_THROWS_WITH(models::fill_placeholders("{clients.hot.latency_raw_s.p50 / steps.1.server.thread_pool.tasks}", runs),
                    "placeholder {clients.hot.latency_raw_s.p50 / steps.1.server.thread_pool.tasks}: the ratio's base "
                    "'steps.1.server.thread_pool.tasks' is 0");
  CHECK_THROWS_WITH(models::fill_placeholders("{server.thread_pool.tasks|int}", runs),
                    "placeholder {server.thread_pool.tasks}: the run has no figure 'server.thread_pool.tasks' (null)");
}

TEST_CASE("lesson answers: the one choice that holds, relative to an earlier step") {
  const nlohmann::ordered_json one = run(0.200, 0), two = run(0.020, 5000);
  LessonRuns runs;
  runs.runs = {&one, &two};
  runs.current = 1;
  models::LessonPredict p;
  p.question = "?";
  p.choices = {{"much less", when("clients.hot.latency_raw_s.p50", -INFINITY, 0.5, "1")},
               {"about the same", when("clients.hot.latency_raw_s.p50", 0.5, 1.5, "1")}};
  REQUIRE(models::answer_choice(runs, p).has_value());
  CHECK(*models::answer_choice(runs, p) == 0);
  // Two choices that both hold: no answer (the lesson's check fails).
  p.choices[1].when.min = 0;
  CHECK_FALSE(models::answer_choice(runs, p).has_value());
  // A step not run yet: nothing holds.
  runs.runs = {nullptr, &two};
  CHECK_FALSE(models::holds(runs, p.choices[0].when));
}

TEST_CASE("lesson guesses: within the relative tolerance") {
  CHECK(models::guess_is_right(30, 28.7, 0.5));
  CHECK(models::guess_is_right(43, 28.7, 0.5));
  CHECK_FALSE(models::guess_is_right(5, 28.7, 0.5));
  CHECK_FALSE(models::guess_is_right(90, 97.9, 0.05));
}

TEST_CASE("lesson expressions: Little's law as a claim, products and quotients before sums") {
  // A closed loop of 16 connections served 40 requests/s with a mean latency
  // of 0.4 s: requests_per_s * latency / connections = 1 (Little's law).
  const nlohmann::ordered_json one = {
      {"clients", {{"g", {{"connections", 16}, {"requests_per_s", 40.0}, {"latency_raw_s", {{"mean", 0.4}}}}}}},
      {"server", {{"thread_pool", {{"sleeping_frac", 0.75}, {"threads", 8}}}}}};
  const nlohmann::ordered_json two = {
      {"clients", {{"g", {{"connections", 16}, {"requests_per_s", 20.0}, {"latency_raw_s", {{"mean", 0.8}}}}}}},
      {"server", {{"thread_pool", {{"sleeping_frac", 0.5}, {"threads", 8}}}}}};
  LessonRuns runs;
  runs.runs = {&one, &two};
  runs.current = 0;
  const std::string little = "clients.g.requests_per_s * clients.g.latency_raw_s.mean / clients.g.connections";
  CHECK(models::holds(runs, when(little, 0.99, 1.01)));
  CHECK_FALSE(models::holds(runs, when(little, 1.1, 2)));
  // Precedence: 8 * 1 - 0.75 is (8 * 1) - 0.75; 8 - 8 * 0.75 is 8 - (8 * 0.75), the busy threads.
  CHECK(models::fill_placeholders("{server.thread_pool.threads * 1 - server.thread_pool.sleeping_frac}", runs) ==
        "7.25");
  CHECK(models::fill_placeholders("{server.thread_pool.threads - server.thread_pool.threads * "
                                  "server.thread_pool.sleeping_frac}",
                                  runs) == "2");
  CHECK(models::fill_placeholders("{clients.g.connections / clients.g.requests_per_s|ms}", runs) == "400 ms");
  // Parentheses: M/M/1's mean queue rho^2 / (1 - rho) at rho = 0.25 is 1/12.
  CHECK(models::fill_placeholders("{(1 - server.thread_pool.sleeping_frac) * (1 - server.thread_pool.sleeping_frac) / "
                                  "(1 - (1 - server.thread_pool.sleeping_frac))}",
                                  runs) == "0.0833");
  // relative_to: the whole expression at the base step (2 busy threads, then 4).
  runs.current = 1;
  const std::string busy = "server.thread_pool.threads - server.thread_pool.threads * server.thread_pool.sleeping_frac";
  REQUIRE(models::lesson_metric(runs, when(busy, 0, 10, "1")).has_value());
  CHECK(*models::lesson_metric(runs, when(busy, 0, 10, "1")) == Approx(2.0));
  CHECK(*models::lesson_metric(runs, when("steps.1.clients.g.requests_per_s / clients.g.requests_per_s", 0, 10)) ==
        Approx(2.0));
  // A divisor of 0 and a malformed expression: no value, never a made-up one.
  CHECK_FALSE(models::lesson_metric(runs, when("clients.g.connections / 0", 0, 10)).has_value());
  CHECK_THROWS_WITH(models::fill_placeholders("{clients.g.connections / 0}", runs),
                    "placeholder {clients.g.connections / 0}: the ratio's base '0' is 0");
  CHECK_FALSE(models::lesson_metric(runs, when("clients.g.connections /", 0, 10)).has_value());
  CHECK_FALSE(models::lesson_metric(runs, when("clients.g.connections  * 2", 0, 10)).has_value());
  CHECK_FALSE(models::lesson_metric(runs, when("(clients.g.connections * 2", 0, 10)).has_value());
  CHECK_FALSE(models::lesson_metric(runs, when("clients.g.connections * 2)", 0, 10)).has_value());
  CHECK_FALSE(models::lesson_metric(runs, when(std::string(40, '(') + "2" + std::string(40, ')'), 0, 10)).has_value());
  CHECK(*models::lesson_metric(runs, when("((2))", 0, 10)) == Approx(2.0));
  CHECK_THROWS_WITH(models::fill_placeholders("{clients.g.connections / (2 - 2)}", runs),
                    "placeholder {clients.g.connections / (2 - 2)}: the ratio's base '(2 - 2)' is 0");
}
