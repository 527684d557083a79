// Sweep specs: axis values, how axes combine, shards, and bad specs that are
// rejected before anything runs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

#include "cli/sweep/sweep_command.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_plan.h"
#include "cli/sweep/sweep_summary.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/result_json.h"
#include "models/scenario/units.h"

namespace fs = std::filesystem;
using namespace cli::sweep;

namespace {

const std::string kRoot = CLERK_SWEEP_SOURCE_DIR;
const std::string kThreads = kRoot + "/scenarios/nginx-9x/threads.toml";

std::vector<std::string> labels(const Axis& a) {
  std::vector<std::string> out;
  for (const auto& v : a.values) out.push_back(v.label);
  return out;
}

Axis axis(const std::string& text) {
  Axis a;
  a.key = "k";
  a.where = "--set";
  parse_axis_text(text, a);
  return a;
}

// The SweepError `--set text` raises, or "" when it is taken.
std::string error(const std::string& text) {
  try {
    axis(text);
  } catch (const SweepError& e) {
    return std::string(e.what());
  }
  return std::string();
}

SweepSpec inline_spec(const std::vector<std::string>& sets) {
  SweepSpec s;
  s.origin = kThreads;
  s.scenario = kThreads;
  for (const auto& x : sets) apply_set(s, x);
  return s;
}

std::string error_of(const SweepSpec& s) {
  try {
    make_plan(s);
  } catch (const SweepError& e) {
    return e.what();
  }
  return "";
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("clerk-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

}  // namespace

TEST_CASE("axis values: lists, steps, factors, strings and arrays", "[sweep][plan]") {
  CHECK(labels(axis("1,2,4")) == std::vector<std::string>{"1", "2", "4"});
  CHECK(labels(axis("1..64:*2")) == std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64"});
  CHECK(labels(axis("50..200:50")) == std::vector<std::string>{"50", "100", "150", "200"});
  CHECK(labels(axis("0.1..0.3:0.1")) == std::vector<std::string>{"0.1", "0.2", "0.3"});
  const Axis words = axis("off,threads");
  CHECK(labels(words) == std::vector<std::string>{"off", "threads"});
  CHECK_FALSE(words.values[0].numeric);
  CHECK(axis("2.0").values[0].toml == "2.0");  // stays a float for the scenario loader
  CHECK(axis("[64,32,32],[32,32,64]").values.size() == 2);
  const Axis continuous = axis("0.5..2");
  CHECK(continuous.continuous);
  CHECK_THROWS_AS(axis("4..1:1"), SweepError);
  CHECK_THROWS_AS(axis("1..4:0"), SweepError);
  CHECK_THROWS_AS(axis("1..x:1"), SweepError);
  CHECK_THROWS_AS(axis(""), SweepError);
  CHECK_THROWS_AS(axis("1,,2"), SweepError);
}

TEST_CASE("a grid crosses axes, the last one moving fastest, zip moves them together", "[sweep][plan]") {
  SweepSpec s = inline_spec({"nginx.thread_pool.threads=1,2,4", "clients.random.connections=100,200", "duration=1s"});
  const Plan grid = make_plan(s);
  REQUIRE(grid.points.size() == 6);
  CHECK(grid.axis_keys == std::vector<std::string>{"nginx.thread_pool.threads", "clients.random.connections"});
  CHECK(grid.points[1].values[0].label == "1");
  CHECK(grid.points[1].values[1].label == "200");
  CHECK(grid.points[2].values[0].label == "2");
  CHECK(grid.overrides(grid.points[5]) ==
        std::vector<std::string>{"duration='1s'", "nginx.thread_pool.threads=4", "clients.random.connections=200"});

  s = inline_spec({"nginx.thread_pool.threads=1,2", "clients.random.connections=100,200"});
  s.mode = Mode::kZip;
  const Plan zip = make_plan(s);
  REQUIRE(zip.points.size() == 2);
  CHECK(zip.points[1].values[0].label == "2");
  CHECK(zip.points[1].values[1].label == "200");
}

TEST_CASE("random sampling is repeatable and stays in range", "[sweep][plan]") {
  SweepSpec s = inline_spec({"nginx.thread_pool.threads=1..64", "clients.random.connections=50,100,200"});
  s.mode = Mode::kRandom;
  s.samples = 20;
  const Plan a = make_plan(s), b = make_plan(s);
  REQUIRE(a.points.size() == 20);
  std::set<std::string> threads;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    CHECK(a.points[i].values[0].label == b.points[i].values[0].label);
    const int t = std::stoi(a.points[i].values[0].label);
    CHECK(t >= 1);
    CHECK(t <= 64);
    threads.insert(a.points[i].values[0].label);
  }
  CHECK(threads.size() > 5);  // really drawn, not one value
  CHECK(a.fingerprint == b.fingerprint);
  s.sample_seed = 2;
  CHECK(make_plan(s).fingerprint != a.fingerprint);
}

TEST_CASE("shards split the runs into disjoint parts that cover the sweep", "[sweep][plan]") {
  SweepSpec s = inline_spec({"nginx.thread_pool.threads=1,2,4,8", "clients.random.connections=100,200"});
  s.seeds = {1, 2, 3};
  const Plan plan = make_plan(s);
  REQUIRE(plan.total_runs() == 24);
  std::set<std::uint64_t> seen;
  for (std::uint64_t i = 1; i <= 3; ++i) {
    for (const RunRef& r : plan.runs(Shard{i, 3})) {
      CHECK(seen.insert(r.id).second);
      CHECK(r.point % 3 == i - 1);  // a point's seeds stay in one shard
    }
  }
  CHECK(seen.size() == 24);
  CHECK(parse_shard("2/3").index == 2);
  CHECK_THROWS_AS(parse_shard("0/3"), SweepError);
  CHECK_THROWS_AS(parse_shard("4/3"), SweepError);
  CHECK_THROWS_AS(parse_shard("x"), SweepError);
}

TEST_CASE("bad axes are rejected before anything runs, naming the axis", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  CHECK_THAT(error_of(inline_spec({"nginx.thread_pool.thread=1,2"})),
             Contains("axis 'nginx.thread_pool.thread'") && Contains("unknown key") && Contains("did you mean 'threads'"));
  CHECK_THAT(error_of(inline_spec({"nginx.thread_pool.threads=1,many"})),
             Contains("axis 'nginx.thread_pool.threads'") && Contains("must be a whole number"));
  CHECK_THAT(error_of(inline_spec({"nginx.worker_processes=4,0"})),
             Contains("axis 'nginx.worker_processes'") && Contains("between"));
  CHECK_THAT(error_of(inline_spec({"nginx.aio=off,sometimes"})), Contains("axis 'nginx.aio'"));
  // Fine alone, wrong together: fewer connections than wrk threads.
  CHECK_THAT(error_of(inline_spec({"clients.constant.connections=50,20", "clients.constant.threads=12,30"})),
             Contains("point 3") && Contains("connections=20, clients.constant.threads=30") && Contains("at least threads"));
  SweepSpec s = inline_spec({"nginx.thread_pool.threads=1,2"});
  s.metrics = {"clients.constant.latency_s.p99", "clients.constant.latency_s.p42"};
  CHECK_THAT(error_of(s), Contains("metric 'clients.constant.latency_s.p42'"));
  CHECK_THROWS_AS(inline_spec({"nginx.thread_pool.threads="}), SweepError);
}

TEST_CASE("spec files: errors name the file, the line and the axis", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  TempDir dir("sweep-spec");
  auto read_error = [&](const std::string& text) {
    const std::string path = dir.write("s.toml", text);
    try {
      make_plan(read_spec(path));
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string head = "[sweep]\nscenario = \"" + kThreads + "\"\n";
  CHECK_THAT(read_error(head + "\n[[axis]]\nkey = \"nginx.thread_pool.threads\"\nvalues = []\n"),
             Contains("s.toml:6") && Contains("axis 'nginx.thread_pool.threads'") && Contains("no values"));
  CHECK_THAT(read_error(head + "\n[[axis]]\nkey = \"nginx.thread_pool.threads\"\nvalues = [1, \"two\"]\n"),
             Contains("s.toml:5") && Contains("axis 'nginx.thread_pool.threads'") && Contains("whole number"));
  CHECK_THAT(read_error(head + "seed = 3\n"), Contains("s.toml:3") && Contains("unknown key") && Contains("'seeds'"));
  CHECK_THAT(read_error(head + "\n[[axis]]\nkey = \"nginx.thread_pool.threads\"\nrange = \"1..8\"\n"),
             Contains("axis 'nginx.thread_pool.threads'") && Contains("random"));
  CHECK_THAT(read_error("[sweep]\nscenario = \"nowhere.toml\"\n"), Contains("cannot read"));
  // A range with no '..' (fuzz_sweep's finding: std::out_of_range from substr).
  for (const char* bad : {"", "8", ":2"})
    CHECK_THAT(read_error(head + "\n[[axis]]\nkey = \"nginx.thread_pool.threads\"\nrange = \"" + bad + "\"\n"),
               Contains("axis 'nginx.thread_pool.threads'") && Contains("no '..'"));
  CHECK(read_error(head + "seeds = 2\n\n[[axis]]\nkey = \"nginx.thread_pool.threads\"\nrange = \"1..8:*2\"\n").empty());
}

TEST_CASE("clerk sweep exits with 2 and writes nothing for a bad spec", "[sweep][plan]") {
  TempDir dir("sweep-bad");
  SweepArgs args;
  args.file = kThreads;
  args.sets = {"nginx.thread_pool.threads=1,2", "clients.random.conections=10,20"};
  args.out = (dir.path / "out.csv").string();
  args.quiet = true;
  CHECK(sweep_command(args) == 2);
  CHECK_FALSE(fs::exists(dir.path / "out.csv"));
  CHECK_FALSE(fs::exists(dir.path / "out.jsonl"));
  args.sets = {"nginx.thread_pool.threads=1,2"};
  args.shard = "3/2";
  CHECK(sweep_command(args) == 2);
  CHECK(fs::is_empty(dir.path));
}

TEST_CASE("sweep --metrics picks the table's columns by path or unique ending, unknown names list the valid ones") {
  const std::vector<std::string> metrics = main_metrics({"constant", "random"});
  using Catch::Matchers::Contains;
  CHECK(table_columns(metrics, "") == std::vector<std::size_t>{0, 1, 2});
  const auto nic = static_cast<std::size_t>(
      std::find(metrics.begin(), metrics.end(), "server.nic_out_gbps_mean") - metrics.begin());
  CHECK(table_columns(metrics, "nic_out_gbps_mean,clients.random.latency_s.p99,constant.requests_per_s") ==
        std::vector<std::size_t>{nic, 5, 0});
  CHECK(table_columns(metrics, "server.disk.utilization") == std::vector<std::size_t>{metrics.size() - 1});
  // Unknown: named, with every valid metric listed.
  CHECK_THROWS_WITH(table_columns(metrics, "requests_per_s,bogus"),
                    Contains("--metrics: 'requests_per_s': names more than one metric") &&
                        Contains("clients.constant.requests_per_s") && Contains("server.disk.utilization"));
  CHECK_THROWS_WITH(table_columns(metrics, "bogus"), Contains("--metrics: 'bogus': is not one of this sweep's metrics") &&
                                                         Contains("server.page_cache.hit_ratio"));
  // A part of a name is not an ending after a dot.
  CHECK_THROWS_AS(table_columns(metrics, "utilization.x"), SweepError);
  CHECK_THROWS_AS(table_columns(metrics, "ilization"), SweepError);
  CHECK_THROWS_AS(table_columns(metrics, "p99,"), SweepError);
}

TEST_CASE("clerk sweep --metrics with an unknown name exits 2 before anything runs") {
  SweepArgs args;
  args.file = kThreads;
  args.sets = {"nginx.thread_pool.threads=8,16", "duration=1s"};
  args.table_metrics = "latency_s.p99x";
  args.out = (fs::temp_directory_path() / ("clerk-metrics-" + std::to_string(getpid()) + ".csv")).string();
  CHECK(sweep_command(args) == 2);
  CHECK_FALSE(fs::exists(args.out));
}

TEST_CASE("the hardware axis swaps the profile the scenario includes, and is no override", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  const std::string ssd = kRoot + "/scenarios/hardware/edge-sata-ssd.toml";
  const std::string raid1 = kRoot + "/scenarios/hardware/edge-sata-ssd-raid1.toml";
  const Plan plan = make_plan(inline_spec({"hardware=" + ssd + "," + raid1, "nginx.thread_pool.threads=8,16"}));
  REQUIRE(plan.points.size() == 4);
  CHECK(plan.hardware(plan.points[0]) == ssd);
  CHECK(plan.hardware(plan.points[3]) == raid1);
  // The overrides hold the scenario keys only: the profile goes to the loader's `hardware`.
  CHECK(plan.overrides(plan.points[3]) == std::vector<std::string>{"nginx.thread_pool.threads=16"});
  // Without a hardware axis a point keeps the scenario's own machine.
  const Plan own = make_plan(inline_spec({"nginx.thread_pool.threads=8"}));
  CHECK(own.hardware(own.points[0]).empty());
  // A missing profile is refused before anything runs, naming the axis.
  CHECK_THAT(error_of(inline_spec({"hardware=" + kRoot + "/scenarios/hardware/no-such.toml"})),
             Contains("axis 'hardware'") && Contains("no-such.toml"));
}

TEST_CASE("a repeated seed is refused: the same run twice is no second sample (probe 5, finding 10)", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(parse_seeds("1,1,1", "--seeds"), Contains("--seeds: seeds: seed 1 is given twice"));
  CHECK_THROWS_WITH(parse_seeds("1,2,3,2", "--seeds"), Contains("seed 2 is given twice"));
  CHECK(parse_seeds("1,2,3", "--seeds") == std::vector<std::uint64_t>{1, 2, 3});
  CHECK(parse_seeds("3", "--seeds") == std::vector<std::uint64_t>{1, 2, 3});
  // A spec file's list, at its line.
  TempDir dir("sweep-seeds");
  const std::string path =
      dir.write("s.toml", "[sweep]\nscenario = \"" + kThreads + "\"\nseeds = [4, 5, 4]\n");
  CHECK_THROWS_WITH(read_spec(path), Contains("s.toml:3: key 'sweep.seeds': seed 4 is given twice"));
  // clerk sweep: exit 2, nothing written.
  SweepArgs args;
  args.file = kThreads;
  args.sets = {"nginx.thread_pool.threads=1,2"};
  args.seeds = "1,1,1";
  args.out = (dir.path / "out.csv").string();
  args.quiet = true;
  CHECK(sweep_command(args) == 2);
  CHECK_FALSE(fs::exists(dir.path / "out.csv"));
}

TEST_CASE("a repeated axis value is refused, compared as loaded (probe 5, finding 10)", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  CHECK_THAT(error_of(inline_spec({"nginx.aio=off,off"})),
             Contains("--set: axis 'nginx.aio': value off is given twice"));
  CHECK_THAT(error_of(inline_spec({"nginx.thread_pool.threads=1,2,4,2"})),
             Contains("axis 'nginx.thread_pool.threads': value 2 is given twice"));
  // As loaded: 'off' and "off" are one string.
  CHECK_THAT(error_of(inline_spec({"nginx.aio='off',\"off\""})), Contains("value off is given twice"));
  // A hardware profile named twice, or as P and dir/../P.
  const std::string ssd = kRoot + "/scenarios/hardware/edge-sata-ssd.toml";
  const std::string again = kRoot + "/scenarios/hardware/../hardware/edge-sata-ssd.toml";
  CHECK_THAT(error_of(inline_spec({"hardware=" + ssd + "," + ssd})), Contains("axis 'hardware'") && Contains("given twice"));
  CHECK_THAT(error_of(inline_spec({"hardware=" + ssd + "," + again})),
             Contains("axis 'hardware'") && Contains("given twice (the same as " + ssd + " once loaded)"));
  // Zipped axes may repeat a value beside different partners; a repeated pair is refused.
  SweepSpec zip = inline_spec({"nginx.thread_pool.threads=1,1,2", "clients.random.connections=100,200,100"});
  zip.mode = Mode::kZip;
  CHECK(make_plan(zip).points.size() == 3);
  zip = inline_spec({"nginx.thread_pool.threads=1,2,1", "clients.random.connections=100,200,100"});
  zip.mode = Mode::kZip;
  CHECK_THAT(error_of(zip), Contains("point 2") && Contains("repeats point 0"));
  // Distinct values as before.
  CHECK(error_of(inline_spec({"nginx.aio=off,threads", "hardware=" + ssd})).empty());
}

TEST_CASE("a range of sizes steps in whole bytes and gives the values a list of sizes gives (probe 5)", "[sweep][plan]") {
  CHECK(labels(axis("16m..64m:16m")) == std::vector<std::string>{"16m", "32m", "48m", "64m"});
  CHECK(labels(axis("512k..2m:512k")) == std::vector<std::string>{"512k", "1m", "1536k", "2m"});
  CHECK(labels(axis("1m..8m:*2")) == std::vector<std::string>{"1m", "2m", "4m", "8m"});
  CHECK(labels(axis("1g..3g:1g")) == std::vector<std::string>{"1g", "2g", "3g"});
  CHECK(labels(axis("4000..4k:96")) == std::vector<std::string>{"4000", "4k"});  // a bare end is bytes
  CHECK(labels(axis("1m..2m:600k")) == std::vector<std::string>{"1m", "1624k"});  // never past the high end
  const Axis range = axis("16m..32m:16m"), list = axis("16m,32m");
  REQUIRE(range.values.size() == list.values.size());
  for (std::size_t i = 0; i < list.values.size(); ++i) {
    CHECK(range.values[i].toml == list.values[i].toml);
    CHECK(range.values[i].numeric == list.values[i].numeric);
  }
  // Without a step: whole bytes, for random sampling.
  const Axis sampled = axis("16m..128m");
  CHECK(sampled.continuous);
  CHECK(sampled.integer);
  CHECK(sampled.lo == 16.0 * 1024 * 1024);
  CHECK(sampled.hi == 128.0 * 1024 * 1024);
  using Catch::Matchers::Contains;
  CHECK_THAT(error("128m..16m:16m"), Contains("the low end is above the high end"));
  CHECK_THAT(error("16m..128m:0"), Contains("the step must be above 0"));
  CHECK_THAT(error("16m..128m:*1.5"), Contains("factor of a range of sizes must be a whole number above 1"));
  CHECK_THAT(error("16m..128m:1"), Contains("more than 100000 values"));
  CHECK_THAT(error("0x10m..128m:16m"), Contains("'0x10m' is not a size"));
  CHECK_THAT(error("16m..128q:16m"), Contains("'128q' is not a size"));
  CHECK_THAT(error("16m..128m:16q"), Contains("the step '16q' is not a size"));
  CHECK_THAT(error("16m..16p"), Contains("'16p' is not a size"));
  CHECK_THAT(error("-1m..16m:1m"), Contains("'-1m' is not a size"));
  CHECK_THAT(error("16m..inf:1m"), Contains("'inf' is not a size"));
  // A sweep of the page cache's size plans and loads every value.
  const Plan plan = make_plan(inline_spec({"memory.page_cache=16m..64m:16m", "duration=1s"}));
  REQUIRE(plan.points.size() == 4);
  CHECK(plan.overrides(plan.points[3]).back() == "memory.page_cache='64m'");
}

TEST_CASE("a sweep ranges over times and rates with units, as it does over sizes (probe 6)", "[sweep][plan]") {
  using V = std::vector<std::string>;
  CHECK(labels(axis("50ms..70ms:10ms")) == V{"50ms", "60ms", "70ms"});
  CHECK(labels(axis("0.05s..0.07s:0.01s")) == V{"50ms", "60ms", "70ms"});  // the unit that reads best
  CHECK(labels(axis("500ms..2s:500ms")) == V{"500ms", "1s", "1.5s", "2s"});
  CHECK(labels(axis("0..100ms:50ms")) == V{"0s", "50ms", "100ms"});     // a bare end is seconds
  CHECK(labels(axis("100us..1ms:*10")) == V{"100us", "1ms"});
  CHECK(labels(axis("1m..2m:30s")) == V{"60s", "90s", "120s"});          // a time step: minutes, not mebibytes
  CHECK(labels(axis("1Gbit/s..2Gbit/s:*2")) == V{"1Gbit/s", "2Gbit/s"});
  CHECK(labels(axis("1Gbit/s..2Gbit/s:500Mbit/s")) == V{"1Gbit/s", "1.5Gbit/s", "2Gbit/s"});
  CHECK(labels(axis("100MB/s..400MB/s:+100MB/s")) == V{"100MB/s", "200MB/s", "300MB/s", "400MB/s"});
  CHECK(labels(axis("100MB/s..1GB/s:*10")) == V{"100MB/s", "1GB/s"});
  CHECK(labels(axis("500KB/s..2MB/s:*2")) == V{"500KB/s", "1MB/s", "2MB/s"});
  CHECK(labels(axis("1Gbit/s..250MB/s:1Gbit/s")) == V{"1Gbit/s", "2Gbit/s"});  // counted in the low end's bits
  // The values a list of the same times or rates gives.
  for (const auto& [range, list] : {std::pair{"50ms..60ms:10ms", "50ms,60ms"}, {"1Gbit/s..2Gbit/s:*2", "1Gbit/s,2Gbit/s"}}) {
    const Axis r = axis(range), l = axis(list);
    REQUIRE(r.values.size() == l.values.size());
    for (std::size_t i = 0; i < l.values.size(); ++i) {
      CHECK(r.values[i].toml == l.values[i].toml);
      CHECK(r.values[i].numeric == l.values[i].numeric);
    }
  }
  // Sizes and numbers as before: "1m..2m" is mebibytes, bare seconds stay numbers.
  CHECK(axis("1m..2m").lo == 1024.0 * 1024);
  CHECK(axis("1m..2m").quantity == Quantity::kNone);
  CHECK(labels(axis("0.05..0.07:0.01")) == V{"0.05", "0.06", "0.07"});
  // Without a step: the ends in seconds or bytes (bits) per second, for random sampling.
  const Axis times = axis("50ms..2s"), rates = axis("1Gbit/s..10Gbit/s");
  CHECK((times.continuous && times.quantity == Quantity::kTime && times.lo == 0.05 && times.hi == 2));
  CHECK((rates.continuous && rates.quantity == Quantity::kBitRate && rates.lo == 1e9 && rates.hi == 1e10));
  CHECK(quantity_value(Quantity::kTime, 0.0571234567, 6).label == "57.1235ms");
  CHECK(quantity_value(Quantity::kByteRate, 1.25e8).label == "125MB/s");

  using Catch::Matchers::Contains;
  using Catch::Matchers::StartsWith;
  CHECK_THAT(error("1Gbit/s..2s"), StartsWith("--set: axis 'k': bad range '1Gbit/s..2s': '1Gbit/s' is a rate and '2s' a time: "
                                               "both ends must be of one kind"));
  CHECK_THAT(error("16k..2s:1s"), Contains("'16k' is a size and '2s' a time"));
  CHECK_THAT(error("50ms..70ms:1MB/s"), Contains("the step '1MB/s' is a rate, not a time"));
  CHECK_THAT(error("1Gbit/s..2Gbit/s:10ms"), Contains("the step '10ms' is a time, not a rate"));
  CHECK_THAT(error("1Gbit/s..2Gbit/s:100"), Contains("the step '100' is not a rate"));
  CHECK_THAT(error("1Gbit/s..4Gbit/s:*2Gbit/s"), Contains("the factor '2Gbit/s' must be a number above 1"));
  CHECK_THAT(error("50ms..70ms:*1"), Contains("the factor '1' must be a number above 1"));
  CHECK_THAT(error("0..1Gbit/s:1Gbit/s"), Contains("'0' is not a rate"));
  CHECK_THAT(error("70ms..50ms:10ms"), Contains("the low end is above the high end"));
  CHECK_THAT(error("50ms..70ms:0s"), Contains("the step must be above 0"));
  CHECK_THAT(error("0s..1s:1ns"), Contains("more than 100000 values"));
  CHECK_THAT(error("0s..1s:*2"), Contains("a geometric range must start above 0"));
  for (const char* bad : {"1e3ms", "0xAms", "-1ms", "1.5 ms", "+1ms", "infms", "1e-400s"})
    CHECK_THAT(error(std::string(bad) + "..2s:1s"), Contains("'" + std::string(bad) + "' is not a time"));
  CHECK_THAT(error("1Gbit/s..2Gbps:1Gbit/s"), Contains("'2Gbps' is not a rate"));

  // In a plan every value is loaded: written back as the keys take them.
  const Plan plan = make_plan(inline_spec({"nic.line_rate=1Gbit/s..4Gbit/s:*2", "warmup=0s..100ms:50ms", "duration=1s"}));
  REQUIRE(plan.points.size() == 9);
  CHECK(plan.overrides(plan.points[5]) == V{"duration='1s'", "nic.line_rate='2Gbit/s'", "warmup='100ms'"});
  // A value out of the key's range names the axis and the value.
  CHECK_THAT(error_of(inline_spec({"nic.line_rate=1kbit/s..2kbit/s:1kbit/s"})),
             StartsWith("--set: axis 'nic.line_rate': value '1kbit/s': ") && Contains("must be"));
  // Probe 8, minor 1: geometric ranges of times are in whole nanoseconds
  // too (a factor of 1.0000000001 gave labels 0.1 ns apart that ran alike;
  // 1ns..10ns:*1.5 gave 1.5ns, 2.25ns...), and a factor too small for them
  // is refused as a step is.
  CHECK(labels(axis("1ns..10ns:*2")) == V{"1ns", "2ns", "4ns", "8ns"});
  CHECK_THAT(error("1ns..10ns:*1.5"), Contains("too small for values of this size: two of them read 2ns"));
  CHECK_THAT(error("1s..1.0000001s:*1.0000000001"), Contains("too small for values of this size"));
  // Drawn times are whole nanoseconds, and a narrow range of rates keeps
  // its digits (six made 1Gbit/s..1.000001Gbit/s all "1Gbit/s").
  SweepSpec narrow = inline_spec({"warmup=1s..1.000000003s", "nic.line_rate=1Gbit/s..1.000001Gbit/s", "duration=1s"});
  narrow.mode = Mode::kRandom;
  narrow.samples = 8;
  const Plan narrow_plan = make_plan(narrow);
  std::set<std::string> warmups, drawn_rates;
  for (const Point& p : narrow_plan.points) {
    const std::vector<std::string> o = narrow_plan.overrides(p);
    REQUIRE(o.size() == 3);
    // Overrides in the axes' order: duration, warmup, nic.line_rate.
    warmups.insert(o[1]);
    drawn_rates.insert(o[2]);
    double w = 0;
    const std::string warm = o[1].substr(o[1].find('=') + 2);
    REQUIRE(models::parse_duration(warm.substr(0, warm.size() - 1), w));
    const long long ns = std::llround(w * 1e9);
    CHECK((ns >= 1000000000 && ns <= 1000000003));
    CHECK(std::abs(w * 1e9 - static_cast<double>(ns)) < 1e-3);
  }
  CHECK(warmups.size() > 1);
  CHECK(drawn_rates.size() > 1);

  // Sampled: each draw a time or rate with its unit, within the ends.
  SweepSpec sampled = inline_spec({"nic.line_rate=1Gbit/s..10Gbit/s", "warmup=50ms..2s", "duration=1s"});
  sampled.mode = Mode::kRandom;
  sampled.samples = 4;
  const Plan drawn = make_plan(sampled);
  REQUIRE(drawn.points.size() == 4);
  for (const Point& p : drawn.points) {
    const std::vector<std::string> o = drawn.overrides(p);
    REQUIRE(o.size() == 3);
    double bps = 0, s = 0;
    const std::string rate = o[1].substr(o[1].find('=') + 2), warm = o[2].substr(o[2].find('=') + 2);
    CHECK(models::parse_rate(rate.substr(0, rate.size() - 1), bps));
    CHECK(models::parse_duration(warm.substr(0, warm.size() - 1), s));
    CHECK((bps * 8 >= 1e9 && bps * 8 <= 1e10));
    CHECK((s >= 0.05 && s <= 2));
  }
}

// Probe 7, finding 7: a range in 1 ns steps far from 0 wrote four distinct
// runs alike ("1000s", refused as given twice), or lost its last value to
// the rounding of hi - lo. Times are counted in the clock's whole
// nanoseconds and written with the digits they need.
TEST_CASE("a range of times counts whole nanoseconds and writes each value as itself", "[sweep][plan]") {
  using V = std::vector<std::string>;
  CHECK(labels(axis("1000s..1000.000000003s:1ns")) ==
        V{"1000s", "1000.000000001s", "1000.000000002s", "1000.000000003s"});
  CHECK(labels(axis("0.1s..0.100000003s:1ns")) == V{"100ms", "100.000001ms", "100.000002ms", "100.000003ms"});
  CHECK(labels(axis("1000000000ns..1000000003ns:1ns")) == V{"1s", "1.000000001s", "1.000000002s", "1.000000003s"});
  CHECK(labels(axis("50ms..70ms:10ms")) == V{"50ms", "60ms", "70ms"});  // as before
  using Catch::Matchers::Contains;
  CHECK_THAT(error("1s..2s:0.5ns"), Contains("the step '0.5ns' is under 1ns, the clock's tick"));
  // Rates are not whole: a step too small for the values' digits is said so.
  CHECK_THAT(error("1TB/s..1.000000000002TB/s:1B/s"), Contains("the step '1B/s' is too small for values of this size"));
}

TEST_CASE("a sweep spec's axes take ranges of times and rates (probe 6)", "[sweep][plan]") {
  TempDir dir("sweep-units");
  const std::string path = dir.write("s.toml", "[sweep]\nscenario = \"" + kThreads +
                                                   "\"\nset = [\"duration=1s\"]\n\n[[axis]]\nkey = \"nic.line_rate\"\n"
                                                   "range = \"100MB/s..400MB/s:+100MB/s\"\n\n[[axis]]\nkey = \"warmup\"\n"
                                                   "range = \"50ms..70ms:10ms\"\n");
  const SweepSpec spec = read_spec(path);
  REQUIRE(spec.axes.size() == 2);
  CHECK(labels(spec.axes[0]) == std::vector<std::string>{"100MB/s", "200MB/s", "300MB/s", "400MB/s"});
  CHECK(labels(spec.axes[1]) == std::vector<std::string>{"50ms", "60ms", "70ms"});
  CHECK(make_plan(spec).points.size() == 12);
  const std::string bad = dir.write("bad.toml", "[sweep]\nscenario = \"" + kThreads +
                                                    "\"\n\n[[axis]]\nkey = \"warmup\"\nrange = \"1Gbit/s..2s:1s\"\n");
  try {
    read_spec(bad);
    FAIL("a range of a rate and a time was taken");
  } catch (const SweepError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Matchers::StartsWith(bad + ":6: axis 'warmup': bad range '1Gbit/s..2s:1s'") &&
                                          Catch::Matchers::Contains("both ends must be of one kind"));
  }
}

TEST_CASE("a grid too large is refused from the axes' lengths, before any value is loaded (probe 5)", "[sweep][plan]") {
  using Catch::Matchers::Contains;
  // 0 threads is a bad value: loading the values first named it, after
  // loading 65,536 of them; the size is known without loading any.
  CHECK_THAT(error_of(inline_spec({"nginx.thread_pool.threads=0..65535:1", "clients.random.connections=1..65536:1"})),
             Contains("the grid has more than 10 million points"));
  SweepSpec s = inline_spec({"nginx.thread_pool.threads=0..9999:1", "clients.random.connections=1..10000:1"});
  CHECK_THAT(error_of(s), Contains("the grid has more than 10 million points"));
  s = inline_spec({"nginx.thread_pool.threads=0..999:1", "clients.random.connections=1..1000:1"});
  s.seeds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  CHECK_THAT(error_of(s), Contains("runs (points x seeds) is more than the cap"));
  // Within the caps, the values are loaded as before: the bad one is named.
  CHECK_THAT(error_of(inline_spec({"nginx.thread_pool.threads=0..3:1"})),
             Contains("axis 'nginx.thread_pool.threads'") && Contains("value 0"));
}

TEST_CASE("a metric only some points write is kept, one no point writes is refused, whatever the base (probe 5)",
          "[sweep][plan]") {
  using Catch::Matchers::Contains;
  // O_DIRECT's reads are a figure of the runs with nginx.directio only.
  SweepSpec s = inline_spec({"nginx.directio=off,4k", "duration=1s"});
  s.metrics = {"server.page_cache.direct.reads", "clients.random.requests_per_s"};
  CHECK(error_of(s).empty());
  // Every shard agrees: the point with directio is in the other one.
  CHECK_NOTHROW(make_plan(s, Shard{1, 2}));
  // Figures per pool: a base with three pools that aio threads posts to,
  // whose points all turn aio threads off: no run writes them (the base's
  // own configuration made them pass before).
  SweepSpec off;
  off.origin = off.scenario = kRoot + "/scenarios/alternatives/proxy-three-disks.toml";
  apply_set(off, "nginx.aio=off,on");
  off.metrics = {"server.thread_pool.per_pool.pool_1.tasks"};
  CHECK_THAT(error_of(off), Contains("metric 'server.thread_pool.per_pool.pool_1.tasks'") && Contains("any point's run"));
  // ... and with one point that keeps aio threads, it is kept.
  apply_set(off, "nginx.aio=off,\"threads=pool_$disk\"");
  CHECK(error_of(off).empty());
  // Figures of every run, and unknown paths, as before.
  s.metrics = {"clients.random.latency_s.p42"};
  CHECK_THAT(error_of(s), Contains("metric 'clients.random.latency_s.p42'"));
}

namespace {
// The dotted paths of `j`'s objects' keys, into objects only (an array's
// length is the run's: workers, drives), leaving out objects whose keys are
// the run's own (server.requests.failed: the reasons that happened) or the
// engine's (a client group's stages: the native engine's clocks, which the
// sweep checks against its probe run, not the skeleton).
void object_paths(const nlohmann::ordered_json& j, const std::string& at, std::set<std::string>& out) {
  const bool stages = at.starts_with("clients.") && at.ends_with(".stages");
  if (!j.is_object() || at == "server.requests.failed" || stages) return;
  for (const auto& [key, value] : j.items()) {
    const std::string path = at.empty() ? key : at + "." + key;
    out.insert(path);
    object_paths(value, path, out);
  }
}

std::set<std::string> object_paths(const nlohmann::ordered_json& j) {
  std::set<std::string> out;
  object_paths(j, "", out);
  return out;
}

// The paths of `a` that `b` lacks.
std::vector<std::string> only_in(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The JSON of a short run of `file` with `sets`, without its warm-up.
nlohmann::ordered_json short_run(const std::string& file, const std::vector<std::string>& sets, double seconds) {
  models::Scenario sc = models::load_scenario(file, sets);
  sc.warmup = models::WarmupSpec{false, 0, 0};
  return models::to_json(engines::run_scenario(sc, {sc.seed, seconds, engines::Engine::kNative, {}}), false);
}
}  // namespace

TEST_CASE("json_skeleton has exactly the keys a run's JSON has, sections of some configurations included (sweep, probe 5)",
          "[sweep][plan]") {
  struct Case {
    std::string file;
    std::vector<std::string> sets;
  };
  const std::string slow = kRoot + "/scenarios/agreement/slow-disk.toml";
  const std::string three = kRoot + "/scenarios/alternatives/proxy-three-disks.toml";
  const std::vector<Case> cases = {
      {slow, {}},                                      // no configuration-dependent section
      {slow, {"nginx.directio=8g"}},                   // directio above every file: no direct read, the section still
      {slow, {"nginx.directio=4k"}},                   // direct reads
      {kRoot + "/scenarios/alternatives/io-uring.toml", {}},         // read paths, the ring
      {kRoot + "/scenarios/alternatives/probe-threads.toml", {}},    // read paths, aio_nowait
      {three, {}},                                     // per pool, per disk
      {three, {"nginx.aio=off"}},                      // per disk, no pool figures
  };
  for (const Case& c : cases) {
    CAPTURE(c.file, c.sets);
    const models::Scenario sc = models::load_scenario(c.file, c.sets);
    const nlohmann::ordered_json run = short_run(c.file, c.sets, 0.05);
    const std::set<std::string> skeleton = object_paths(models::json_skeleton(sc)), written = object_paths(run);
    CHECK(only_in(skeleton, written) == std::vector<std::string>{});  // a metric the check passes that no run writes
    CHECK(only_in(written, skeleton) == std::vector<std::string>{});  // a figure the run writes that the check refuses
  }
  // The direct section whenever directio is set, zeros included (probe 5:
  // directio=4g,8g passed the sweep's check and every row was empty).
  const nlohmann::ordered_json zero = short_run(slow, {"nginx.directio=8g"}, 0.05);
  CHECK(models::json_metric(zero, "server.page_cache.direct.reads") == 0.0);
  const nlohmann::ordered_json some = short_run(slow, {"nginx.directio=4k"}, 0.05);
  CHECK(models::json_metric(some, "server.page_cache.direct.reads") > 0.0);
}
