// clerk compare's table and JSON (cli/compare_table.h) on two small runs:
// every figure is the run's own, on the same seed, in the table's units.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "cli/compare_table.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"

namespace {
cli::CompareFigures run(const std::string& name, std::uint64_t seed) {
  const models::Scenario sc = models::load_scenario(std::string(CLERK_SCENARIOS) + "/agreement/" + name + ".toml");
  return cli::figures_of(engines::run_scenario(sc, {seed, 2.0, engines::Engine::kNative, {}}));
}
}  // namespace

TEST_CASE("compare: the table of two small runs shows each run's figures in its column") {
  const std::vector<cli::CompareFigures> runs = {run("hits", 5), run("misses", 5)};
  const std::string t = cli::compare_table(runs, 5);
  CHECK(t.find("2 scenarios in agreement/, seed 5 for every one") == 0);
  // hits has one group (hot), misses another: each shows "-" in the other's column.
  REQUIRE(runs[0].groups.size() == 1);
  const std::string hot = fmt::format("{:.2f} req/s", runs[0].groups[0].requests_per_s);
  const std::size_t row = t.find("hot: requests/s");
  REQUIRE(row != std::string::npos);
  const std::string line = t.substr(row, t.find('\n', row) - row);
  CHECK(line.find(hot) != std::string::npos);
  CHECK(line.back() == '-');
  // Every request a page-cache hit: no disk read, no worker in D.
  CHECK(runs[0].disk_read_Bps == 0);
  CHECK(runs[0].workers.disk_wait == 0);
  // Misses: workers block on disk data, and the causes add up to their D share.
  double sum = 0;
  for (double c : runs[1].workers.blocked) sum += c;
  CHECK(runs[1].workers.disk_wait > 0);
  CHECK(sum == Approx(runs[1].workers.disk_wait).epsilon(1e-9));
  CHECK(t.find("worker D: disk data") != std::string::npos);
  CHECK(t.find("worker D: memory reclaim") == std::string::npos);  // no run has any: left out
  // Shares add up: R + S + D = 1 per worker.
  for (const auto& f : runs)
    CHECK(f.workers.running + f.workers.sleeping + f.workers.disk_wait == Approx(1).epsilon(1e-6));
}

TEST_CASE("compare: the JSON holds the table's figures in SI units") {
  const std::vector<cli::CompareFigures> runs = {run("misses", 1), run("hits", 1)};
  const auto j = cli::compare_json(runs, 1);
  CHECK(j["seed"] == 1);
  REQUIRE(j["scenarios"].size() == 2);
  CHECK(j["scenarios"][0]["scenario"] == "agreement/misses");
  CHECK(j["scenarios"][0]["disk"]["read_bytes_per_s"].get<double>() == runs[0].disk_read_Bps);
  CHECK(j["scenarios"][1]["clients"]["hot"]["latency_p99_s"].get<double>() == runs[1].groups[0].p99_s);
  CHECK(j["scenarios"][0]["workers"]["blocked_by_cause"]["disk_data"].get<double>() ==
        runs[0].workers.blocked[static_cast<std::size_t>(models::WaitCause::kDiskData)]);
  // The chart: one category a scenario, one value a series in every panel.
  const auto chart = cli::compare_chart(runs, 1);
  CHECK(chart.categories == std::vector<std::string>{"misses", "hits"});
  for (const auto& p : chart.panels) {
    REQUIRE(p.values.size() == 2);
    for (const auto& v : p.values) CHECK(v.size() == p.series.size());
  }
}
