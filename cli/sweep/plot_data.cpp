#include "cli/sweep/plot_data.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "cli/sweep/sweep_error.h"
#include "models/scenario/key_reference.h"
#include "models/scenario/units.h"

namespace cli::sweep {

namespace {

bool as_number(const std::string& s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool as_size(const std::string& t, double& v) {
  std::uint64_t bytes = 0;
  if (!models::parse_size(t, bytes)) return false;
  v = static_cast<double>(bytes);
  return true;
}
bool as_time(const std::string& t, double& v) { return models::parse_duration(t, v); }
bool as_rate(const std::string& t, double& v) { return models::parse_rate(t, v); }

// An axis's values as numbers, all read one way: as its key is (a size in
// bytes, a time in seconds, a rate in bytes a second, as the loader reads
// them: "1m" of warmup is a minute, of page_cache a mebibyte; probe 8), and
// for an axis that is no scenario key, bare numbers, else sizes, times or
// rates, as a sweep writes a range's values with units (probe 7: they were
// drawn as text, in the order first seen, and --logx did nothing).
bool as_numbers(const std::vector<std::string>& values, models::KeyType type, std::vector<double>& out) {
  const auto all = [&](bool (*read)(const std::string&, double&)) {
    out.assign(values.size(), 0);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (!read(values[i], out[i])) return false;
    return true;
  };
  switch (type) {
    case models::KeyType::kSize: return all(as_size);
    case models::KeyType::kDuration: return all(as_time);
    case models::KeyType::kRate: return all(as_rate);
    default: return all(as_number) || all(as_size) || all(as_time) || all(as_rate);
  }
}

// The type of the scenario key an axis sweeps (key_reference.h).
models::KeyType axis_type(const std::string& axis) {
  static const models::KeyReference ref = models::build_key_reference();
  return models::key_type_of(ref, axis);
}

// Distinct values in first-seen order, then sorted numerically (stably:
// "1" and "1.0" keep their order) when they all are numbers (as_numbers),
// whose values go to `numbers` in that order. A hash set finds the repeats
// and each value is read as a number once: n log n in the rows (a search
// of the values so far was quadratic, 30,000 distinct x values took 0.6 s).
std::vector<std::string> ordered(const std::vector<std::string>& seen, models::KeyType type, bool& numeric,
                                 std::vector<double>& numbers) {
  std::vector<std::string> out;
  std::unordered_set<std::string_view> known;
  for (const auto& s : seen)
    if (known.insert(s).second) out.push_back(s);
  std::vector<double> read;
  numeric = as_numbers(out, type, read);
  numbers.clear();
  if (!numeric) return out;
  std::vector<std::pair<double, std::size_t>> keys(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) keys[i] = {read[i], i};
  // "nan" reads as a number: it goes last, so the order stays a strict weak one.
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return !std::isnan(a.first) && (std::isnan(b.first) || a.first < b.first);
  });
  std::vector<std::string> sorted;
  sorted.reserve(out.size());
  for (const auto& k : keys) {
    sorted.push_back(std::move(out[k.second]));
    numbers.push_back(k.first);
  }
  return sorted;
}

std::size_t axis_index(const Columns& c, const std::string& key, const std::string& what) {
  const auto it = std::find(c.axes.begin(), c.axes.end(), key);
  if (it == c.axes.end()) {
    std::string known;
    for (const auto& a : c.axes) known += (known.empty() ? "" : ", ") + a;
    throw SweepError(what, "'" + key + "'", "is not an axis of these results (axes: " + common::shown_text(known) + ")");
  }
  return static_cast<std::size_t>(it - c.axes.begin());
}

}  // namespace

PlotData gather(const RowFile& file, const PlotQuery& q) {
  const Columns& c = file.columns;
  const std::size_t xi = axis_index(c, q.x, "--x");
  const std::size_t bi = q.by.empty() ? SIZE_MAX : axis_index(c, q.by, "--by");
  const auto mit = std::find(c.metrics.begin(), c.metrics.end(), q.y);
  if (mit == c.metrics.end()) throw SweepError("--y", "'" + q.y + "'", "is not a metric of these results");
  const std::size_t yi = static_cast<std::size_t>(mit - c.metrics.begin());

  std::vector<std::pair<std::size_t, std::string>> filters;
  for (const std::string& w : q.where) {
    const std::size_t eq = w.find('=');
    if (eq == std::string::npos) throw SweepError("--where", "'" + w + "'", "write AXIS=VALUE");
    filters.emplace_back(axis_index(c, w.substr(0, eq), "--where"), w.substr(eq + 1));
  }
  std::vector<const Row*> rows;
  for (const Row& r : file.rows)
    if (std::all_of(filters.begin(), filters.end(), [&](const auto& f) { return r.axes[f.first] == f.second; }))
      rows.push_back(&r);
  if (rows.empty()) throw SweepError("clerk plot", "", "no rows left to plot (check --where)");

  // Every other axis must be fixed, or one mean would mix different points.
  for (std::size_t a = 0; a < c.axes.size(); ++a) {
    if (a == xi || a == bi) continue;
    std::vector<std::string> seen;
    for (const Row* r : rows) seen.push_back(r->axes[a]);
    bool numeric = false;
    std::vector<double> numbers;
    const auto values = ordered(seen, axis_type(c.axes[a]), numeric, numbers);
    if (values.size() > 1) {
      std::string list;
      for (std::size_t i = 0; i < std::min<std::size_t>(values.size(), 6); ++i) list += (i ? ", " : "") + values[i];
      throw SweepError("clerk plot", "axis '" + c.axes[a] + "'",
                       "takes several values here (" + common::shown_text(list) + (values.size() > 6 ? ", ..." : "") +
                           "): choose one with --where " + c.axes[a] + "=VALUE, or plot it with --by");
    }
  }

  PlotData d;
  std::vector<std::string> xs, bys;
  for (const Row* r : rows) {
    xs.push_back(r->axes[xi]);
    bys.push_back(bi == SIZE_MAX ? "" : r->axes[bi]);
  }
  d.x_labels = ordered(xs, axis_type(q.x), d.x_numeric, d.x_values);
  std::vector<double> by_values;
  const std::vector<std::string> by_labels = ordered(bys, bi == SIZE_MAX ? models::KeyType::kValue : axis_type(q.by),
                                                     d.by_numeric, by_values);
  if (by_labels.size() > kMaxPlotSeries)
    throw SweepError("--by", "'" + q.by + "'",
                     "has " + std::to_string(by_labels.size()) + " values; a plot draws at most " +
                         std::to_string(kMaxPlotSeries) + " lines (keep fewer with --where)");
  // Rows grouped by (line, x) in one pass: looking up every cell's rows
  // was lines x points x rows (20,000 lines of 20,000 points never ended).
  std::unordered_map<std::string, std::size_t> x_at, by_at;
  for (std::size_t i = 0; i < d.x_labels.size(); ++i) x_at.emplace(d.x_labels[i], i);
  for (std::size_t i = 0; i < by_labels.size(); ++i) by_at.emplace(by_labels[i], i);
  std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cells;  // (line, x) -> values, in row order
  for (std::size_t i = 0; i < rows.size(); ++i) cells[{by_at.at(bys[i]), x_at.at(xs[i])}].push_back(rows[i]->metrics[yi]);
  for (const std::string& b : by_labels) d.series.push_back({b, {}});
  for (const auto& [at, values] : cells) d.series[at.first].cells.push_back({at.second, estimate(values, q.confidence)});
  return d;
}

}  // namespace cli::sweep
