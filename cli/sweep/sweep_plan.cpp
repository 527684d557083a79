#include "cli/sweep/sweep_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <map>

#include "cli/sweep/sweep_error.h"
#include "common/input_file.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/result_json.h"
#include "engines/run_scenario.h"
#include "sim/random.h"

namespace cli::sweep {

namespace fs = std::filesystem;

namespace {

// Axes with the same zip group (all axes, in zip mode) move together; the
// groups are crossed. Returns, per group, the indices of its axes.
std::vector<std::vector<std::size_t>> zip_groups(const SweepSpec& spec) {
  std::vector<std::vector<std::size_t>> groups;
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < spec.axes.size(); ++i) {
    const std::string name = spec.mode == Mode::kZip ? std::string("all") : spec.axes[i].zip;
    if (name.empty()) {
      groups.push_back({i});
      continue;
    }
    auto [it, fresh] = by_name.emplace(name, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

// The number of points of a grid (or zip), from the axes' lengths alone:
// checked before any value is loaded as a scenario, so a grid refused for
// its size is refused at once (two axes of 65,536 values took 34 s of CPU
// loading every value before "more than 10 million points", probe 5).
std::uint64_t grid_size(const SweepSpec& spec) {
  const auto groups = zip_groups(spec);
  for (const auto& g : groups) {
    const Axis& first = spec.axes[g[0]];
    for (std::size_t i : g)
      if (spec.axes[i].size() != first.size())
        throw SweepError(spec.axes[i].where, spec.axes[i].name(),
                         fmt::format("moves together with {} (zip) but has {} values, not {}", first.name(),
                                     spec.axes[i].size(), first.size()));
  }
  std::uint64_t count = 1;
  for (const auto& g : groups) {
    count *= spec.axes[g[0]].size();
    if (count > 10'000'000) throw SweepError(spec.origin, "", "the grid has more than 10 million points");
  }
  return count;
}

std::vector<Point> grid_points(const SweepSpec& spec) {
  const auto groups = zip_groups(spec);
  const std::uint64_t count = grid_size(spec);
  std::vector<Point> points;
  std::vector<std::size_t> at(groups.size(), 0);  // odometer: the last group moves fastest
  for (std::uint64_t p = 0; p < count; ++p) {
    Point point;
    point.index = p;
    point.values.resize(spec.axes.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (std::size_t i : groups[g]) point.values[i] = spec.axes[i].values[at[g]];
    points.push_back(std::move(point));
    for (std::size_t g = groups.size(); g-- > 0;) {
      if (++at[g] < spec.axes[groups[g][0]].size()) break;
      at[g] = 0;
    }
  }
  return points;
}

// Significant digits for a value drawn from [lo, hi]: six, or enough to
// tell about a thousand values of the range apart, up to a double's 17.
int drawn_digits(double lo, double hi) {
  const double span = hi - lo, size = std::max(std::abs(lo), std::abs(hi));
  if (!(span > 0) || !(size > 0)) return 6;
  return std::clamp(static_cast<int>(std::ceil(std::log10(size / span))) + 3, 6, 17);
}

AxisValue draw(const Axis& axis, sim::RandomStream& rng, std::uint64_t index) {
  if (!axis.continuous) return axis.values[index];
  if (axis.integer) {
    const auto lo = static_cast<std::int64_t>(axis.lo);
    const auto v = lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(axis.hi - axis.lo) + 1));
    return {std::to_string(v), std::to_string(v), true};
  }
  // A time in the clock's whole nanoseconds, drawn as such (probe 8: six
  // digits made a range of a few nanoseconds one value).
  if (axis.quantity == Quantity::kTime) {
    const std::int64_t lo = std::llround(axis.lo * 1e9), hi = std::llround(axis.hi * 1e9);
    return time_value(lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(hi - lo) + 1)));
  }
  // A rate or a number: six digits, more where the range is narrower than
  // its values (1Gbit/s..1.000001Gbit/s needs ten), with its unit ("2.51234Gbit/s").
  const int digits = drawn_digits(axis.lo, axis.hi);
  if (axis.quantity != Quantity::kNone)
    return quantity_value(axis.quantity, axis.lo + rng.uniform() * (axis.hi - axis.lo), digits);
  const double v = std::stod(fmt::format("{:.{}g}", axis.lo + rng.uniform() * (axis.hi - axis.lo), digits));
  AxisValue out{fmt::format("{}", v), fmt::format("{}", v), true};
  if (out.toml.find_first_of(".eEn") == std::string::npos) out.toml += ".0";
  return out;
}

std::vector<Point> random_points(const SweepSpec& spec) {
  if (spec.samples == 0) throw SweepError(spec.origin, "key 'samples'", "random mode needs samples = N (--samples N)");
  check_cap(spec.origin, "key 'samples'", spec.samples, kMaxSamples, "points");
  const auto groups = zip_groups(spec);
  for (const auto& g : groups)
    for (std::size_t i : g)
      if (g.size() > 1 && (spec.axes[i].continuous || spec.axes[i].size() != spec.axes[g[0]].size()))
        throw SweepError(spec.axes[i].where, spec.axes[i].name(), "zipped axes need lists of the same length");
  // xoshiro256** with our own distributions: the same points with any standard library.
  sim::RandomStream rng(spec.sample_seed);
  std::vector<Point> points;
  for (std::uint64_t p = 0; p < spec.samples; ++p) {
    Point point;
    point.index = p;
    point.values.resize(spec.axes.size());
    for (const auto& g : groups) {
      const Axis& first = spec.axes[g[0]];
      const std::uint64_t pick = first.continuous ? 0 : rng.below(first.size());
      for (std::size_t i : g) point.values[i] = draw(spec.axes[i], rng, pick);
    }
    points.push_back(std::move(point));
  }
  return points;
}

// The bytes of an input of the sweep `origin` names, read as the loader read
// them (it has just read them: an error here is a file changed meanwhile).
std::string bytes_of(const std::string& path, const std::string& origin) {
  try {
    return common::read_input_file(path, common::kMaxScenarioFileBytes);
  } catch (const common::InputFileError& e) {
    throw SweepError(origin, "input '" + path + "'", e.what());
  }
}

// `files` not yet among `inputs`, added in order.
void add_inputs(std::vector<std::string>& inputs, const std::vector<std::string>& files) {
  for (const std::string& f : files)
    if (std::find(inputs.begin(), inputs.end(), f) == inputs.end()) inputs.push_back(f);
}

// FNV-1a, 64 bits: short, stable across platforms, enough to tell sweeps apart.
std::string fingerprint(const Plan& plan, const std::string& origin) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](const std::string& s) {
    for (unsigned char c : s + '\x1f') {
      h ^= c;
      h *= 1099511628211ULL;
    }
  };
  mix(plan.scenario_name);  // not its path, which differs between machines of a cluster
  for (const auto& f : plan.fixed) mix(f);
  for (const auto& k : plan.axis_keys) mix(k);
  for (const Point& p : plan.points)
    for (const AxisValue& v : p.values) mix(v.toml);
  for (std::uint64_t s : plan.seeds) mix(std::to_string(s));
  for (const auto& m : plan.metrics) mix(m);
  for (const auto& f : plan.inputs) mix(bytes_of(f, origin));
  return fmt::format("{:016x}", h);
}

std::string describe(const Plan& plan, const Point& p) {
  std::string out;
  for (std::size_t i = 0; i < p.values.size(); ++i)
    out += (out.empty() ? "" : ", ") + plan.axis_keys[i] + "=" + p.values[i].label;
  return out;
}

// The JSON of a one-millisecond run of the base scenario: the layout every
// run's JSON has, to check metric paths against before the sweep starts.
// Without its warm-up: the layout is the same, and a settled warm-up can take
// minutes.
nlohmann::ordered_json json_layout(models::Scenario sc) {
  sc.warmup = models::WarmupSpec{false, 0, 0};
  return models::to_json(engines::run_scenario(sc, {sc.seed, 1e-3, engines::Engine::kNative, {}}), false);
}

// A sweep's metrics, each to be a figure of the run of at least one point
// (the rows of a point whose run lacks it say null). Some figures every run
// writes; others only some configurations do (models::json_skeleton: the
// read paths with aio_nowait, O_DIRECT's reads with directio, per pool, per
// disk), and those are each point's own. So a metric is kept when the probe
// run of the base has it and the base's configuration does not account for
// it (a figure of every run, like the native engine's stage clocks), or when
// the configuration of some point has it. A metric that only the base's
// configuration has is refused, and one that only some points have is kept,
// whatever the base sets: server.page_cache.direct.reads over
// nginx.directio=4k,off was refused on a base without directio (probe 5).
class MetricCheck {
 public:
  MetricCheck(const std::vector<std::string>& metrics, const models::Scenario& base) {
    const auto probe = json_layout(base);
    const auto configured = models::json_skeleton(base);
    for (const std::string& m : metrics)
      if (!models::json_has_figure(probe, m) || models::json_has_figure(configured, m)) pending_.push_back(m);
  }

  bool pending() const { return !pending_.empty(); }

  // The metrics a point's configuration accounts for are settled.
  void see(const models::Scenario& point) {
    if (pending_.empty()) return;
    const auto layout = models::json_skeleton(point);
    std::erase_if(pending_, [&](const std::string& m) { return models::json_has_figure(layout, m); });
  }

  void refuse_unsettled(const std::string& origin) const {
    if (!pending_.empty())
      throw SweepError(origin, "metric '" + pending_.front() + "'",
                       "is not a number in the JSON of any point's run (see clerk run --json)");
  }

 private:
  std::vector<std::string> pending_;
};

// A hardware value as loaded: the files its scenario reads, each resolved
// (`P` and `dir/../P`, or a link to P, are one profile).
std::string resolved(const std::vector<std::string>& files) {
  std::string out;
  for (const std::string& f : files) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(f, ec);
    out += (ec ? f : p.string()) + '\n';
  }
  return out;
}

// Refuses a value an axis already has, compared as loaded (`identity`: the
// TOML value as read, so 'off' and "off", 1e3 and 1000.0 are one; for
// hardware the profile's file). Every run is deterministic, so a repeated
// value makes a repeated point: the same runs again, shown as new data.
// Axes that move together (zip) may repeat a value beside different partners;
// their points are checked whole (check_repeated_points).
// Returns `identity`.
std::string check_repeated(const Axis& a, bool zipped, const AxisValue& v, const std::string& identity,
                           std::map<std::string, std::string>& loaded) {
  const auto [at, fresh] = loaded.try_emplace(identity, v.label);
  if (fresh || zipped) return identity;
  const std::string same = at->second == v.label ? "" : " (the same as " + at->second + " once loaded)";
  throw SweepError(a.where, a.name(), "value " + v.label + " is given twice" + same +
                                          ": a run is the same for the same values, so it would make the same point twice");
}

// Each axis's values (as written, v.toml) -> their identity as loaded.
using Identities = std::vector<std::map<std::string, std::string>>;

// Points that repeat one another (zipped axes that repeat a pair): refused, as above.
void check_repeated_points(const Plan& plan, const Identities& identities, const std::string& origin) {
  std::map<std::vector<std::string>, std::uint64_t> seen;
  for (const Point& p : plan.points) {
    std::vector<std::string> key;
    for (std::size_t i = 0; i < p.values.size(); ++i) key.push_back(identities[i].at(p.values[i].toml));
    const auto [at, fresh] = seen.try_emplace(key, p.index);
    if (!fresh)
      throw SweepError(origin, "point " + std::to_string(p.index) + " (" + describe(plan, p) + ")",
                       "repeats point " + std::to_string(at->second) + ": the same runs twice");
  }
}

// The sweep's size, points and runs, from the spec alone (grid_size): a
// sweep too large to plan is refused before any of its values is loaded.
// Random mode checks its samples as it draws them (random_points); a
// continuous axis outside random mode is refused by make_plan.
void check_size(const SweepSpec& spec) {
  if (spec.mode == Mode::kRandom) return;
  for (const Axis& a : spec.axes)
    if (a.continuous) return;
  const std::uint64_t points = grid_size(spec);
  const std::uint64_t seeds = spec.seeds.empty() ? 1 : spec.seeds.size();
  check_cap(spec.origin, "", points * seeds, kMaxRuns, "runs (points x seeds)");
}

}  // namespace

Shard parse_shard(const std::string& text) {
  Shard s;
  const std::size_t slash = text.find('/');
  auto num = [](const std::string& t, std::uint64_t& out) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
    return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size();
  };
  if (slash == std::string::npos || !num(text.substr(0, slash), s.index) || !num(text.substr(slash + 1), s.count) ||
      s.count < 1 || s.index < 1 || s.index > s.count)
    throw SweepError("--shard", "'" + text + "'", "write I/N with 1 <= I <= N, like 2/8");
  return s;
}

std::vector<std::string> main_metrics(const std::vector<std::string>& client_groups) {
  std::vector<std::string> m;
  for (const std::string& g : client_groups) {
    m.push_back("clients." + g + ".requests_per_s");
    m.push_back("clients." + g + ".latency_s.mean");
    m.push_back("clients." + g + ".latency_s.p99");
  }
  for (const char* s : {"server.nic_out_gbps_mean", "server.workers.disk_wait_frac", "server.thread_pool.overflows",
                        "server.page_cache.hit_ratio", "server.disk.utilization"})
    m.push_back(s);
  return m;
}

void check_group_in_paths(const std::string& group, const std::string& where) {
  if (group.empty())
    throw SweepError(where, "client group \"\"", "has an empty name, which no metric path can name (paths are "
                                                   "\"clients.GROUP.METRIC\"): give the group a name");
  if (group.find('.') != std::string::npos)
    throw SweepError(where, "client group '" + group + "'",
                     "has a '.' in its name, and metric paths (\"clients.GROUP.METRIC\") are split at every '.': "
                     "rename the group without '.', or keep other metrics with --metric");
}

RunRef Plan::run(std::uint64_t id) const {
  return {id, id / seeds.size(), seeds[id % seeds.size()]};
}

std::vector<RunRef> Plan::runs(const Shard& shard) const {
  std::vector<RunRef> out;
  for (std::uint64_t id = 0; id < total_runs(); ++id)
    if (shard.holds(id / seeds.size())) out.push_back(run(id));
  return out;
}

std::vector<std::string> Plan::overrides(const Point& p) const {
  std::vector<std::string> o = fixed;
  for (std::size_t i = 0; i < p.values.size(); ++i)
    if (axis_keys[i] != kHardwareAxis) o.push_back(axis_keys[i] + "=" + p.values[i].toml);
  return o;
}

std::string Plan::hardware(const Point& p) const {
  for (std::size_t i = 0; i < p.values.size(); ++i)
    if (axis_keys[i] == kHardwareAxis) return p.values[i].label;
  return "";
}

Plan make_plan(const SweepSpec& spec, const Shard& shard) {
  Plan plan;
  plan.scenario = spec.scenario;
  plan.fixed = spec.fixed;
  plan.confidence = spec.confidence;

  // The base scenario with the fixed overrides: an error here is not an axis's.
  models::Scenario base;
  try {
    base = models::load_scenario(spec.scenario, spec.fixed);
  } catch (const models::ConfigError& e) {
    throw SweepError(spec.origin, "base scenario", e.what());
  }
  if (!spec.file.empty()) plan.inputs.push_back(spec.file);
  add_inputs(plan.inputs, base.files);
  // A scenario without a name is named by its path: keep only the file name.
  plan.scenario_name = base.name == spec.scenario ? fs::path(spec.scenario).filename().string() : base.name;
  check_size(spec);
  Identities identities(spec.axes.size());
  for (std::size_t i = 0; i < spec.axes.size(); ++i) {
    const Axis& a = spec.axes[i];
    for (std::size_t j = 0; j < i; ++j)
      if (spec.axes[j].key == a.key) throw SweepError(a.where, a.name(), "is given twice");
    if (a.key == "seed") throw SweepError(a.where, a.name(), "seeds are not an axis: use seeds = N (--seeds N)");
    if (!a.continuous && a.values.empty()) throw SweepError(a.where, a.name(), "has no values");
    if (a.continuous && spec.mode != Mode::kRandom)
      throw SweepError(a.where, a.name(), "a range without a step can only be sampled (mode random); add :step");
    // Each value alone over the base: unknown key, wrong type, out of range.
    std::vector<AxisValue> probe = a.values;
    if (a.continuous) {
      probe.clear();
      for (double v : {a.lo, a.hi}) {
        AxisValue x{a.integer ? std::to_string(static_cast<std::int64_t>(v)) : fmt::format("{}", v), "", true};
        if (!a.integer && x.toml.find_first_of(".eEn") == std::string::npos) x.toml += ".0";
        if (a.quantity != Quantity::kNone) x = quantity_value(a.quantity, v);
        probe.push_back(x);
      }
    }
    std::map<std::string, std::string> loaded;  // a value's identity as loaded -> the value as written
    const bool zipped = spec.mode == Mode::kZip || !a.zip.empty();
    for (const AxisValue& v : probe) {
      std::vector<std::string> o = spec.fixed;
      const bool machine = a.key == kHardwareAxis;
      if (!machine) o.push_back(a.key + "=" + v.toml);
      try {
        const std::vector<std::string> files = models::load_scenario(spec.scenario, o, machine ? v.label : "").files;
        add_inputs(plan.inputs, files);
        if (!a.continuous) identities[i][v.toml] = check_repeated(a, zipped, v, machine ? resolved(files) : v.toml, loaded);
      } catch (const models::ConfigError& e) {
        // The loader names the override "--set"; here the axis says where it came from.
        std::string why = e.what();
        if (why.rfind("--set: ", 0) == 0) why.erase(0, 7);
        throw SweepError(a.where, a.name(), "value " + v.toml + ": " + why);
      }
    }
    plan.axis_keys.push_back(a.key);
  }

  plan.points = spec.mode == Mode::kRandom ? random_points(spec) : grid_points(spec);
  if (spec.mode != Mode::kRandom) check_repeated_points(plan, identities, spec.origin);
  plan.seeds = spec.seeds.empty() ? std::vector<std::uint64_t>{base.seed} : spec.seeds;
  check_cap(spec.origin, "", plan.points.size() * plan.seeds.size(), kMaxRuns, "runs (points x seeds)");
  std::vector<std::string> groups;
  for (const auto& g : base.clients) groups.push_back(g.name);
  if (spec.metrics.empty())
    for (const std::string& g : groups) check_group_in_paths(g, spec.scenario);
  plan.metrics = spec.metrics.empty() ? main_metrics(groups) : spec.metrics;

  MetricCheck metrics(plan.metrics, base);

  // Values can be fine alone and wrong together (connections below threads).
  plan.point_bytes.assign(plan.points.size(), 0);
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const Point& p = plan.points[i];
    if (!shard.holds(p.index)) continue;
    try {
      const models::Scenario sc = models::load_scenario(spec.scenario, plan.overrides(p), plan.hardware(p));
      models::check_fits_machine(sc, sc.duration_s, sc.file);
      plan.point_bytes[i] = models::estimate_resources(sc, sc.duration_s).total_bytes();
      metrics.see(sc);
    } catch (const models::ConfigError& e) {
      throw SweepError(spec.origin, "point " + std::to_string(p.index) + " (" + describe(plan, p) + ")", e.what());
    }
  }
  // Every shard keeps the same metrics: the points of the others count too
  // (loaded only while a metric is unsettled; their own errors are their
  // shard's to report).
  for (std::size_t i = 0; i < plan.points.size() && metrics.pending(); ++i) {
    const Point& p = plan.points[i];
    if (shard.holds(p.index)) continue;
    try {
      metrics.see(models::load_scenario(spec.scenario, plan.overrides(p), plan.hardware(p)));
    } catch (const models::ConfigError&) {
    }
  }
  metrics.refuse_unsettled(spec.origin);
  plan.fingerprint = fingerprint(plan, spec.origin);
  return plan;
}

}  // namespace cli::sweep
