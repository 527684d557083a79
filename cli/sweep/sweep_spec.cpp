#include "cli/sweep/sweep_spec.h"

#include <algorithm>
#include <fmt/format.h>
#include <filesystem>
#include <limits>
#include <set>

#include "cli/sweep/sweep_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/layered_toml.h"

namespace cli::sweep {

namespace {

std::string at(const std::string& file, const toml::node* node) {
  const int line = node ? static_cast<int>(node->source().begin.line) : 0;
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

// Rejects keys a table should not have, suggesting the nearest known one.
void check_keys(const std::string& file, const toml::table& table, const std::string& prefix,
                const std::vector<std::string>& known) {
  for (auto&& [k, v] : table) {
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string hint;
    std::size_t best = std::numeric_limits<std::size_t>::max();
    for (const std::string& c : known) {
      const std::size_t d = models::edit_distance(key, c);
      if (d < best && d <= std::max<std::size_t>(2, key.size() / 3)) {
        best = d;
        hint = " (did you mean '" + c + "'?)";
      }
    }
    throw SweepError(at(file, &v), "key '" + prefix + key + "'", "unknown key" + hint);
  }
}

std::uint64_t whole(const std::string& file, const toml::node* n, const std::string& key, std::int64_t lo,
                    std::uint64_t cap = UINT64_MAX, const std::string& what = "") {
  if (!n->is_integer()) throw SweepError(at(file, n), "key '" + key + "'", "must be a whole number");
  const std::int64_t v = n->value<std::int64_t>().value();
  if (v < lo) throw SweepError(at(file, n), "key '" + key + "'", "must be at least " + std::to_string(lo));
  check_cap(at(file, n), "key '" + key + "'", static_cast<std::uint64_t>(v), cap, what);
  return static_cast<std::uint64_t>(v);
}

void read_axis(const std::string& file, const toml::node& item, SweepSpec& spec) {
  const toml::table* t = item.as_table();
  if (!t) throw SweepError(at(file, &item), "key 'axis'", "each entry must be a table: [[axis]]");
  check_keys(file, *t, "axis.", {"key", "values", "range", "zip"});
  Axis axis;
  axis.where = at(file, &item);
  const toml::node* key = t->get("key");
  if (!key || !key->is_string() || key->value<std::string>()->empty())
    throw SweepError(axis.where, "[[axis]]", "needs key = \"dotted.scenario.key\"");
  axis.key = key->value<std::string>().value();
  axis.where = at(file, key);
  const toml::node* values = t->get("values");
  const toml::node* range = t->get("range");
  if (values && range) throw SweepError(axis.where, axis.name(), "give values or range, not both");
  if (values) {
    const toml::array* arr = values->as_array();
    if (!arr) throw SweepError(at(file, values), axis.name(), "values must be a list, like [1, 2, 4]");
    for (const toml::node& v : *arr) {
      try {
        axis.values.push_back(value_from_node(v));
      } catch (const std::invalid_argument& e) {
        throw SweepError(at(file, &v), axis.name(), e.what());
      }
    }
    if (axis.values.empty()) throw SweepError(at(file, values), axis.name(), "has no values");
  } else if (range) {
    if (!range->is_string()) throw SweepError(at(file, range), axis.name(), "range must be a string, like \"1..64:*2\"");
    axis.where = at(file, range);
    parse_range(range->value<std::string>().value(), axis);
  } else {
    throw SweepError(axis.where, axis.name(), "needs values = [...] or range = \"lo..hi:step\"");
  }
  if (const toml::node* zip = t->get("zip")) {
    if (!zip->is_string()) throw SweepError(at(file, zip), axis.name(), "zip must be a group name (a string)");
    axis.zip = zip->value<std::string>().value();
  }
  spec.axes.push_back(std::move(axis));
}

// Every run is deterministic (same seed, same output byte for byte), so a
// seed given twice is the same run twice: the summary would count it as two
// samples and narrow the confidence interval with nothing learned. Refused.
void check_distinct_seeds(const std::vector<std::uint64_t>& seeds, const std::string& where, const std::string& key) {
  std::set<std::uint64_t> seen;
  for (const std::uint64_t s : seeds)
    if (!seen.insert(s).second)
      throw SweepError(where, key, fmt::format("seed {} is given twice: a run is the same for the same seed, so a "
                                               "repeat would count one run as two samples", s));
}

}  // namespace

void check_cap(const std::string& where, const std::string& key, std::uint64_t value, std::uint64_t cap,
               const std::string& what) {
  if (value > cap)
    throw SweepError(where, key,
                     fmt::format("{} {} is more than the cap of {}: every point and run is held in memory while the "
                                 "sweep is planned, so more would not fit (split the sweep with --shard or fewer values)",
                                 value, what, cap));
}

double check_confidence(double level, const std::string& option) {
  if (!(level > 0 && level < 1)) throw SweepError(option, "", "must be between 0 and 1, like 0.95");
  return level;
}

Mode parse_mode(const std::string& text, const std::string& where) {
  if (text == "grid") return Mode::kGrid;
  if (text == "zip") return Mode::kZip;
  if (text == "random") return Mode::kRandom;
  throw SweepError(where, "key 'mode'", "must be \"grid\", \"zip\" or \"random\" (got \"" + common::shown_text(text) + "\")");
}

std::vector<std::uint64_t> parse_seeds(const std::string& text, const std::string& where) {
  Axis tmp;
  tmp.key = "seeds";
  tmp.where = where;
  parse_axis_text(text, tmp);
  std::vector<std::uint64_t> seeds;
  for (const AxisValue& v : tmp.values) {
    std::size_t used = 0;
    unsigned long long n = 0;
    try {
      n = std::stoull(v.toml, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.toml.size() || v.toml[0] == '-')
      throw SweepError(where, "seeds", "'" + common::shown_text(text) + "': each seed must be a whole number of at least 0");
    seeds.push_back(n);
  }
  if (tmp.continuous) throw SweepError(where, "seeds", "a range of seeds needs a step, like 1..10:1");
  if (seeds.size() == 1 && !looks_like_range(text)) {  // a count
    const std::uint64_t count = seeds[0];
    if (count < 1) throw SweepError(where, "seeds", "the count of seeds must be at least 1");
    check_cap(where, "seeds", count, kMaxSeeds, "seeds per point");
    seeds.clear();
    for (std::uint64_t s = 1; s <= count; ++s) seeds.push_back(s);
  }
  check_distinct_seeds(seeds, where, "seeds");
  return seeds;
}

bool is_sweep_file(const std::string& path) {
  try {
    const toml::table doc = models::parse_toml_file(path);
    return doc.get("sweep") != nullptr;
  } catch (const std::exception&) {
    return false;  // the scenario loader will say what is wrong with it
  }
}

SweepSpec read_spec(const std::string& path) {
  // Read as a scenario file is (models::parse_toml_file); its ConfigError
  // names the file and line and ends clerk with exit 2.
  const toml::table doc = models::parse_toml_file(path);
  SweepSpec spec;
  spec.origin = path;
  spec.file = path;
  check_keys(path, doc, "", {"sweep", "axis"});
  const toml::table* s = doc["sweep"].as_table();
  if (!s) throw SweepError(path, "key 'sweep'", "must be a table: [sweep]");
  check_keys(path, *s, "sweep.", {"scenario", "set", "mode", "samples", "sample_seed", "seeds", "metrics", "confidence"});

  const toml::node* scenario = s->get("scenario");
  if (!scenario || !scenario->is_string())
    throw SweepError(at(path, s), "key 'sweep.scenario'", "is required: the base scenario file, relative to this file");
  spec.scenario = (std::filesystem::path(path).parent_path() / scenario->value<std::string>().value()).string();

  if (const toml::node* set = s->get("set")) {
    const toml::array* arr = set->as_array();
    if (!arr) throw SweepError(at(path, set), "key 'sweep.set'", "must be a list of \"key=value\" strings");
    for (const toml::node& e : *arr) {
      if (!e.is_string() || e.value<std::string>()->find('=') == std::string::npos)
        throw SweepError(at(path, &e), "key 'sweep.set'", "entries must be \"key=value\" strings, like \"duration=30s\"");
      spec.fixed.push_back(e.value<std::string>().value());
    }
  }
  if (const toml::node* mode = s->get("mode")) {
    if (!mode->is_string()) throw SweepError(at(path, mode), "key 'sweep.mode'", "must be a string");
    spec.mode = parse_mode(mode->value<std::string>().value(), at(path, mode));
  }
  if (const toml::node* n = s->get("samples")) spec.samples = whole(path, n, "sweep.samples", 1, kMaxSamples, "points");
  if (const toml::node* n = s->get("sample_seed")) spec.sample_seed = whole(path, n, "sweep.sample_seed", 0);
  if (const toml::node* n = s->get("seeds")) {
    if (n->is_integer()) {
      const std::uint64_t count = whole(path, n, "sweep.seeds", 1, kMaxSeeds, "seeds per point");
      for (std::uint64_t i = 1; i <= count; ++i) spec.seeds.push_back(i);
    } else if (const toml::array* arr = n->as_array()) {
      check_cap(at(path, n), "key 'sweep.seeds'", arr->size(), kMaxSeeds, "seeds per point");
      for (const toml::node& e : *arr) spec.seeds.push_back(whole(path, &e, "sweep.seeds", 0));
      if (spec.seeds.empty()) throw SweepError(at(path, n), "key 'sweep.seeds'", "needs at least one seed");
      check_distinct_seeds(spec.seeds, at(path, n), "key 'sweep.seeds'");
    } else {
      throw SweepError(at(path, n), "key 'sweep.seeds'", "must be a count or a list of seeds");
    }
  }
  if (const toml::node* n = s->get("metrics")) {
    const toml::array* arr = n->as_array();
    if (!arr || arr->empty()) throw SweepError(at(path, n), "key 'sweep.metrics'", "must be a non-empty list of metric paths");
    for (const toml::node& e : *arr) {
      if (!e.is_string()) throw SweepError(at(path, &e), "key 'sweep.metrics'", "entries must be strings");
      spec.metrics.push_back(e.value<std::string>().value());
    }
  }
  if (const toml::node* n = s->get("confidence")) {
    const double c = n->value<double>().value_or(-1);
    if (!n->is_number() || !(c > 0 && c < 1))
      throw SweepError(at(path, n), "key 'sweep.confidence'", "must be a number between 0 and 1, like 0.95");
    spec.confidence = c;
  }
  if (const toml::node* axes = doc.get("axis")) {
    const toml::array* arr = axes->as_array();
    if (!arr) throw SweepError(at(path, axes), "key 'axis'", "must be a list of tables: [[axis]]");
    for (const toml::node& item : *arr) read_axis(path, item, spec);
  }
  return spec;
}

void apply_set(SweepSpec& spec, const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key = eq == std::string::npos ? assignment : assignment.substr(0, eq);
  if (eq == std::string::npos || key.empty())
    throw SweepError("--set", "'" + assignment + "'", "write KEY=VALUE, KEY=v1,v2,... or KEY=lo..hi:step");
  Axis axis;
  axis.key = key;
  axis.where = "--set";
  parse_axis_text(assignment.substr(eq + 1), axis);
  // Whatever the spec said about this key gives way to the command line.
  std::erase_if(spec.axes, [&](const Axis& a) { return a.key == key; });
  std::erase_if(spec.fixed, [&](const std::string& f) { return f.substr(0, f.find('=')) == key; });
  if (!axis.continuous && axis.values.size() == 1 && key != kHardwareAxis)
    spec.fixed.push_back(key + "=" + axis.values[0].toml);
  else
    spec.axes.push_back(std::move(axis));
}

}  // namespace cli::sweep
