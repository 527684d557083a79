// libFuzzer target: a sweep spec (clerk sweep's TOML with [sweep] and
// [[axis]]), then optionally a line "%%" and up to four command-line
// `--set KEY=VALUES` lines, as `clerk sweep SPEC --set ...` takes them.
//
// Contract on every input: reading the spec and applying the sets either
// succeeds or throws a SweepError or ConfigError whose message starts with
// the spec's path (the file the user must fix); anything else thrown is a
// finding. A spec that reads is expanded with make_plan (every point loaded
// as a scenario, a 1 ms probe run) when it has at most kMaxPlannedRuns runs,
// and the plan must agree with the spec: one point per combination in grid
// mode, runs = points x seeds, run ids in order.
#include <cstdint>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include <fmt/format.h>

#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_plan.h"
#include "cli/sweep/sweep_spec.h"
#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "fuzz/split_input.h"
#include "models/scenario/config_error.h"

namespace {

// make_plan loads every point and runs a probe: keep each input cheap.
constexpr std::uint64_t kMaxPlannedRuns = 16;

// The error starts with where to look (the spec's path, or "--set") and says more than that.
void check_names_spec(const std::exception& e, const std::string& path) {
  const std::string_view what = e.what();
  std::string_view where;
  for (std::string_view w : {std::string_view(path), std::string_view("--set")})
    if (what.substr(0, w.size()) == w) where = w;
  if (where.empty()) fuzz::breach(fmt::format("{} does not name the spec or the --set: {}", typeid(e).name(), what));
  if (what.size() <= where.size() + 2) fuzz::breach(fmt::format("{} with no message: {}", typeid(e).name(), what));
}

std::uint64_t grid_points(const cli::sweep::SweepSpec& spec) {
  std::uint64_t n = 1;
  for (const auto& a : spec.axes) n *= a.values.size();
  return n;
}

void check_plan(const cli::sweep::SweepSpec& spec, const cli::sweep::Plan& plan) {
  const std::uint64_t seeds = spec.seeds.empty() ? 1 : spec.seeds.size();
  if (plan.seeds.size() != seeds) fuzz::breach(fmt::format("plan has {} seeds, spec {}", plan.seeds.size(), seeds));
  if (spec.mode == cli::sweep::Mode::kGrid && plan.points.size() != grid_points(spec))
    fuzz::breach(fmt::format("grid plan has {} points, the axes make {}", plan.points.size(), grid_points(spec)));
  const auto runs = plan.runs({});
  if (runs.size() != plan.total_runs()) fuzz::breach("plan.runs() does not list every run");
  for (std::uint64_t i = 0; i < runs.size(); ++i)
    if (runs[i].id != i) fuzz::breach(fmt::format("run {} has id {}", i, runs[i].id));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Split in = fuzz::split_input(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string& path = fuzz::sandbox().write(in.file);
  try {
    cli::sweep::SweepSpec spec = cli::sweep::read_spec(path);
    for (const std::string& set : in.overrides) cli::sweep::apply_set(spec, set);
    const std::uint64_t seeds = spec.seeds.empty() ? 1 : spec.seeds.size();
    const std::uint64_t points = spec.mode == cli::sweep::Mode::kRandom ? spec.samples : grid_points(spec);
    if (points * seeds > kMaxPlannedRuns || points > kMaxPlannedRuns) return 0;
    check_plan(spec, cli::sweep::make_plan(spec));
  } catch (const cli::sweep::SweepError& e) {
    check_names_spec(e, path);
  } catch (const models::ConfigError& e) {
    check_names_spec(e, e.file().empty() ? path : e.file());
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("the sweep threw {} (not a SweepError or ConfigError): {}", typeid(e).name(), e.what()));
  }
  return 0;
}
