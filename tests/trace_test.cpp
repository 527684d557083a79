// Access-log replay (models/clients/trace.h, log_format.h) and the sample
// log generator (log_generator.h): the format read back on hand-made and
// hostile lines, the reader's windows, sampling and spreading, the data set
// planned from a log, whole runs (deterministic, every request accounted
// for), and a generated log replayed at the generator's rate and size mix
// within a tolerance computed from the sampling error.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include "models/clients/log_format.h"
#include "models/clients/log_generator.h"
#include "models/clients/trace.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/report.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"
#include "models/server/http_response.h"
#include "sim/lru_idle.h"
#include "tests/load_error.h"
#include "tests/whole_run.h"

namespace {

const std::string kData = CLERK_TEST_DATA;

models::LogFormat combined() {
  std::string error;
  std::optional<models::LogFormat> f = models::LogFormat::compile(models::kCombinedLogFormat, error);
  REQUIRE(f);
  return *f;
}

// A file of its own in the temporary folder, removed at the end of the test.
struct TempFile {
  explicit TempFile(const std::string& text, const std::string& name = "trace", const std::string& ext = ".log") {
    path = (std::filesystem::temp_directory_path() /
            ("clerk-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ext))
               .string();
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
  static inline int counter = 0;
};

models::TraceSpec spec_of(const std::string& path) {
  models::TraceSpec s;
  s.file = path;
  return s;
}

std::vector<models::TraceLine> read_all(const models::TraceSpec& spec, models::TraceCounts* counts = nullptr,
                                        std::uint64_t seed = 1) {
  std::string error;
  const std::optional<models::LogFormat> f = models::LogFormat::compile(spec.log_format, error);
  REQUIRE(f);
  models::TraceReader reader(spec, *f, sim::RandomStreams(seed).stream(models::kTraceSampleStreams, 1));
  std::vector<models::TraceLine> out;
  models::TraceLine line;
  while (reader.next(line)) out.push_back(line);
  if (counts) *counts = reader.counts();
  return out;
}

// A scenario of small-hdd.toml's machine and data set, `duration` long, that
// replays `log` in the group "log" (`log_keys` added to it) beside the
// file's two groups at 1 request a second; `tables` go before the groups.
TempFile replay_scenario(const TempFile& log, const std::string& duration, const std::string& tables,
                         const std::string& log_keys) {
  return TempFile("include = \"" + kData + "/small-hdd.toml\"\nduration = \"" + duration + "\"\n" + tables +
                      "[clients.random]\nrate = 1\n[clients.hot]\nrate = 1\n[clients.log]\n" + log_keys + "trace = \"" +
                      std::filesystem::path(log.path).filename().string() + "\"\n",
                  "scenario", ".toml");
}

std::string line_at(int second, const std::string& path, std::uint64_t bytes) {
  return "10.0.0.1 - - [" + models::time_local_text(1767225600 + second) + "] \"GET " + path + " HTTP/1.1\" 200 " +
         std::to_string(bytes) + " \"-\" \"t\"\n";
}

}  // namespace

TEST_CASE("time_local reads as seconds since the epoch, its zone offset applied") {
  // NGINX's documentation's example: 2000-10-10 20:55:36 UTC.
  CHECK(models::parse_time_local("10/Oct/2000:13:55:36 -0700") == 971211336.0);
  CHECK(models::parse_time_local("01/Jan/1970:00:00:00 +0000") == 0.0);
  CHECK(models::parse_time_local("29/Feb/2024:23:59:59 +0100") == 1709247599.0);
  CHECK(models::time_local_text(971211336) == "10/Oct/2000:20:55:36 +0000");
  CHECK_FALSE(models::parse_time_local("10/Foo/2000:13:55:36 -0700"));
  CHECK_FALSE(models::parse_time_local("10/Oct/2000:25:55:36 -0700"));
  CHECK_FALSE(models::parse_time_local("10/Oct/2000:13:55:36"));
  CHECK_FALSE(models::parse_time_local(""));
}

TEST_CASE("a combined line gives its time, path without the query, status and size") {
  const models::LogFormat f = combined();
  models::LogFields out;
  std::string why;
  REQUIRE(f.parse("203.0.113.7 - bob [10/Oct/2000:13:55:36 -0700] \"GET /a/b.png?x=1&y=\\x22 HTTP/1.1\" 206 2326 "
                  "\"http://e.org/\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"",
                  out, why));
  CHECK(out.time_s == 971211336.0);
  CHECK(out.path == "/a/b.png");
  CHECK(out.status == 206);
  CHECK(out.bytes == 2326);
  CHECK(out.request_time_s < 0);
  CHECK_FALSE(f.precise_time());
}

TEST_CASE("a quote inside the last quoted value does not end it, absolute URIs give their path") {
  const models::LogFormat f = combined();
  models::LogFields out;
  std::string why;
  REQUIRE(f.parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET http://host:8080/p/q HTTP/1.0\" 200 5 \"-\" "
                  "\"agent \"with\" quotes\"",
                  out, why));
  CHECK(out.path == "/p/q");
}

TEST_CASE("hostile and broken lines are refused with a reason, never read past") {
  const models::LogFormat f = combined();
  models::LogFields out;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "no ' - ' after $remote_addr"},
      {"1.2.3.4", "no ' - '"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 200", "no ' ' after $status"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"\\x16\\x03\\x01\" 400 157 \"-\" \"-\"", "$request"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"-\" 400 0 \"-\" \"-\"", "$request"},
      {"1.2.3.4 - - [yesterday] \"GET /x HTTP/1.1\" 200 1 \"-\" \"-\"", "$time_local"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 2000 1 \"-\" \"-\"", "$status"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 002 1 \"-\" \"-\"", "$status"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 200 -5 \"-\" \"-\"", "size"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 200 99999999999999999999 \"-\" \"-\"", "size"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET x HTTP/1.1\" 200 1 \"-\" \"-\"", "$request"},
      {"1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 200 1 \"-\" \"-\" trailing", "does not end with"},
      {std::string(100000, '"'), "no ' - '"},
      {"- - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 200 1 \"-\"", "after $http_referer"},
  };
  for (const auto& [line, reason] : bad) {
    INFO(line.substr(0, 200));
    std::string why;
    CHECK_FALSE(f.parse(line, out, why));
    CHECK_THAT(why, Catch::Contains(reason));
  }
}

TEST_CASE("a custom log_format with $msec, braces and $request_time") {
  std::string error;
  const auto f = models::LogFormat::compile("${msec} $uri $status ${bytes_sent}b $request_time|$http_x_id", error);
  REQUIRE(f);
  CHECK(f->precise_time());
  CHECK(f->has_request_time());
  models::LogFields out;
  std::string why;
  REQUIRE(f->parse("1700000000.125 /v/1.ts 200 4096b 0.250|abc", out, why));
  CHECK(out.time_s == 1700000000.125);
  CHECK(out.path == "/v/1.ts");
  CHECK(out.bytes == 4096);
  CHECK(out.request_time_s == 0.25);
  REQUIRE(f->parse("1700000000.125 /v/1.ts 200 4096b -|", out, why));
  CHECK(out.request_time_s < 0);
}

TEST_CASE("log_format errors: adjacent variables, no time, path or size, a bare $") {
  // Each format, and what its error says.
  const std::pair<const char*, const char*> refused[] = {
      {"$msec$uri $bytes_sent", "nothing between"},
      {"$uri $bytes_sent", "$time_local"},
      {"$msec $bytes_sent", "$request"},
      {"$msec $uri", "$body_bytes_sent"},
      {"$msec $uri $ $bytes_sent", "names no variable"},
      {"${msec $uri $bytes_sent", "closing"},
  };
  for (const auto& [format, says] : refused) {
    INFO(format);
    std::string error;
    CHECK_FALSE(models::LogFormat::compile(format, error));
    CHECK_THAT(error, Catch::Contains(says));
  }
}

TEST_CASE("the committed sample log: every line but the TLS handshake parses") {
  models::TraceCounts c;
  const std::vector<models::TraceLine> lines = read_all(spec_of(kData + "/trace/combined.log"), &c);
  CHECK(c.lines == 20);
  CHECK(c.kept == 19);
  CHECK(c.malformed == 1);
  CHECK(c.first_malformed_line == 12);
  CHECK_THAT(c.first_malformed_why, Catch::Contains("$request"));
  REQUIRE(lines.size() == 19);
  // 09:15:02 holds three lines: spread at 0, 1/3 and 2/3 of the second.
  CHECK(lines[0].at_s == 0.0);
  CHECK(lines[1].at_s == Approx(1.0 / 3));
  CHECK(lines[2].at_s == Approx(2.0 / 3));
  CHECK(lines[2].path == "/static/js/app.js");
  CHECK(lines.back().at_s == Approx(10.5));
}

TEST_CASE("a line longer than the limit is skipped and counted, the next one read") {
  TempFile log(line_at(0, "/a", 1) + "x" + std::string(models::kMaxLineBytes + 10, 'y') + "\n" + line_at(1, "/b", 2) +
               line_at(2, "/c", 3));
  models::TraceCounts c;
  const auto lines = read_all(spec_of(log.path), &c);
  CHECK(c.malformed == 1);
  CHECK(c.first_malformed_line == 2);
  CHECK_THAT(c.first_malformed_why, Catch::Contains("longer than"));
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].path == "/b");
}

TEST_CASE("from, until and speed place the replay, an earlier line keeps log order") {
  std::string text;
  for (int s = 0; s < 10; ++s) text += line_at(s, "/f" + std::to_string(s), 10);
  text += line_at(3, "/late", 10);  // written after a slow response
  TempFile log(text);
  models::TraceSpec spec = spec_of(log.path);
  spec.from_s = 2;
  spec.until_s = 6;
  spec.speed = 2;
  models::TraceCounts c;
  const auto lines = read_all(spec, &c);
  CHECK(c.before_window == 2);
  CHECK(c.past_until == 2);  // second 6, and second 7 read ahead behind it
  CHECK(c.lines == c.before_window + c.kept + c.past_until);
  REQUIRE(lines.size() == 4);  // seconds 2, 3, 4, 5
  CHECK(lines[0].at_s == 0.0);
  CHECK(lines[3].at_s == 1.5);  // (5 - 2) / 2
  spec.from_s = 0;
  spec.until_s = 1e18;
  spec.speed = 1;
  const auto all = read_all(spec, &c);
  CHECK(c.reordered == 1);
  REQUIRE(all.size() == 11);
  CHECK(all.back().path == "/late");
  CHECK(all.back().at_s >= all[9].at_s);
}

TEST_CASE("a line earlier than the one before is replayed in log order whether or not that one was sampled out") {
  // The first line is sampled out (a sample of 1e-9); the second, written
  // earlier, is still "earlier than the line before", never before a `from`
  // that was not set (probe 5's review: it was counted before_window).
  TempFile log(line_at(10, "/first", 10) + line_at(5, "/earlier", 10) + line_at(11, "/next", 10));
  models::TraceSpec spec = spec_of(log.path);
  spec.sample = 1e-9;
  models::TraceCounts c;
  read_all(spec, &c);
  CHECK(c.before_window == 0);
  CHECK(c.reordered == 1);
  CHECK(c.sampled_out + c.kept == 3);
}

TEST_CASE("sampling keeps each line with its probability, the same lines for the same seed") {
  std::string text;
  for (int s = 0; s < 4000; ++s) text += line_at(s, "/f", 10);
  TempFile log(text);
  models::TraceSpec spec = spec_of(log.path);
  spec.sample = 0.25;
  models::TraceCounts a, b;
  const auto first = read_all(spec, &a, 5);
  const auto again = read_all(spec, &b, 5);
  REQUIRE(first.size() == again.size());
  for (std::size_t i = 0; i < first.size(); ++i) CHECK(first[i].at_s == again[i].at_s);
  // Binomial(4000, 0.25): 4 standard deviations.
  const double n = 4000, p = 0.25, sd = std::sqrt(n * p * (1 - p));
  CHECK(std::abs(static_cast<double>(a.kept) - n * p) <= 4 * sd);
  CHECK(a.kept + a.sampled_out == 4000);
}

TEST_CASE("plan: \"add\" keeps the data set's files and grows the tree for the log's new paths") {
  TempFile log(line_at(0, "/1/2", 500) + line_at(1, "/new/a", 700) + line_at(2, "/new/a", 900) +
               line_at(3, "/new/b", 0));
  models::FilesystemSpec base;
  base.files = 16;
  base.file_size = 4096;
  base.tree = {4, 4};
  const std::vector<std::uint64_t> sizes(16, 4096);
  const models::TracePlan plan =
      models::plan_trace(spec_of(log.path), base, sizes, sim::RandomStreams(1).stream(models::kTraceSampleStreams, 1));
  CHECK(plan.files.at("/1/2") == 1);
  CHECK(plan.files.at("/new/a") == 16);
  CHECK(plan.files.at("/new/b") == 17);
  CHECK(plan.filesystem.tree == std::vector<std::uint32_t>{5, 4});
  CHECK(plan.filesystem.files == 20);
  REQUIRE(plan.filesystem.sizes.size() == 20);
  CHECK(plan.filesystem.sizes[1] == 4096);   // the data set's own size
  CHECK(plan.filesystem.sizes[16] == 900);   // the largest logged
  CHECK(plan.filesystem.sizes[17] == 1);     // logged only with 0 bytes
  CHECK(plan.new_files == 2);
  CHECK(plan.padding == 2);
}

TEST_CASE("plan: \"log\" makes the data set of the log's paths, a directory per parent") {
  TempFile log(line_at(0, "/a/1", 10) + line_at(0, "/a/2", 20) + line_at(0, "/a/3", 30) + line_at(0, "/b/1", 40));
  models::TraceSpec spec = spec_of(log.path);
  spec.dataset = models::TraceDataset::kLog;
  models::FilesystemSpec base;
  base.files = 1000;
  const models::TracePlan plan =
      models::plan_trace(spec, base, {}, sim::RandomStreams(1).stream(models::kTraceSampleStreams, 1));
  CHECK(plan.filesystem.tree == std::vector<std::uint32_t>{2, 2});
  CHECK(plan.filesystem.files == 4);
  CHECK(plan.files.at("/a/1") == 0);
  CHECK(plan.files.at("/b/1") == 3);
  CHECK(plan.filesystem.sizes == std::vector<std::uint64_t>{10, 20, 30, 40});
  CHECK(plan.padding == 0);
}

TEST_CASE("a log of which nothing parses is refused, naming the first line's reason") {
  TempFile log("garbage\nmore garbage\n");
  models::FilesystemSpec base;
  CHECK_THROWS_WITH(models::plan_trace(spec_of(log.path), base, {1}, sim::RandomStreams(1).stream(1)),
                    Catch::Contains("no line") && Catch::Contains("line 1"));
  TempFile late(line_at(0, "/a", 1) + line_at(5, "/b", 1));
  models::TraceSpec spec = spec_of(late.path);
  spec.from_s = 10;
  CHECK_THROWS_WITH(models::plan_trace(spec, base, {1}, sim::RandomStreams(1).stream(1)),
                    Catch::Contains("is replayed: 2 before from"));
  TempFile empty("");
  CHECK_THROWS_WITH(models::plan_trace(spec_of(empty.path), base, {1}, sim::RandomStreams(1).stream(1)),
                    Catch::Contains("no lines"));
}

TEST_CASE("trace keys: strict, relative to the scenario, refused without trace") {
  const std::string file = kData + "/trace/replay.toml";
  const models::Scenario sc = models::load_scenario(file);
  const models::WrkGroupSpec* g = nullptr;
  for (const auto& c : sc.clients)
    if (c.name == "log") g = &c;
  REQUIRE(g);
  CHECK(g->trace.file == kData + "/trace/combined.log");
  CHECK(g->trace.window_s == 5);
  auto refused = [&](const std::vector<std::string>& set, const std::string& key, const std::string& says) {
    tests::check_refused(file, set, key, says);
  };
  refused({"clients.log.trace=\"nope.log\""}, "clients.log.trace", "no access log");
  refused({"clients.log.log_format=\"$uri\""}, "clients.log.log_format", "$time_local");
  refused({"clients.log.speed=0"}, "clients.log.speed", "between");
  refused({"clients.log.sample=0"}, "clients.log.sample", "above 0");
  refused({"clients.log.from=\"2s\"", "clients.log.until=\"1s\""}, "clients.log.until", "after from");
  refused({"clients.log.path=\"/1/1\""}, "clients.log.path", "does not go with trace");
  refused({"clients.log.rate=5"}, "clients.log.rate", "does not go with trace");
  refused({"clients.log.dataset=\"log\""}, "clients.log.dataset", "only one");
  refused({"clients.random.speed=2"}, "clients.random.speed", "needs trace");
  refused({"clients.log.sampel=1"}, "clients.log.sampel", "did you mean 'sample'");
}

TEST_CASE("a replay: every line due, every request accounted for, the same JSON for the same seed") {
  const std::string file = kData + "/trace/replay.toml";
  auto run = [&] { return tests::run_scenario(models::load_scenario(file)); };
  const models::RunResult a = run();
  const models::RunResult b = run();
  CHECK(models::to_json(a, false).dump() == models::to_json(b, false).dump());
  const models::WrkResult* g = &tests::group(a, "log");
  CHECK(g->trace.counts.kept == 19);
  CHECK(g->trace.counts.malformed == 1);
  CHECK(g->trace.log_finished);
  CHECK(g->trace.replayed == 19);
  CHECK(g->trace.not_due_at_end == 0);
  CHECK(g->issued == 19);
  std::uint64_t failed = 0;
  for (const auto& [reason, n] : g->failed) failed += n;
  CHECK(g->complete + g->in_flight + failed == g->issued);
  // The log's 11 distinct paths are new files: 16 files a top-level directory, so one more.
  CHECK(g->spec.trace.new_files == 11);
  CHECK(g->spec.trace.padding == 5);
  REQUIRE(g->trace.windows.size() == 3);  // due at 0 to 10.5 s, 5-second windows
  std::uint64_t due = 0;
  for (const auto& w : g->trace.windows) due += w.due;
  CHECK(due == 19);
  CHECK(g->request_time.count() == g->complete);
}

TEST_CASE("a log rewritten after the run was built is bad input naming the log, not an internal error") {
  // 200 lines a second over 10 s, far longer than the reader's buffer and
  // its second read ahead, so that the replay reads the new text.
  auto log_of = [](const std::string& dir) {
    std::string text;
    for (int i = 0; i < 2000; ++i) {
      const int second = 10 + i / 200;
      text += "203.0.113.7 - - [12/Mar/2026:09:15:" + std::to_string(second) + " +0100] \"GET /" + dir + "/" +
              std::to_string(i % 10) + ".html HTTP/1.1\" 200 100 \"-\" \"x\"\n";
    }
    return text;
  };
  const TempFile log(log_of("scanned"));
  const models::Scenario sc =
      models::load_scenario(kData + "/trace/replay.toml", {"clients.log.trace=\"" + log.path + "\""});
  models::World w(sc, sc.seed, sc.duration_s);  // the scan: the log's paths become files
  std::ofstream(log.path, std::ios::binary | std::ios::trunc) << log_of("rewritten");
  try {
    w.run();
    FAIL("the rewritten log replayed");
  } catch (const common::BadInput& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("'" + log.path + "' changed during the run"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("key 'clients.log.trace'"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("/rewritten/"));
  }
}

TEST_CASE("gen-log: the same bytes for the same seed, another log for another") {
  models::LogGenSpec spec;
  spec.duration_s = 20;
  spec.rate = 50;
  spec.files = 100;
  std::ostringstream a, b, c;
  models::generate_log(spec, a);
  models::generate_log(spec, b);
  spec.seed = 2;
  models::generate_log(spec, c);
  CHECK(a.str() == b.str());
  CHECK(a.str() != c.str());
  // Every line reads back with the combined format.
  const models::LogFormat f = combined();
  std::istringstream in(a.str());
  std::string line, why;
  models::LogFields out;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    CHECK(f.parse(line, out, why));
    ++n;
  }
  CHECK(n > 0);
}

TEST_CASE("a generated log replayed: the generator's rate, diurnal shape and size mix within sampling error") {
  models::LogGenSpec spec;
  spec.duration_s = 60;
  spec.rate = 150;
  spec.amplitude = 0.6;
  spec.period_s = 60;
  spec.files = 500;
  spec.seed = 11;
  std::ostringstream text;
  models::generate_log(spec, text);
  TempFile log(text.str(), "generated");
  const TempFile scenario = replay_scenario(log, "61s", "[memory]\npage_cache = \"2g\"\n", "connections = 64\nwindow = \"10s\"\n");
  const models::Scenario sc = models::load_scenario(scenario.path);
  const models::RunResult r = tests::run_scenario(sc);
  const models::WrkResult* g = &tests::group(r, "log");
  REQUIRE(g->trace.log_finished);

  // The rate: a Poisson count of mean expected_requests(), 4 standard deviations.
  const double expected = models::expected_requests(spec);
  CHECK(std::abs(static_cast<double>(g->issued) - expected) <= 4 * std::sqrt(expected));
  // The diurnal shape: each 10-second window's due count against the
  // integral of r(t) over it (the log's seconds spread evenly, so the window
  // edges fall on whole seconds), 4 standard deviations each.
  const double omega = 2 * std::numbers::pi / spec.period_s;
  for (std::size_t i = 0; i < 6; ++i) {
    const double t0 = 10.0 * static_cast<double>(i), t1 = t0 + 10;
    const double mean = spec.rate * (t1 - t0) + spec.rate * spec.amplitude * (std::cos(omega * t0) - std::cos(omega * t1)) / omega;
    INFO("window " << i << ": expected " << mean);
    REQUIRE(i < g->trace.windows.size());
    CHECK(std::abs(static_cast<double>(g->trace.windows[i].due) - mean) <= 4 * std::sqrt(mean));
  }
  // The size mix: the mean response (header and file) of the requests
  // completed, against the generator's own popularity and sizes; the
  // standard error of a mean of n draws, 4 of them.
  double mean = 0, square = 0;
  for (const models::GeneratedFile& f : models::generated_files(spec)) {
    const double bytes = static_cast<double>(f.bytes + models::nginx_header_bytes(sc.nginx.version, f.bytes));
    mean += f.probability * bytes;
    square += f.probability * bytes * bytes;
  }
  const double n = static_cast<double>(g->complete);
  REQUIRE(n > 0.9 * expected);
  const double sd = std::sqrt(square - mean * mean);
  CHECK(std::abs(static_cast<double>(g->bytes) / n - mean) <= 4 * sd / std::sqrt(n));
}

TEST_CASE("a log with $msec and $request_time: each window sets the log's figure beside the simulation's") {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    char msec[32];
    // Logged when the response ended: 25 ms apart from the first arrival, plus each one's $request_time.
    const double took = i < 20 ? 0.010 : 0.030;
    std::snprintf(msec, sizeof msec, "%.3f", 1700000000.1 + 0.025 * i + took);
    text += std::string(msec) + " /1/" + std::to_string(1 + i % 16) + " 200 1048576 " + (i < 20 ? "0.010" : "0.030") + "\n";
  }
  TempFile log(text, "msec");
  const TempFile scenario = replay_scenario(log, "2s", "",
                                            "connections = 4\nwindow = \"0.49s\"\n"
                                            "log_format = \"$msec $uri $status $body_bytes_sent $request_time\"\n");
  const models::RunResult r = tests::run_scenario(models::load_scenario(scenario.path));
  const models::WrkResult* g = &tests::group(r, "log");
  CHECK(g->trace.counts.kept == 40);
  CHECK(g->spec.trace.new_files == 0);  // every path is a file of the data set
  CHECK(g->trace.logged.count() == 40);
  // Arrivals 25 ms apart from 0: 20 in each 0.49 s window (away from float edges), 0.010 s then 0.030 s logged.
  REQUIRE(g->trace.windows.size() >= 2);
  CHECK(g->trace.windows[0].due == 20);
  CHECK(g->trace.windows[0].logged_p50_s == Approx(0.010).epsilon(0.01));
  CHECK(g->trace.windows[1].logged_p99_s == Approx(0.030).epsilon(0.01));
  CHECK(g->trace.windows[0].latency_p50_s > 0);
}

namespace {

std::string msec_line(double end_s, const std::string& path, const char* request_time) {
  char t[32];
  std::snprintf(t, sizeof t, "%.3f", end_s);
  return std::string(t) + " " + path + " 200 100 " + request_time + "\n";
}

models::TraceSpec msec_spec(const std::string& path) {
  models::TraceSpec s = spec_of(path);
  s.log_format = "$msec $uri $status $body_bytes_sent $request_time";
  return s;
}

}  // namespace

TEST_CASE("with $request_time a request arrives at its logged time minus it, replayed in arrival order") {
  // Written as the responses ended (log order); they started in the order /a, /c, /b, /d.
  TempFile log(msec_line(100.0, "/a", "1.000") + msec_line(100.1, "/b", "0.050") + msec_line(100.2, "/c", "0.900") +
               msec_line(100.3, "/d", "-"));
  models::TraceCounts c;
  const auto lines = read_all(msec_spec(log.path), &c);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].path == "/a");
  CHECK(lines[1].path == "/c");
  CHECK(lines[2].path == "/b");
  CHECK(lines[3].path == "/d");
  // From the first arrival (99.0): 99.3, 100.05, and 100.3 ("-" takes nothing off).
  CHECK(lines[0].at_s == 0);
  CHECK(lines[1].at_s == Approx(0.3));
  CHECK(lines[2].at_s == Approx(1.05));
  CHECK(lines[3].at_s == Approx(1.3));
  CHECK(c.reordered == 0);
  CHECK(c.kept == 4);
}

TEST_CASE("with $request_time, a request longer than any before it may arrive after a later one left: kept in order") {
  // /b took 5 s, longer than the 0.1 s the buffer had seen: /a had left at 99.9, so /b (95.2) comes at /a's time.
  TempFile log(msec_line(100.0, "/a", "0.100") + msec_line(100.2, "/b", "5.000") + msec_line(100.3, "/c", "0.000"));
  models::TraceCounts c;
  const auto lines = read_all(msec_spec(log.path), &c);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].path == "/a");
  CHECK(lines[1].path == "/b");
  CHECK(lines[1].at_s == 0);
  CHECK(lines[2].at_s == Approx(0.4));
  CHECK(c.reordered == 1);
}

TEST_CASE("with $time_local and $request_time the second is spread before $request_time is taken off") {
  const std::string format = std::string(models::kCombinedLogFormat) + " $request_time";
  auto line = [](int second, const std::string& path, const char* took) {
    std::string l = line_at(second, path, 10);
    l.pop_back();
    return l + " " + took + "\n";
  };
  // /a and /b ended in second 0 (spread at 0 and 0.5), /c in second 1.
  TempFile log(line(0, "/a", "0.900") + line(0, "/b", "0.100") + line(1, "/c", "0.000"));
  models::TraceSpec spec = spec_of(log.path);
  spec.log_format = format;
  const auto lines = read_all(spec);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].path == "/a");  // -0.9: the origin
  CHECK(lines[1].at_s == Approx(1.3));
  CHECK(lines[2].at_s == Approx(1.9));
}

TEST_CASE("a second of more than kMaxLinesPerSecond lines is spread over it in order, none counted earlier") {
  // Probe 8 (M2): past 65,536 lines the rest of the second started again at
  // its beginning, so a third of a 100k-a-second log counted as earlier than
  // the line before and fell due at one instant.
  const std::size_t n = 100000;
  static_assert(100000 > models::kMaxLinesPerSecond);
  for (const bool took : {false, true}) {
    INFO((took ? "with $request_time (spread before it is taken off)" : "combined format"));
    std::string text;
    auto line = [&](int second, std::size_t i) {
      std::string l = line_at(second, "/" + std::to_string(i % 7), 10);
      if (!took) return l;
      l.pop_back();
      return l + " 0.000\n";
    };
    for (std::size_t i = 0; i < n; ++i) text += line(0, i);
    text += line(1, n);  // the next second
    TempFile log(text);
    models::TraceSpec spec = spec_of(log.path);
    if (took) spec.log_format = std::string(models::kCombinedLogFormat) + " $request_time";
    models::TraceCounts c;
    const auto lines = read_all(spec, &c);
    REQUIRE(lines.size() == n + 1);
    CHECK(c.reordered == 0);
    std::size_t not_later = 0;
    for (std::size_t i = 1; i < lines.size(); ++i)
      if (!(lines[i].at_s > lines[i - 1].at_s)) ++not_later;
    CHECK(not_later == 0);
    // Over the whole second, in log order: the first block of 65,536 over its
    // first half (more followed), the last 34,464 lines evenly over the rest.
    CHECK(lines[0].at_s == 0);
    CHECK(lines[models::kMaxLinesPerSecond - 1].at_s < 0.5);
    CHECK(lines[models::kMaxLinesPerSecond].at_s == Approx(0.5));
    CHECK(lines[n - 1].at_s < 1);
    CHECK(lines[n - 1].at_s > 0.9999);
    CHECK(lines[n].at_s == Approx(1));
    // Evenly within each block: the step of the second block is its share over its lines.
    const double step = 0.5 / static_cast<double>(n - models::kMaxLinesPerSecond);
    CHECK(lines[n - 1].at_s - lines[n - 2].at_s == Approx(step).epsilon(0.05));  // log times near 1.8e9 s: ulp 2.4e-7
  }
}

TEST_CASE("the reorder buffer holds at most kMaxReorderLines lines, however long the requests took") {
  // The first request took 100 s: no later line may leave before 100 s of
  // log have been read, 100,000 lines 1 ms apart. The buffer stops at its
  // bound, and the lines still come in order.
  std::string text;
  const std::size_t n = models::kMaxReorderLines + 1000;
  for (std::size_t i = 0; i < n; ++i)
    text += msec_line(1000.0 + 0.001 * static_cast<double>(i), "/" + std::to_string(i % 7), i == 0 ? "100.000" : "0.000");
  TempFile log(text);
  models::TraceCounts c;
  const auto lines = read_all(msec_spec(log.path), &c);
  CHECK(lines.size() == n);
  CHECK(c.reorder_held_peak == models::kMaxReorderLines);
  CHECK(c.reordered == 0);
  CHECK(lines[1].at_s == Approx(100.001));
  CHECK(lines.back().at_s == Approx(100 + 0.001 * static_cast<double>(n - 1)));
}

TEST_CASE("the idle line hands out the least recently used connection, a removed one is passed over") {
  sim::LruIdle idle;
  CHECK_FALSE(idle.take());
  for (std::uint32_t id : {2u, 0u, 1u}) idle.push(id);
  idle.push(2);  // already idle: keeps its place
  CHECK(idle.take() == 2u);
  idle.push(2);  // used and free again: to the back
  idle.remove(0);
  idle.push(3);
  idle.push(0);  // reopened: behind 3, its earlier place stale
  CHECK(idle.take() == 1u);
  CHECK(idle.take() == 2u);
  CHECK(idle.take() == 3u);
  CHECK(idle.contains(0));
  CHECK(idle.take() == 0u);
  CHECK_FALSE(idle.contains(0));
  CHECK_FALSE(idle.take());
}

TEST_CASE("a light trace load: each line on the least recently used connection, every connection in turn") {
  // After a first line (due while the connections still open), 8 lines a
  // second apart over 4 connections: each response is back long before the
  // next line, so the connection that went idle longest ago takes each:
  // every connection carries 2 of them, in one order repeated. (Taking the
  // one idle last would put all 8 on one connection.)
  std::string log;
  for (int s = 0; s <= 8; ++s) log += line_at(s, "/f" + std::to_string(s), 1000);
  const TempFile file(log);
  const models::Scenario sc = models::load_scenario(kData + "/trace/replay.toml", {"clients.log.trace=\"" + file.path + "\""});
  models::World w(sc, sc.seed, sc.duration_s);
  models::Wrk& wrk = w.clients();
  std::uint32_t group = 0;
  while (wrk.group_spec(group).name != "log") ++group;
  std::vector<std::uint32_t> carrier;
  for (int s = 1; s <= 8; ++s) {
    w.run_until(w.window_start() + sim::seconds(s) + sim::microseconds(1));
    std::vector<std::uint32_t> busy;
    for (std::uint32_t c = 0; c < wrk.connections_opened(); ++c)
      if (wrk.connection_group(c) == group && wrk.in_flight(c)) busy.push_back(c);
    REQUIRE(busy.size() == 1);
    carrier.push_back(busy[0]);
  }
  w.run();
  std::map<std::uint32_t, int> per_conn;
  for (std::uint32_t c : carrier) ++per_conn[c];
  CHECK(per_conn.size() == 4);
  for (const auto& [c, n] : per_conn) CHECK(n == 2);
  for (std::size_t k = 4; k < 8; ++k) CHECK(carrier[k] == carrier[k - 4]);
}

TEST_CASE("a log that is a FIFO with no writer or a folder is refused at once, never waited on") {
  // fopen() of a FIFO waits for a writer, and a regular-typed file that
  // blocks (tracefs's trace_pipe) waited in fread(): the reader opens
  // O_NONBLOCK and takes only a regular file (common/input_file.h).
  const std::string fifo =
      (std::filesystem::temp_directory_path() / ("clerk-trace-fifo-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string why;
  try {
    read_all(spec_of(fifo));
  } catch (const std::runtime_error& e) {
    why = e.what();
  }
  std::filesystem::remove(fifo);
  CHECK(why.find("is a FIFO, not a regular file") != std::string::npos);
  why.clear();
  try {
    read_all(spec_of(std::filesystem::temp_directory_path().string()));
  } catch (const std::runtime_error& e) {
    why = e.what();
  }
  CHECK(why.find("is a folder, not a regular file") != std::string::npos);
}

// Every line read lands in one count (TraceCounts, TraceResult), whatever
// the reader holds read ahead when the run ends: the fifth hostile probe
// found "136 replayed" beside 93 requests issued, the lines read ahead and
// not yet due counted as replayed.
namespace {

// Reads `spec`'s log one line at a time, and after each line checks that
// the lines read are the lines judged, handed out or still held.
void check_reader_counts(const models::TraceSpec& spec) {
  std::string error;
  const std::optional<models::LogFormat> f = models::LogFormat::compile(spec.log_format, error);
  REQUIRE(f);
  models::TraceReader reader(spec, *f, sim::RandomStreams(3).stream(models::kTraceSampleStreams, 1));
  std::uint64_t handed = 0;
  models::TraceLine line;
  auto check = [&] {
    const models::TraceCounts& c = reader.counts();
    INFO("after " << handed << " lines handed out");
    CHECK(c.lines == c.malformed + c.before_window + c.sampled_out + c.past_until + handed + reader.read_ahead());
  };
  check();
  while (reader.next(line)) {
    ++handed;
    check();
  }
  check();
  CHECK(reader.read_ahead() == 0);
}

// A trace group's lines and requests add up: each line in one count, each
// line replayed one request issued, which ended or is in flight.
void check_accounting(const models::WrkResult& g) {
  const models::TraceResult& t = g.trace;
  const models::TraceCounts& n = t.counts;
  INFO("lines " << n.lines << ", replayed " << t.replayed << ", not due " << t.not_due_at_end << ", issued " << g.issued);
  CHECK(n.lines == n.malformed + n.before_window + n.sampled_out + n.past_until + t.replayed + t.not_due_at_end);
  CHECK(t.replayed == g.issued);
  std::uint64_t failed = 0;
  for (const auto& [reason, k] : g.failed) failed += k;
  CHECK(g.complete + failed + g.in_flight == g.issued);
  CHECK(t.waiting <= g.in_flight);
  std::uint64_t due = 0;
  for (const auto& w : t.windows) due += w.due;
  CHECK(due == t.replayed);
  CHECK(t.log_finished == (t.not_due_at_end == 0));
}

// `per_second` lines a second for `seconds`, combined format, over 20 paths.
std::string steady_log(int seconds, int per_second) {
  std::string text;
  for (int s = 0; s < seconds; ++s)
    for (int i = 0; i < per_second; ++i) text += line_at(s, "/p/" + std::to_string((s * per_second + i) % 20), 4096);
  return text;
}

// A run of `log` replayed in the group "log" with `keys`; the JSON of a
// second run the same bytes.
models::RunResult replay_twice(const TempFile& log, const std::string& duration, const std::string& keys) {
  const TempFile scenario = replay_scenario(log, duration, "", "connections = 8\n" + keys);
  const models::Scenario sc = models::load_scenario(scenario.path);
  const models::RunResult a = tests::run_scenario(sc);
  CHECK(models::to_json(a, false).dump() == models::to_json(tests::run_scenario(sc), false).dump());
  return a;
}

}  // namespace

TEST_CASE("the reader: every line read is judged, handed out or held, at every step") {
  const TempFile combined_log(steady_log(5, 44) + "not a line\n");
  models::TraceSpec spec = spec_of(combined_log.path);
  SECTION("combined, the whole log") { check_reader_counts(spec); }
  SECTION("combined, a window and a sample") {
    spec.from_s = 1;
    spec.until_s = 3.5;
    spec.sample = 0.5;
    check_reader_counts(spec);
  }
  SECTION("$msec and $request_time, through the reorder buffer, until in it") {
    std::string text;
    for (int i = 0; i < 200; ++i) text += msec_line(1000.0 + 0.01 * i, "/r" + std::to_string(i % 7), i % 50 ? "0.020" : "0.400");
    const TempFile log(text);
    models::TraceSpec m = msec_spec(log.path);
    check_reader_counts(m);
    m.until_s = 1;
    check_reader_counts(m);
  }
  SECTION("$time_local and $request_time, until in the spread second") {
    spec.log_format = std::string(models::kCombinedLogFormat) + " $request_time";
    std::string text;
    for (int s = 0; s < 4; ++s)
      for (int i = 0; i < 10; ++i) {
        std::string l = line_at(s, "/t", 10);
        l.pop_back();
        text += l + (i == 3 ? " 0.700\n" : " 0.010\n");
      }
    const TempFile log(text);
    spec.file = log.path;
    spec.until_s = 2.2;
    check_reader_counts(spec);
  }
}

TEST_CASE("a replay that ends before the log's window: the lines read ahead are not due, not replayed") {
  // The probe's case: 5 s of log at 44 lines a second, a run of 2 s.
  const TempFile log(steady_log(5, 44));
  const models::RunResult r = replay_twice(log, "2s", "");
  const models::WrkResult& g = tests::group(r, "log");
  check_accounting(g);
  CHECK_FALSE(g.trace.log_finished);
  CHECK(g.trace.replayed == 88);      // seconds 0 and 1
  CHECK(g.trace.not_due_at_end > 0);  // the line of second 2 read ahead, and those held behind it
  // The JSON and the report say the same.
  const auto j = models::to_json(r, false);
  const auto& t = j["clients"]["log"]["trace"];
  CHECK(t["replayed"] == 88);
  CHECK(t["not_due_at_end"] == g.trace.not_due_at_end);
  CHECK(t["lines"] == g.trace.counts.lines);
  const std::string text = models::text_report(r);
  CHECK(text.find(std::to_string(g.trace.counts.lines) + " lines read, 88 replayed, " +
                  std::to_string(g.trace.not_due_at_end) + " not yet due when the run ended") != std::string::npos);
}

TEST_CASE("a replay played 1000 times slower: one line due, the rest read ahead not due") {
  const TempFile log(steady_log(5, 44));
  const models::WrkResult g = tests::group(replay_twice(log, "2s", "speed = 0.001\n"), "log");
  check_accounting(g);
  CHECK(g.trace.replayed == 1);
  CHECK(g.issued == 1);
  CHECK(g.trace.not_due_at_end == g.trace.counts.lines - 1);
}

TEST_CASE("a replay whose second line is years later: one replayed, one not due") {
  const TempFile log(line_at(0, "/a", 100) + "10.0.0.1 - - [01/Jan/9999:00:00:00 +0000] \"GET /b HTTP/1.1\" 200 100 \"-\" \"t\"\n");
  const models::WrkResult g = tests::group(replay_twice(log, "2s", ""), "log");
  check_accounting(g);
  CHECK(g.trace.counts.lines == 2);
  CHECK(g.trace.replayed == 1);
  CHECK(g.trace.not_due_at_end == 1);
}

TEST_CASE("a replay whose $request_time outlasts the run: the lines in the reorder buffer are not due") {
  // The second request took 100 s: no later line may leave the reorder
  // buffer until 100 s of log are read, so the 3 s log is read into it, and
  // the lines past the run's 2 s are still held when it ends.
  std::string text = msec_line(1000.0, "/a", "0.001") + msec_line(1000.01, "/b", "100.000");
  for (int i = 2; i < 300; ++i) text += msec_line(1000.0 + 0.01 * i, "/c" + std::to_string(i % 5), "0.001");
  const TempFile log(text);
  const models::WrkResult g =
      tests::group(replay_twice(log, "2s", "log_format = \"$msec $uri $status $body_bytes_sent $request_time\"\n"), "log");
  check_accounting(g);
  CHECK(g.trace.counts.reorder_held_peak > 50);
  CHECK(g.trace.replayed > 150);
  CHECK(g.trace.not_due_at_end > 50);
}

TEST_CASE("a replay cut by until: the line that ended it and those read behind it are past until") {
  const TempFile log(steady_log(5, 10));
  const models::WrkResult g = tests::group(replay_twice(log, "10s", "until = \"2s\"\n"), "log");
  check_accounting(g);
  CHECK(g.trace.log_finished);
  CHECK(g.trace.replayed == 20);
  CHECK(g.trace.counts.past_until == 11);  // second 2's first line, and the rest of its second read ahead
}
