// Whole sweeps: the same rows whole or as shards merged, with any -j; resume
// after a kill neither repeats nor loses a run; plots are drawn.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <iostream>

#include "cli/sweep/plot_command.h"
#include "cli/sweep/plot_script.h"
#include "cli/sweep/sweep_stats.h"
#include "cli/sweep/sweep_command.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_rows.h"
#include "cli/sweep/sweep_runner.h"
#include "common/child_process.h"
#include "models/scenario/resource_estimate.h"

namespace fs = std::filesystem;
using namespace cli::sweep;

namespace {

const std::string kRoot = CLERK_SWEEP_SOURCE_DIR;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("clerk-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  return out;
}

// The 9x threads scenario on a small data set, so each 1 s run takes milliseconds.
std::string small_scenario(const TempDir& dir) {
  spill(dir / "small.toml", "include = \"" + kRoot + "/scenarios/nginx-9x/threads.toml\"\n"
                            "duration = \"1s\"\n[dataset]\nfiles = 512\ntree = [8, 8, 8]\n");
  return dir / "small.toml";
}

SweepArgs small_sweep(const TempDir& dir, const std::string& out) {
  SweepArgs a;
  a.file = small_scenario(dir);
  a.sets = {"nginx.thread_pool.threads=1,4,16", "clients.random.connections=20,80"};
  a.seeds = "2";
  a.out = dir / out;
  a.jobs = 2;
  a.quiet = true;
  return a;
}

// A scenario of two files: the small one and a machine part it includes,
// which sets the CPU time of a request (the profile's is 17 us).
std::string two_file_scenario(const TempDir& dir, int request_us, const std::string& machine = "machine.toml") {
  spill(dir / machine, "[cpu]\nrequest = \"" + std::to_string(request_us) + "us\"\n");
  spill(dir / "top.toml", "include = [\"" + kRoot + "/scenarios/nginx-9x/threads.toml\", \"" + machine + "\"]\n" +
                              "duration = \"1s\"\n[dataset]\nfiles = 512\ntree = [8, 8, 8]\n");
  return dir / "top.toml";
}

// The status of a sweep command and what it printed on stderr.
template <typename Args, typename Command>
std::pair<int, std::string> status_and_error(Command command, const Args& args) {
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  const int status = command(args);
  std::cerr.rdbuf(old);
  return {status, err.str()};
}

}  // namespace

TEST_CASE("a sweep run whole and as three merged shards gives the same rows", "[sweep][run]") {
  TempDir dir("sweep-shards");
  REQUIRE(sweep_command(small_sweep(dir, "whole.csv")) == 0);
  const auto whole = lines_of(slurp(dir / "whole.csv"));
  REQUIRE(whole.size() == 1 + 12);  // header + 6 points x 2 seeds
  CHECK(whole[0].rfind("sweep,run,point,nginx.thread_pool.threads,clients.random.connections,seed,", 0) == 0);

  MergeArgs merge;
  for (int i = 1; i <= 3; ++i) {
    SweepArgs part = small_sweep(dir, "part" + std::to_string(i) + ".csv");
    part.shard = std::to_string(i) + "/3";
    part.jobs = 1;
    REQUIRE(sweep_command(part) == 0);
    CHECK(lines_of(slurp(dir / ("part" + std::to_string(i) + ".csv"))).size() == 1 + 4);
    merge.inputs.push_back(dir / ("part" + std::to_string(i) + ".csv"));
  }
  merge.out = dir / "merged.csv";
  REQUIRE(merge_command(merge) == 0);
  CHECK(slurp(dir / "merged.csv") == slurp(dir / "whole.csv"));
  CHECK(slurp(dir / "merged.summary.csv") == slurp(dir / "whole.summary.csv"));

  // The JSON Lines outputs merge the same way.
  for (auto& in : merge.inputs) in.replace(in.size() - 4, 4, ".jsonl");
  merge.out = dir / "merged2.jsonl";
  REQUIRE(merge_command(merge) == 0);
  CHECK(slurp(dir / "merged2.jsonl") == slurp(dir / "whole.jsonl"));

  // Parts of different sweeps do not merge.
  SweepArgs other = small_sweep(dir, "other.csv");
  other.sets[0] = "nginx.thread_pool.threads=2,4,16";
  other.shard = "1/3";
  REQUIRE(sweep_command(other) == 0);
  merge.inputs = {dir / "part2.csv", dir / "other.csv"};
  merge.out = dir / "mixed.csv";
  CHECK(merge_command(merge) == 2);
  CHECK_FALSE(fs::exists(dir / "mixed.csv"));
}

TEST_CASE("output does not depend on the number of threads", "[sweep][run]") {
  TempDir dir("sweep-jobs");
  SweepArgs one = small_sweep(dir, "one.csv");
  one.jobs = 1;
  SweepArgs three = small_sweep(dir, "three.csv");
  three.jobs = 3;
  REQUIRE(sweep_command(one) == 0);
  REQUIRE(sweep_command(three) == 0);
  CHECK(slurp(dir / "one.csv") == slurp(dir / "three.csv"));
  CHECK(slurp(dir / "one.jsonl") == slurp(dir / "three.jsonl"));
  // The JSON Lines rows read back as the CSV rows.
  CHECK(read_rows(dir / "one.jsonl").rows == read_rows(dir / "one.csv").rows);
}

TEST_CASE("resume after a kill neither repeats nor loses runs", "[sweep][run]") {
  TempDir dir("sweep-resume");
  REQUIRE(sweep_command(small_sweep(dir, "whole.csv")) == 0);
  const auto csv = lines_of(slurp(dir / "whole.csv"));
  const auto jsonl = lines_of(slurp(dir / "whole.jsonl"));

  // Killed half way: five rows done, the sixth cut mid-line in the CSV and
  // whole in the JSON Lines (the kill fell between the two writes). Run 2's
  // figure is marked, so a repeated run would show.
  std::string cut = csv[0] + "\n";
  for (int i = 1; i <= 5; ++i) {
    std::string l = csv[static_cast<std::size_t>(i)];
    if (i == 3) l = l.substr(0, l.rfind(',')) + ",12345";
    cut += l + "\n";
  }
  cut += csv[6].substr(0, csv[6].size() / 2);
  spill(dir / "killed.csv", cut);
  std::string cut_jsonl;
  for (int i = 0; i < 6; ++i) cut_jsonl += jsonl[static_cast<std::size_t>(i)] + "\n";
  spill(dir / "killed.jsonl", cut_jsonl);

  SweepArgs again = small_sweep(dir, "killed.csv");
  CHECK(sweep_command(again) == 2);  // without --resume the files are left alone
  CHECK(slurp(dir / "killed.csv") == cut);
  again.resume = true;
  REQUIRE(sweep_command(again) == 0);
  const auto resumed = lines_of(slurp(dir / "killed.csv"));
  REQUIRE(resumed.size() == csv.size());
  for (std::size_t i = 0; i < csv.size(); ++i) {
    if (i == 3) {
      CHECK(resumed[i].substr(resumed[i].rfind(',')) == ",12345");  // kept, not run again
    } else {
      CHECK(resumed[i] == csv[i]);
    }
  }
  // The JSON Lines file had run 5 but the CSV did not: run 5 ran once, in both.
  const auto resumed_jsonl = lines_of(slurp(dir / "killed.jsonl"));
  CHECK(resumed_jsonl.size() == jsonl.size());
  CHECK(resumed_jsonl[8] == jsonl[8]);

  // Resuming a finished sweep runs nothing and changes nothing.
  const std::string finished = slurp(dir / "whole.csv");
  SweepArgs done = small_sweep(dir, "whole.csv");
  done.resume = true;
  REQUIRE(sweep_command(done) == 0);
  CHECK(slurp(dir / "whole.csv") == finished);
}

TEST_CASE("resume fills gaps anywhere and puts rows in order", "[sweep][run]") {
  TempDir dir("sweep-gaps");
  REQUIRE(sweep_command(small_sweep(dir, "whole.csv")) == 0);
  const auto csv = lines_of(slurp(dir / "whole.csv"));
  const auto jsonl = lines_of(slurp(dir / "whole.jsonl"));
  // A subset: runs 1, 4 and 9 only (as a crashed run of other tools might leave).
  std::string some = csv[0] + "\n", some_jsonl;
  for (std::size_t r : {9, 1, 4}) {
    some += csv[r + 1] + "\n";
    some_jsonl += jsonl[r] + "\n";
  }
  spill(dir / "some.csv", some);
  spill(dir / "some.jsonl", some_jsonl);
  SweepArgs a = small_sweep(dir, "some.csv");
  a.resume = true;
  REQUIRE(sweep_command(a) == 0);
  CHECK(slurp(dir / "some.csv") == slurp(dir / "whole.csv"));
  CHECK(slurp(dir / "some.jsonl") == slurp(dir / "whole.jsonl"));

  // A file from another sweep is not resumed into.
  SweepArgs other = small_sweep(dir, "some.csv");
  other.resume = true;
  other.seeds = "3";
  CHECK(sweep_command(other) == 2);
  CHECK(slurp(dir / "some.csv") == slurp(dir / "whole.csv"));
}

// Issue 19: the fingerprint held the scenario's name only, so a --resume
// after an edit of machine.toml (the CPU time of a request doubled) mixed
// rows of both machines.
TEST_CASE("resume refuses rows written before an included file was edited, and resumes once it is undone", "[sweep][run]") {
  TempDir dir("sweep-edited");
  SweepArgs a = small_sweep(dir, "r.csv");
  a.file = two_file_scenario(dir, 17);
  REQUIRE(sweep_command(a) == 0);
  const std::string whole = slurp(dir / "r.csv"), whole_jsonl = slurp(dir / "r.jsonl");
  const std::string summary = slurp(dir / "r.summary.csv");
  const auto csv = lines_of(whole), jsonl = lines_of(whole_jsonl);
  std::string cut = csv[0] + "\n", cut_jsonl;  // killed after four runs
  for (std::size_t i = 1; i <= 4; ++i) {
    cut += csv[i] + "\n";
    cut_jsonl += jsonl[i - 1] + "\n";
  }
  spill(dir / "r.csv", cut);
  spill(dir / "r.jsonl", cut_jsonl);

  two_file_scenario(dir, 34);
  a.resume = true;
  const auto [status, error] = status_and_error(sweep_command, a);
  CHECK(status == 2);
  CHECK_THAT(error, Catch::Matchers::Contains("the inputs changed since the rows were written"));
  CHECK_THAT(error, Catch::Matchers::Contains(dir / "machine.toml"));
  CHECK(slurp(dir / "r.csv") == cut);  // nothing written
  CHECK(slurp(dir / "r.jsonl") == cut_jsonl);
  CHECK(slurp(dir / "r.summary.csv") == summary);

  two_file_scenario(dir, 17);  // undone: the same inputs, byte for byte
  REQUIRE(sweep_command(a) == 0);
  CHECK(slurp(dir / "r.csv") == whole);
  CHECK(slurp(dir / "r.jsonl") == whole_jsonl);
}

TEST_CASE("merge refuses parts run before and after an included file was edited", "[sweep][run]") {
  TempDir dir("sweep-edited-merge");
  MergeArgs merge;
  for (int i = 1; i <= 2; ++i) {
    SweepArgs part = small_sweep(dir, "part" + std::to_string(i) + ".csv");
    part.file = two_file_scenario(dir, i == 1 ? 17 : 34);
    part.shard = std::to_string(i) + "/2";
    REQUIRE(sweep_command(part) == 0);
    merge.inputs.push_back(dir / ("part" + std::to_string(i) + ".csv"));
  }
  merge.out = dir / "merged.csv";
  const auto [status, error] = status_and_error(merge_command, merge);
  CHECK(status == 2);
  CHECK_THAT(error, Catch::Matchers::Contains("not parts of one sweep"));
  CHECK_FALSE(fs::exists(dir / "merged.csv"));
}

TEST_CASE("a sweep's output may not be a file its scenario includes", "[sweep][run]") {
  TempDir dir("sweep-onto-include");
  SweepArgs a = small_sweep(dir, "out.csv");
  a.file = two_file_scenario(dir, 17, "out.jsonl");  // -o out.csv writes out.jsonl too
  const std::string machine = slurp(dir / "out.jsonl");
  const auto [status, error] = status_and_error(sweep_command, a);
  CHECK(status == 2);
  CHECK_THAT(error, Catch::Matchers::Contains("is the same file as the input '" + dir / "out.jsonl" + "'"));
  CHECK(slurp(dir / "out.jsonl") == machine);
  CHECK_FALSE(fs::exists(dir / "out.csv"));
}

TEST_CASE("plot draws lines with bands and heat maps as PNG and SVG", "[sweep][run]") {
  TempDir dir("sweep-plot");
  REQUIRE(sweep_command(small_sweep(dir, "r.csv")) == 0);
  PlotArgs p;
  p.results = dir / "r.csv";
  p.x = "nginx.thread_pool.threads";
  p.y = "clients.constant.latency_s.mean";
  p.by = "clients.random.connections";
  p.out = dir / "lines";
  REQUIRE(plot_command(p) == 0);
  CHECK(slurp(dir / "lines.png").substr(1, 3) == "PNG");
  const std::string svg = slurp(dir / "lines.svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("clients.random.connections") != std::string::npos);
  p.heatmap = true;
  p.out = dir / "heat";
  REQUIRE(plot_command(p) == 0);
  CHECK(fs::file_size(dir / "heat.png") > 1000);

  // Without --by, the other axis would mix points: refused unless fixed.
  PlotArgs mixed = p;
  mixed.heatmap = false;
  mixed.by.clear();
  mixed.out = dir / "mixed";
  CHECK(plot_command(mixed) == 2);
  mixed.where = {"clients.random.connections=80"};
  CHECK(plot_command(mixed) == 0);
  PlotArgs bad = p;
  bad.y = "clients.constant.latency_s.p42";
  CHECK(plot_command(bad) == 2);
}

namespace {

// A figure gnuplot draws, or refuses when `plot` is not a plot command.
std::string figure_script(const std::string& png, const std::string& svg, const std::string& plot = "plot sin(x)") {
  return "set terminal pngcairo size 1000,620\nset output '" + png + "'\n" + plot +
         "\nset terminal svg size 1000,620\nset output '" + svg + "'\nreplot\nunset output\n";
}

struct Drawn {
  int status = -1;
  std::string said;  // clerk's stderr, gnuplot's words included
};

Drawn draw(const FigureScript& script, const std::string& prefix, const std::string& gnuplot = "gnuplot") {
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  Drawn out;
  out.status = draw_figure(script, prefix, gnuplot);
  std::cerr.rdbuf(old);
  out.said = err.str();
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// Probe 3, finding 8: a what-if whose every p99 is missing (no request
// issued) reached gnuplot, which stops on a plot with no valid point ("all
// points y value undefined"), exit 3 after the runs. The figure is drawn
// empty instead, saying so.
TEST_CASE("a figure with no value to draw is drawn empty, not refused by gnuplot", "[sweep][run]") {
  if (common::find_program("gnuplot").empty()) {
    WARN("no gnuplot: skipped");
    return;
  }
  TempDir dir("sweep-empty-figure");
  PlotData d;
  d.x_labels = {"off", "on"};
  d.x_values = {0, 1};
  PlotSeries s{"hot", {}};
  for (std::size_t i = 0; i < 2; ++i) s.cells.push_back({i, estimate({NAN}, 0.95)});
  d.series = {s, s};
  for (const bool log_y : {false, true}) {
    PlotLook look;
    look.x_key = "nginx.reuseport";
    look.y_key = "p99";
    look.log_y = log_y;
    CHECK_FALSE(has_drawable_point(d, look));
    const std::string prefix = dir / (log_y ? "log" : "linear");
    const Drawn drawn = draw([&](const std::string& png, const std::string& svg) { return gnuplot_script(d, look, png, svg); },
                             prefix);
    CHECK(drawn.status == 0);
    CHECK(has(slurp(prefix + ".svg"), "no value to draw"));
  }
}

// Issue 19: gnuplot failed by the machine (a file it cannot write, a file
// size limit, a signal) is exit 2 with gnuplot's own words; gnuplot refusing
// the script is exit 3. Each case fails for root too.
TEST_CASE("plot: gnuplot failed by the machine is exit 2 with its words, a refused script exit 3", "[sweep][run]") {
  if (common::find_program("gnuplot").empty()) {
    WARN("no gnuplot: skipped");
    return;
  }
  TempDir dir("gnuplot-fail");
  const Drawn fine = draw([](const std::string& png, const std::string& svg) { return figure_script(png, svg); },
                          dir / "fine");
  REQUIRE(fine.status == 0);
  CHECK(fs::file_size(dir / "fine.png") > 4096);

  SECTION("a picture gnuplot cannot open (under a regular file): gnuplot's system error, exit 2") {
    const Drawn out = draw([](const std::string&, const std::string& svg) { return figure_script("plot.gp/x.png", svg); },
                           dir / "under");
    CHECK(out.status == 2);
    CHECK(has(out.said, "cannot open file"));  // gnuplot's words
    CHECK(has(out.said, "system error: Not a directory"));
    CHECK(has(out.said, "clerk: gnuplot could not draw the figure: a system call failed in gnuplot"));
    CHECK_FALSE(fs::exists(dir / "under.png"));
  }
  SECTION("a file size limit (a full disk alike): gnuplot ends with status 0 and cut pictures, exit 2") {
    // gnuplot inherits both; with SIGXFSZ ignored its writes past 4 KiB fail
    // (EFBIG), which it does not check.
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    const rlimit small{4096, old.rlim_max};
    auto* const old_handler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    const Drawn out = draw([](const std::string& png, const std::string& svg) { return figure_script(png, svg); },
                           dir / "limited");
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(out.status == 2);
    CHECK(has(out.said, "pictures are cut short"));
    CHECK_FALSE(fs::exists(dir / "limited.png"));
    CHECK_FALSE(fs::exists(dir / "limited.svg"));
  }
  SECTION("gnuplot killed by a signal: exit 2, naming it") {
    std::ofstream(dir / "killed-gnuplot") << "#!/bin/sh\nkill -KILL $$\n";
    fs::permissions(dir / "killed-gnuplot", fs::perms::owner_all);
    const Drawn out = draw([](const std::string& png, const std::string& svg) { return figure_script(png, svg); },
                           dir / "killed", dir / "killed-gnuplot");
    CHECK(out.status == 2);
    CHECK(has(out.said, "by signal 9"));
  }
  SECTION("gnuplot refusing the script: clerk's bug, exit 3, with gnuplot's words") {
    const Drawn out = draw(
        [](const std::string& png, const std::string& svg) { return figure_script(png, svg, "plot sin(x) with banana"); },
        dir / "bug");
    CHECK(out.status == 3);
    CHECK(has(out.said, "unrecognized plot type"));
    CHECK(has(out.said, "internal error"));
    CHECK_FALSE(fs::exists(dir / "bug.png"));
  }
}

TEST_CASE("gnuplot's words and cut pictures tell the machine's failures from the script's", "[sweep][run]") {
  // os_error()'s perror and gp_alloc()'s int_error, as gnuplot 5.4 says them.
  CHECK_FALSE(gnuplot_machine_failure(1, "\"plot.gp\" line 2: cannot open file; output not changed\nsystem error: No "
                                         "space left on device\n", false).empty());
  CHECK_FALSE(gnuplot_machine_failure(1, "\"plot.gp\" line 9: out of memory for expanding curve points\n", false).empty());
  CHECK_FALSE(gnuplot_machine_failure(0, "", false).empty());
  CHECK(gnuplot_machine_failure(1, "\"plot.gp\" line 3: unrecognized plot type\n", false).empty());
  CHECK(gnuplot_machine_failure(1, "", true).empty());
}

TEST_CASE("the runs a sweep runs at once must fit the machine together: the -j that fits is named", "[sweep][run]") {
  // Each point alone fits (make_plan checks that); three at once of 40% of
  // the budget each do not, two do.
  const double budget = models::memory_budget_bytes();
  REQUIRE(budget > 0);
  Plan plan;
  plan.points.resize(4);
  plan.seeds = {1};
  plan.point_bytes = {0.4 * budget, 0.4 * budget, 0.4 * budget, 0.01 * budget};
  const std::vector<RunRef> runs = plan.runs({});
  REQUIRE(runs.size() == 4);
  CHECK_NOTHROW(check_jobs_fit(plan, runs, 1, "spec.toml"));
  CHECK_NOTHROW(check_jobs_fit(plan, runs, 2, "spec.toml"));
  try {
    check_jobs_fit(plan, runs, 3, "spec.toml");
    FAIL("three runs of 40% of the budget at once were accepted");
  } catch (const SweepError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("spec.toml: -j 3: the 3 largest runs at once would need about"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("use -j 2 or fewer"));
  }
  // -j beyond the runs is as many threads as runs.
  CHECK_THROWS_AS(check_jobs_fit(plan, runs, 1024, "spec.toml"), SweepError);
  // Only the shard's runs count.
  const std::vector<RunRef> small = {runs[0], runs[3]};
  CHECK_NOTHROW(check_jobs_fit(plan, small, 1024, "spec.toml"));
}
