// A run's figures as JSON (the keys documented in the README), and the
// lookup of a dotted metric path in it for `clerk validate`.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>

#include "models/scenario/result.h"
#include "models/scenario/scenario.h"

namespace models {

// `with_timing`: include wall_s, the one host-dependent figure. Without it
// the JSON is a pure function of the scenario and seed.
nlohmann::ordered_json to_json(const RunResult& r, bool with_timing);
// One second's column of a latency heat map, {"first": bin, "counts": [...]}:
// clients.NAME.per_s.latency_bins[i]; clerk-ui's --series writes the same.
nlohmann::ordered_json latency_bins_json(const LatencyBins& b);
std::optional<double> json_metric(const nlohmann::ordered_json& j, const std::string& dotted);
// Whether `dotted` names a figure: a number, a boolean, or null (a figure
// this run lacks and another may have, as warmup.full_at_s while the page
// cache never filled).
bool json_has_figure(const nlohmann::ordered_json& j, const std::string& dotted);
// The keys a run of `sc` writes, without running it (every figure 0): the
// sections every run writes, and those to_json writes only for some
// configurations, as run_figures.cpp decides them. What a lesson's metric
// and a sweep's point are checked against.
nlohmann::ordered_json json_skeleton(const Scenario& sc);

}  // namespace models
