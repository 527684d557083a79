// Real runs beside their predictions: per metric the median and spread of
// each side over the repetitions, and the prediction's relative error; and,
// for two scenarios, the effect of going from the first to the second (the
// thread pool's, for blocking.toml -> threads.toml) measured and predicted.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbed/realrun/run_figures.h"

namespace testbed {

struct Spread {
  double median = 0, min = 0, max = 0;
  std::size_t count = 0;  // values it was taken over (0: the side has no figure)
};
Spread spread_of(std::vector<double> values);

struct MetricRow {
  Metric metric;
  Spread real, simulated;
  double error = 0;  // simulated median / real median - 1
  bool judged = false, within = true;
};

struct ScenarioComparison {
  std::string file, name, server;
  std::vector<RealRunResult> real_runs;
  std::vector<RunFigures> real, simulated;  // one per repetition
  std::vector<MetricRow> rows;
  // What the reader should know before trusting the rows: the running
  // kernel's loopback TCP is not the profile's (loopback_tcp_check.h).
  std::vector<std::string> warnings;
};

// Fills `rows` from `real` and `simulated`.
void summarize(ScenarioComparison& c);

struct EffectRow {
  Metric metric;
  double real = 0, simulated = 0;  // ratio of the second scenario's median to the first's
  double error = 0;                // simulated / real - 1
  bool judged = false, same_direction = true, within = true;
};
// The effect on each metric of going from `a` to `b` (same client groups).
// Judged within 30% for requests/s, mean and p99 latency.
std::vector<EffectRow> effect_of(const ScenarioComparison& a, const ScenarioComparison& b);

std::string format_comparison(const ScenarioComparison& c);
std::string format_effect(const ScenarioComparison& a, const ScenarioComparison& b, const std::vector<EffectRow>& rows);

// iostat -x of each run's real drives beside the model's ("" if neither side has any).
std::string format_iostat(const ScenarioComparison& c);
nlohmann::json iostat_json(const std::vector<realrun::DriveIostat>& drives);

nlohmann::json to_json(const ScenarioComparison& c);
nlohmann::json to_json(const std::vector<EffectRow>& rows);

}  // namespace testbed
