// The wrk Lua script and its summary line.
#include <catch2/catch.hpp>

#include "testbed/realrun/wrk_script.h"

using namespace testbed::realrun;

TEST_CASE("summary line parses into numbers", "[wrk_script]") {
  const std::string out =
      "Running 2s test @ http://127.0.0.1:18080/\n  2 threads and 4 connections\n"
      "Requests/sec:   1234.00\n"
      "CLERK requests=2468 bytes=161841152 duration_us=2001234 connect=0 read=1 write=2 status=3 timeout=4 "
      "latency_mean_us=1620.250 latency_stdev_us=310.500 latency_max_us=9000 p50_us=1500 p75_us=1700 p90_us=2100 "
      "p99_us=4000\n";
  std::string why;
  const auto s = parse_wrk_summary(out, &why);
  REQUIRE(s);
  CHECK(s->requests == 2468);
  CHECK(s->bytes == 161841152);
  CHECK(s->duration_us == 2001234);
  CHECK(s->connect == 0);
  CHECK(s->read == 1);
  CHECK(s->write == 2);
  CHECK(s->status == 3);
  CHECK(s->timeout == 4);
  CHECK(s->latency_mean_us == Approx(1620.25));
  CHECK(s->latency_stdev_us == Approx(310.5));
  CHECK(s->latency_max_us == 9000);
  CHECK(s->p50_us == 1500);
  CHECK(s->p75_us == 1700);
  CHECK(s->p90_us == 2100);
  CHECK(s->p99_us == 4000);
}

TEST_CASE("summary line: missing, incomplete, malformed, nan", "[wrk_script]") {
  std::string why;
  CHECK_FALSE(parse_wrk_summary("Requests/sec: 5\n", &why));
  CHECK(why.find("no CLERK") != std::string::npos);
  CHECK_FALSE(parse_wrk_summary("CLERK requests=1 bytes=2\n", &why));
  CHECK(why.find("duration_us") != std::string::npos);
  CHECK_FALSE(parse_wrk_summary("CLERK requests=x\n", &why));
  CHECK_FALSE(parse_wrk_summary("CLERK requests=-1\n", &why));
  // "CLERK " inside another line is not the summary.
  CHECK_FALSE(parse_wrk_summary("xCLERK requests=1\n", &why));
  // No samples: wrk's stdev prints as nan, read as 0.
  const auto s = parse_wrk_summary(
      "CLERK requests=0 bytes=0 duration_us=1000000 connect=4 read=0 write=0 status=0 timeout=0 "
      "latency_mean_us=0.000 latency_stdev_us=-nan latency_max_us=0 p50_us=0 p75_us=0 p90_us=0 p99_us=0",
      &why);
  // -nan: from_chars reads it as NaN (sign ignored), taken as 0.
  REQUIRE(s);
  CHECK(s->latency_stdev_us == 0);
  CHECK(s->connect == 4);
  // A count too large for its field is refused, not converted (undefined; found by fuzz_proc).
  CHECK_FALSE(parse_wrk_summary(
      "CLERK requests=1e300 bytes=0 duration_us=1000000 connect=0 read=0 write=0 status=0 timeout=0 "
      "latency_mean_us=0 latency_stdev_us=0 latency_max_us=0 p50_us=0 p75_us=0 p90_us=0 p99_us=0",
      &why));
  CHECK(why.find("requests") != std::string::npos);
}

TEST_CASE("random-file script picks from the whole tree, fixed-path script stays static", "[wrk_script]") {
  const std::string random = wrk_script({{4, 8}, "", 42});
  CHECK(random.find("local tree = {4, 8}") != std::string::npos);
  CHECK(random.find("local seed = 42") != std::string::npos);
  CHECK(random.find("function request()") != std::string::npos);
  CHECK(random.find("math.randomseed(seed + (clerk_thread or 0))") != std::string::npos);
  CHECK(random.find("function done(summary, latency, requests)") != std::string::npos);

  const std::string fixed = wrk_script({{4, 8}, "/1/1", 42});
  CHECK(fixed.find("wrk.path = \"/1/1\"") != std::string::npos);
  // No request() or init(): wrk keeps its one static request.
  CHECK(fixed.find("function request") == std::string::npos);
  CHECK(fixed.find("function init") == std::string::npos);
  CHECK(fixed.find("function done(summary, latency, requests)") != std::string::npos);
}

TEST_CASE("a group with popularity reads the simulation's ranking and draws by the same model", "[wrk_script]") {
  WrkScriptParams p{{4, 8}, "", 42};
  const std::string uniform = wrk_script(p);
  CHECK(uniform.find("local popularity = \"uniform\"") != std::string::npos);
  p.popularity = "hot";
  p.rank_file = "/tmp/run/wrk-0-random.rank";
  p.hot_count = 3;
  p.hot_share = 0.9;
  const std::string hot = wrk_script(p);
  CHECK(hot.find("local popularity = \"hot\"") != std::string::npos);
  CHECK(hot.find("local rank_file = \"/tmp/run/wrk-0-random.rank\"") != std::string::npos);
  CHECK(hot.find("local hot_count = 3") != std::string::npos);
  CHECK(hot.find("local hot_share = 0.9") != std::string::npos);
  CHECK(hot.find("io.lines(rank_file)") != std::string::npos);
  p.popularity = "zipf";
  p.zipf_exponent = 0.8;
  const std::string zipf = wrk_script(p);
  CHECK(zipf.find("local zipf_exponent = 0.8") != std::string::npos);
  CHECK(zipf.find("r ^ (-zipf_exponent)") != std::string::npos);
}

TEST_CASE("clerk-replay's line: due, waiting, in_flight and its accounting", "[wrk_script]") {
  const std::string line =
      "CLERK requests=590 bytes=1 duration_us=3000000 connect=0 read=2 write=1 status=0 timeout=3 "
      "latency_mean_us=1 latency_stdev_us=0 latency_max_us=1 p50_us=1 p75_us=1 p90_us=1 p99_us=1 ";
  std::string why;
  auto s = parse_wrk_summary(line + "due=600 waiting=4 in_flight=3\n", &why);
  REQUIRE(s);
  CHECK(s->replay);
  CHECK(s->due == 600);
  CHECK(s->waiting == 4);
  CHECK(s->in_flight == 3);
  // 590 + 2 + 1 + 4 + 3 = 600: every line due accounted for; the timeouts are among the 590.
  CHECK(replay_accounting_error(*s, 600).empty());
  CHECK(replay_accounting_error(*s, 601).find("601 lines") != std::string::npos);
  s->in_flight = 2;  // one request vanished
  CHECK(replay_accounting_error(*s, 600).find("not the 600 due") != std::string::npos);
  // All three or none.
  CHECK_FALSE(parse_wrk_summary(line + "due=600\n", &why));
  CHECK(why.find("waiting, in_flight") != std::string::npos);
  // wrk's line has none: not clerk-replay's.
  const auto w = parse_wrk_summary(line + "\n", &why);
  REQUIRE(w);
  CHECK_FALSE(w->replay);
  CHECK_FALSE(replay_accounting_error(*w, 0).empty());
}
