// `clerk whatif SCENARIO --QUESTION`: the common questions as sweeps
// (cli/sweep: the plan, its checks and its parallel runner), each answered
// with a table, a figure (clerk plot's gnuplot) and a recommendation with its
// reasoning (cli/whatif/whatif_logic.h). Every run of one answer uses the
// same seeds, so two points differ by the varied key alone.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "common/finite_range.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "common/shown_text.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/sweep/plot_command.h"
#include "cli/sweep/plot_script.h"
#include "cli/sweep/sweep_error.h"
#include "cli/sweep/sweep_files.h"
#include "cli/sweep/sweep_plan.h"
#include "cli/sweep/sweep_progress.h"
#include "cli/sweep/sweep_runner.h"
#include "cli/sweep/sweep_stats.h"
#include "cli/whatif/whatif_logic.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/units.h"
#include "models/server/aio_modes.h"

namespace cli {

namespace fs = std::filesystem;
using namespace sweep;
using namespace whatif;

namespace {

constexpr const char* kAsked = "default";  // an option given without its list

struct WhatifArgs {
  std::string file;
  std::string threads, ram, disk;  // empty: not asked; kAsked: the default list
  bool reuseport = false;
  std::optional<double> load_until_p99;
  std::string group, watch;
  double within = 0.10;
  std::string seeds;
  unsigned jobs = 0;
  std::optional<double> duration_s;
  std::vector<std::string> sets;
  std::string figure;
  bool no_figure = false;
  std::string json_path;
};

// One point's figures, averaged over its seeds.
struct PointMean {
  std::vector<std::string> labels;  // per axis
  std::vector<double> metrics;      // per metric
};

// A size exactly, in g, m or k, the largest that divides it (models::parse_size
// reads it back as the same bytes): 100k stays 100k, never rounded to 1m,
// and two sizes given are never one point.
std::string size_text(std::uint64_t bytes) {
  if (bytes == 0) return "0";
  for (const auto& [unit, scale] : {std::pair{'g', 1ULL << 30}, {'m', 1ULL << 20}, {'k', 1ULL << 10}})
    if (bytes % scale == 0) return fmt::format("{}{}", bytes / scale, unit);
  return std::to_string(bytes);
}

AxisValue text_value(const std::string& text) { return {"\"" + text + "\"", text, false}; }
AxisValue number_value(double v) {
  const std::string t = fmt::format("{}", v);
  return {t, t, true};
}

// The aio modes compared, from their registry (models/server/aio_modes.h):
// the first that blocks the worker (no directive, `conf` null) and the first
// with a thread pool.
std::string blocking_aio() {
  for (const models::AioMode* m : models::aio_modes())
    if (!m->thread_pool && !m->conf) return m->name;
  return models::aio_modes().front()->name;
}
std::string pool_aio() {
  for (const models::AioMode* m : models::aio_modes())
    if (m->thread_pool) return m->name;
  return models::aio_modes().front()->name;
}

std::vector<std::string> metrics_for(const std::vector<std::string>& groups) {
  std::vector<std::string> m;
  for (const std::string& g : groups) {
    m.push_back("clients." + g + ".requests_per_s");
    m.push_back("clients." + g + ".latency_censored_s.p99");
  }
  return m;
}

// Runs the spec's sweep and averages each point over its seeds.
std::vector<PointMean> run_sweep(const SweepSpec& spec, unsigned jobs) {
  const Plan plan = make_plan(spec);
  const std::vector<RunRef> runs = plan.runs({});
  check_jobs_fit(plan, runs, jobs, spec.origin);  // make_plan checked each point alone
  std::map<std::uint64_t, std::vector<Row>> by_point;
  Progress progress(runs.size(), 0, isatty(STDERR_FILENO));
  run_all(plan, runs, jobs, [&](const Row& row) {
    by_point[row.point].push_back(row);
    progress.advance();
  });
  progress.finish();
  std::vector<PointMean> out;
  for (const auto& [index, rows] : by_point) {
    PointMean p{rows.front().axes, {}};
    for (std::size_t m = 0; m < plan.metrics.size(); ++m) {
      std::vector<double> v;
      for (const Row& r : rows) v.push_back(r.metrics[m]);
      p.metrics.push_back(estimate(v, 0.95).mean);
    }
    out.push_back(std::move(p));
  }
  return out;
}

WhatifRows rows_of(const std::vector<PointMean>& points, const std::vector<std::string>& groups, std::size_t axis,
                   const std::function<double(const std::string&)>& x_of) {
  WhatifRows rows{groups, {}};
  for (const PointMean& p : points) {
    PointFigures f{p.labels[axis], x_of(p.labels[axis]), {}};
    for (std::size_t g = 0; g < groups.size(); ++g) f.groups.push_back({p.metrics[2 * g], p.metrics[2 * g + 1]});
    rows.points.push_back(std::move(f));
  }
  return rows;
}

double number_of(const std::string& s) {
  try {
    return std::stod(s);
  } catch (const std::exception&) {
    return 0;
  }
}

// The table: the varied value(s), then each watched group's requests/s and p99.
std::string table(const std::string& axis_name, const std::vector<std::string>& heads, const std::vector<std::vector<std::string>>& keys,
                  const std::vector<const WhatifRows*>& parts, std::optional<std::size_t> marked_part,
                  std::optional<std::size_t> marked_point) {
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> head = heads;
  head.push_back(axis_name);
  for (const std::string& g : parts.front()->groups) {
    head.push_back(g + " req/s");
    head.push_back(g + " p99");
  }
  lines.push_back(head);
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::size_t i = 0; i < parts[k]->points.size(); ++i) {
      std::vector<std::string> line = keys[k];
      line.push_back(parts[k]->points[i].label);
      for (const GroupAt& g : parts[k]->points[i].groups) {
        line.push_back(fmt::format("{:.2f}", g.requests_per_s));
        line.push_back(seconds_text(g.p99_s));
      }
      line.push_back(marked_part == k && marked_point == i ? "<- recommended" : "");
      lines.push_back(line);
    }
  std::vector<std::size_t> width(head.size() + 1, 0);
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], l[i].size());
  std::string out;
  for (const auto& l : lines) {
    std::string s;
    for (std::size_t i = 0; i < l.size(); ++i)
      s += i + 1 == l.size() ? fmt::format("{:<{}}  ", l[i], width[i]) : fmt::format("{:>{}}  ", l[i], width[i]);
    s.erase(s.find_last_not_of(' ') + 1);
    out += s + "\n";
  }
  return out + "(p99: of every request issued, those still in flight at the end counted at their age; "
               "req/s: completed responses a second)\n";
}

PlotData plot_data(const std::vector<const WhatifRows*>& parts, const std::vector<std::string>& part_names,
                   bool numeric) {
  PlotData d;
  for (const PointFigures& p : parts.front()->points) {
    d.x_labels.push_back(p.label);
    d.x_values.push_back(p.x);
  }
  d.x_numeric = numeric;
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::size_t g = 0; g < parts[k]->groups.size(); ++g) {
      PlotSeries s{parts[k]->groups[g] + (part_names[k].empty() ? "" : ", " + part_names[k]), {}};
      for (std::size_t i = 0; i < parts[k]->points.size(); ++i)
        s.cells.push_back({i, estimate({parts[k]->points[i].groups[g].p99_s}, 0.95)});
      d.series.push_back(std::move(s));
    }
  return d;
}

// The points as JSON (--json): per part (aio mode for --ram), per point, per group.
nlohmann::ordered_json points_json(const std::vector<const WhatifRows*>& parts,
                                   const std::vector<std::string>& part_names) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (const PointFigures& p : parts[k]->points) {
      nlohmann::ordered_json groups = nlohmann::ordered_json::object();
      for (std::size_t g = 0; g < parts[k]->groups.size(); ++g)
        groups[parts[k]->groups[g]] = {{"requests_per_s", p.groups[g].requests_per_s},
                                       {"latency_censored_p99_s", p.groups[g].p99_s}};
      nlohmann::ordered_json j = {{"value", p.label}};
      if (!part_names[k].empty()) j["with"] = part_names[k];
      j["clients"] = groups;
      out.push_back(std::move(j));
    }
  return out;
}

std::string label_of(const WhatifRows& rows, const Recommendation& r) {
  return r.point ? rows.points[*r.point].label : std::string();
}

struct Answer {
  std::string heading;  // what was varied, in words
  std::string table;
  Recommendation rec;
  PlotData plot;
  PlotLook look;
  nlohmann::ordered_json points;  // points_json
  std::string recommended;        // the recommended point's value; empty: none
};

class Whatif {
 public:
  explicit Whatif(const WhatifArgs& a) : a_(a) {
    base_ = models::load_scenario(a.file, fixed());
    for (const auto& g : base_.clients) all_groups_.push_back(g.name);
    if (!a.group.empty() && std::find(all_groups_.begin(), all_groups_.end(), a.group) == all_groups_.end())
      throw SweepError("--group", "'" + a.group + "'", "is not a client group of " + a.file + unknown_hint());
    if (!a.watch.empty() && std::find(all_groups_.begin(), all_groups_.end(), a.watch) == all_groups_.end())
      throw SweepError("--watch", "'" + a.watch + "'", "is not a client group of " + a.file + unknown_hint());
    if (!(a.within > 0 && a.within < 1)) throw SweepError("--within", "", "must be between 0 and 1, like 0.1 for 10%");
    for (const std::string& g : watched()) check_group_in_paths(g, a.file);  // their metrics name them
    if (!a.watch.empty()) check_group_in_paths(a.watch, a.file);
  }

  // The files the scenario was read from (its includes too), and the
  // hardware profiles --disk swaps in.
  std::vector<std::string> inputs() const {
    std::vector<std::string> files = base_.files;
    if (!a_.disk.empty())
      for (const std::string& n : disk_names()) files.push_back(profile_of(n));
    return files;
  }

  Answer answer() {
    if (!a_.threads.empty()) return threads();
    if (a_.reuseport) return reuseport();
    if (!a_.ram.empty()) return ram();
    if (!a_.disk.empty()) return disk();
    return load();
  }

 private:
  std::string unknown_hint() const {
    std::string s;
    for (const auto& g : all_groups_) s += (s.empty() ? " (groups: " : ", ") + g;
    return s + ")";
  }
  std::vector<std::string> fixed() const {
    std::vector<std::string> f = a_.sets;
    if (a_.duration_s) f.push_back(fmt::format("duration={}", *a_.duration_s));
    return f;
  }
  std::vector<std::string> watched() const {
    if (!a_.group.empty()) return {a_.group};
    return all_groups_;
  }
  SweepSpec spec(const std::vector<std::string>& groups) const {
    SweepSpec s;
    s.origin = "clerk whatif";
    s.scenario = a_.file;
    s.fixed = fixed();
    if (!a_.seeds.empty()) s.seeds = parse_seeds(a_.seeds, "--seeds");
    s.metrics = metrics_for(groups);
    return s;
  }
  Axis axis(const std::string& key, const std::string& list, const std::string& fallback) const {
    Axis x;
    x.key = key;
    x.where = "--" + key;
    parse_axis_text(list == kAsked ? fallback : list, x);
    return x;
  }
  PlotLook look(const std::string& x_key, const std::string& title, bool log_x) const {
    PlotLook l;
    l.x_key = x_key;
    l.y_key = "p99 latency (s), requests in flight counted at their age";
    l.by_key = "group";
    l.title = fmt::format("clerk whatif {}: {}", fs::path(a_.file).filename().string(), title);
    l.log_x = log_x;
    l.log_y = true;
    return l;
  }

  Answer threads() {
    SweepSpec s = spec(watched());
    s.fixed.push_back("nginx.aio=\"" + pool_aio() + "\"");
    s.axes.push_back(axis("nginx.thread_pool.threads", a_.threads, "1..128:*2"));
    s.axes.back().where = "--threads";
    const WhatifRows rows = rows_of(run_sweep(s, a_.jobs), watched(), 0, number_of);
    Answer out;
    out.heading = "pool threads per worker (aio threads)";
    out.rec = pick_threads(rows, a_.within);
    out.table = table("threads", {}, {{}}, {&rows}, 0, out.rec.point);
    out.plot = plot_data({&rows}, {""}, true);
    out.points = points_json({&rows}, {""});
    out.recommended = label_of(rows, out.rec);
    out.look = look("nginx.thread_pool.threads (aio threads)", "p99 by pool threads per worker", true);
    return out;
  }

  Answer reuseport() {
    SweepSpec s = spec(watched());
    s.axes.push_back(axis("nginx.reuseport", kAsked, "off,on"));
    s.axes.back().where = "--reuseport";
    const WhatifRows rows = rows_of(run_sweep(s, a_.jobs), watched(), 0, number_of);
    Answer out;
    out.heading = "listen ... reuseport";
    out.rec = pick_reuseport(rows, a_.within);
    out.table = table("reuseport", {}, {{}}, {&rows}, 0, out.rec.point);
    out.plot = plot_data({&rows}, {""}, false);
    out.points = points_json({&rows}, {""});
    out.recommended = label_of(rows, out.rec);
    out.look = look("nginx.reuseport", "p99 without and with reuseport", false);
    return out;
  }

  // Page-cache sizes: the list given, or the scenario's own times 1/8 to 8.
  std::vector<std::uint64_t> ram_sizes() const {
    std::vector<std::uint64_t> sizes;
    if (a_.ram == kAsked) {
      for (double f : {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0})
        sizes.push_back(std::max<std::uint64_t>(1ULL << 20, static_cast<std::uint64_t>(
                                                               static_cast<double>(base_.hardware.page_cache_bytes) * f) >> 20 << 20));
    } else {
      for (const std::string& t : split_top_level(a_.ram)) {
        std::uint64_t b = 0;
        if (!models::parse_size(t, b)) throw SweepError("--ram", "'" + t + "'", "is not a size, like 16g or 512m");
        sizes.push_back(b);
      }
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
  }

  Answer ram() {
    const std::vector<std::uint64_t> sizes = ram_sizes();
    std::map<std::string, double> bytes;
    Axis mem;
    mem.key = "memory.page_cache";
    mem.where = "--ram";
    for (std::uint64_t b : sizes) {
      mem.values.push_back(text_value(size_text(b)));
      bytes[size_text(b)] = static_cast<double>(b);
    }
    Axis aio;
    aio.key = "nginx.aio";
    aio.where = "--ram";
    aio.values = {text_value(blocking_aio()), text_value(pool_aio())};
    SweepSpec s = spec(watched());
    s.axes = {aio, mem};  // the grid: aio off at every size, then aio threads
    // A settled warm-up that ends at once (took 0 s, settled): the data set
    // fits, and the window began cold (README, "Warm-up").
    s.metrics.push_back("warmup.took_s");
    s.metrics.push_back("warmup.settled");
    const std::vector<PointMean> points = run_sweep(s, a_.jobs);
    std::string cold;
    for (const PointMean& p : points)
      if (base_.warmup.settled && p.labels[0] == blocking_aio() && p.metrics[p.metrics.size() - 2] == 0 &&
          p.metrics.back() == 1)
        cold += (cold.empty() ? "" : ", ") + p.labels[1];
    std::vector<PointMean> off, thr;
    for (const PointMean& p : points) (p.labels[0] == blocking_aio() ? off : thr).push_back(p);
    auto x = [&](const std::string& l) { return bytes.at(l); };
    const WhatifRows r_off = rows_of(off, watched(), 1, x), r_thr = rows_of(thr, watched(), 1, x);
    Answer out;
    out.heading = "page cache (memory.page_cache), aio off against aio threads";
    out.rec = pick_ram(r_off, r_thr, a_.within);
    out.table = table("page cache", {"aio"}, {{blocking_aio()}, {pool_aio()}}, {&r_off, &r_thr}, std::nullopt, std::nullopt);
    if (!cold.empty())
      out.table += "(" + cold + ": the data set fits, so the warm-up had nothing to settle and the window began cold, "
                   "first reads included; with --set dataset.preload_fraction=1, sizes that hold it start with every file cached)\n";
    out.plot = plot_data({&r_off, &r_thr}, {"aio " + blocking_aio(), "aio " + pool_aio()}, false);
    out.recommended = label_of(r_off, out.rec);
    out.points = points_json({&r_off, &r_thr}, {"nginx.aio=" + blocking_aio(), "nginx.aio=" + pool_aio()});
    out.look = look("memory.page_cache", "p99 by page-cache size, aio off and aio threads", false);
    return out;
  }

  // A --disk name: a preset of `clerk new --disk` (raid10, ssd, raid1, none),
  // a hardware preset's name, or a profile's path.
  static std::string profile_of(const std::string& name) {
    if (const models::DiskKind* k = models::find_disk_kind(name); k && k->preset)
      return (fs::path(models::presets_dir()) / "hardware" / (std::string(k->preset) + ".toml")).string();
    if (name.find('/') == std::string::npos && !name.ends_with(".toml"))
      return (fs::path(models::presets_dir()) / "hardware" / (name + ".toml")).string();
    return name;
  }

  // --disk swaps the hardware profile the scenario includes: one must be
  // included, and set [disk] (else nothing would change).
  void check_swappable() const {
    const models::LayeredToml doc(a_.file, fixed());
    const toml::node* type = doc.find("disk.type");
    if (!type || !models::is_hardware_profile(doc.file_of(type)))
      throw SweepError(a_.file, "--disk",
                       "swaps the hardware profile the scenario includes (include = \"@hardware/NAME\"), but its "
                       "[disk] type is set " +
                           (type ? "at " + doc.file_of(type) + ":" + std::to_string(models::LayeredToml::line_of(type))
                                 : std::string("nowhere")) +
                           ": include a profile of scenarios/hardware/ instead");
  }

  // Does the scenario load on preset `name`? If not, `why` says so.
  bool holds(const std::string& name, std::string& why) const {
    try {
      models::load_scenario(a_.file, fixed(), profile_of(name));
      return true;
    } catch (const models::ConfigError& e) {
      why += fmt::format("(left out: {}, {})\n", name, e.what());
      return false;
    }
  }

  // The --disk names: those given, or every preset.
  std::vector<std::string> disk_names() const {
    if (a_.disk != kAsked) return split_top_level(a_.disk);
    std::vector<std::string> names;
    for (const models::DiskKind* k : models::disk_kinds())
      if (k->preset) names.emplace_back(k->name);
    return names;
  }

  Answer disk() {
    check_swappable();
    const std::vector<std::string> names = disk_names();
    Axis hw;
    hw.key = kHardwareAxis;
    hw.where = "--disk";
    std::map<std::string, std::string> name_of;
    std::string skipped;
    for (const std::string& n : names) {
      // The presets tried by default that cannot hold this scenario are
      // left out, saying why; one asked for by name is an error (make_plan's).
      if (a_.disk == kAsked && !holds(n, skipped)) continue;
      hw.values.push_back(text_value(profile_of(n)));
      name_of[profile_of(n)] = n;
    }
    if (hw.values.empty()) throw SweepError(a_.file, "--disk", "no hardware preset can hold this scenario:\n" + skipped);
    SweepSpec s = spec(watched());
    s.axes.push_back(hw);
    WhatifRows rows = rows_of(run_sweep(s, a_.jobs), watched(), 0, [](const std::string&) { return 0.0; });
    for (PointFigures& p : rows.points) p.label = name_of.at(p.label);
    const WhatifRows& kept = rows;
    Answer out;
    out.heading = "the machine: hardware presets (disk, and the CPUs, memory and NIC around it)";
    out.rec = pick_disk(kept, a_.within);
    out.table = table("machine", {}, {{}}, {&kept}, 0, out.rec.point) + skipped;
    out.plot = plot_data({&kept}, {""}, false);
    out.points = points_json({&kept}, {""});
  out.recommended = label_of(kept, out.rec);
    out.recommended = label_of(kept, out.rec);
    out.look = look("hardware preset", "p99 by machine", false);
    return out;
  }

  Answer load();

  const WhatifArgs& a_;
  models::Scenario base_;
  std::vector<std::string> all_groups_;
};

// Raise the group's load (connections, or rate for an open-loop group) until
// the watched group's p99 passes the limit: a ladder of doublings from the
// scenario's load, four rungs a round, then rounds of three points quartering
// the bracket until it is within 5% (or one connection). The loads tried
// depend on the figures alone, never on --jobs.
Answer Whatif::load() {
  const std::string group = a_.group.empty() ? all_groups_.front() : a_.group;
  const std::string watch = a_.watch.empty() ? group : a_.watch;
  const double limit = *a_.load_until_p99;
  if (!(limit > 0)) throw SweepError("--load-until-p99", "", "must be a latency above 0 s, like 0.5");
  // A request's latency is seen within the run: a p99 as long as the run never is.
  if (limit >= base_.duration_s)
    throw SweepError("--load-until-p99", "", fmt::format("{} s cannot be seen in runs of {} s: give a longer "
                                                         "--duration (several times the limit)",
                                                         limit, base_.duration_s));
  const models::WrkGroupSpec* spec_g = nullptr;
  for (const auto& g : base_.clients)
    if (g.name == group) spec_g = &g;
  // A trace group's load is the log's own times: its replay speed scales it
  // (more connections would only serve the same requests).
  const bool trace = spec_g->trace.enabled();
  const bool open_loop = trace || spec_g->rate > 0;
  const std::string key = "clients." + group + (trace ? ".speed" : open_loop ? ".rate" : ".connections");
  const std::string words = trace       ? group + " replay speed (times the log's rate)"
                            : open_loop ? group + " requests/s offered"
                                        : group + " connections";
  const double lowest = open_loop ? 1e-3 : spec_g->threads;
  const double start = trace ? spec_g->trace.speed : open_loop ? spec_g->rate : spec_g->connections;
  constexpr double kMost = 1 << 20;  // connections or requests/s: far beyond any machine's pool of sockets
  std::vector<std::string> groups = {watch};
  for (const auto& g : watched())
    if (g != watch) groups.push_back(g);

  WhatifRows rows{groups, {}};
  std::map<double, bool> tried;
  double ceiling = kMost;   // the first load this machine could not simulate
  std::string ceiling_why;
  auto fits = [&](double v) {
    if (v >= ceiling) return false;
    std::vector<std::string> o = fixed();
    o.push_back(key + "=" + number_value(v).toml);
    try {
      const models::Scenario sc = models::load_scenario(a_.file, o);
      models::check_fits_machine(sc, sc.duration_s, a_.file);
      return true;
    } catch (const models::ConfigError& e) {
      ceiling = v;
      ceiling_why = e.what();
      return false;
    }
  };
  auto round = [&](std::vector<double> loads) {
    Axis x;
    x.key = key;
    x.where = "--load-until-p99";
    for (double v : loads) {
      v = open_loop ? std::round(v * 1000) / 1000 : std::round(v);
      v = std::clamp(v, lowest, kMost);
      if (tried.count(v) || !fits(v)) continue;
      tried[v] = true;
      x.values.push_back(number_value(v));
    }
    if (x.values.empty()) return;
    SweepSpec s = spec(groups);
    s.axes.push_back(x);
    for (PointFigures& p : rows_of(run_sweep(s, a_.jobs), groups, 0, number_of).points) rows.points.push_back(p);
  };
  // The ladder: up from the scenario's load until the limit is passed, or down until it is not.
  round({start, start * 2, start * 4, start * 8});
  for (int i = 0; i < 8; ++i) {
    const LoadBracket b = load_bracket(rows, limit);
    if (!b.last_under) {
      const double low = rows.points[*b.first_over].x;
      if (low <= lowest) break;
      round({low / 2, low / 4, low / 8, low / 16});
    } else if (!b.first_over) {
      const double high = rows.points[*b.last_under].x;
      if (high * 2 >= ceiling) break;
      round({high * 2, high * 4, high * 8, high * 16});
    } else {
      break;
    }
  }
  // Bisection: quarter the bracket until it is narrow.
  for (int i = 0; i < 12; ++i) {
    const LoadBracket b = load_bracket(rows, limit);
    if (!b.last_under || !b.first_over) break;
    const double lo = rows.points[*b.last_under].x, hi = rows.points[*b.first_over].x;
    if (hi - lo <= (open_loop ? 0.05 * lo : std::max(1.0, 0.05 * lo))) break;
    round({lo + (hi - lo) / 4, lo + (hi - lo) / 2, lo + 3 * (hi - lo) / 4});
  }
  std::sort(rows.points.begin(), rows.points.end(), [](const auto& p, const auto& q) { return p.x < q.x; });
  const WhatifRows& kept = rows;
  Answer out;
  out.heading = fmt::format("{} ({}), until {}'s p99 passes {}", words, key, watch, limit_text(limit));
  out.rec = pick_load(kept, limit, trace ? "times the log's rate" : open_loop ? "requests/s" : "connections");
  out.table = table(open_loop ? "requests/s" : "connections", {}, {{}}, {&kept}, 0, out.rec.point);
  if (!ceiling_why.empty())
    out.table += fmt::format("(not tried: {} {} and more, beyond what this machine can simulate: {})\n",
                             number_value(ceiling).label, open_loop ? "requests/s" : "connections", ceiling_why);
  out.plot = plot_data({&kept}, {""}, true);
  out.points = points_json({&kept}, {""});
  out.recommended = label_of(kept, out.rec);
  out.look = look(key, fmt::format("p99 by load (limit {})", limit_text(limit)), true);
  return out;
}

int count_questions(const WhatifArgs& a) {
  return !a.threads.empty() + a.reuseport + !a.ram.empty() + !a.disk.empty() + a.load_until_p99.has_value();
}

std::string default_figure(const WhatifArgs& a) {
  const char* q = !a.threads.empty() ? "threads"
                  : a.reuseport      ? "reuseport"
                  : !a.ram.empty()   ? "ram"
                  : !a.disk.empty()  ? "disk"
                                     : "load";
  return "whatif-" + fs::path(a.file).stem().string() + "-" + q;
}

// The outputs can be written and are none of `inputs`.
void check_outputs(const WhatifArgs& a, const std::string& figure, const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::string>> outputs;
  if (!figure.empty())
    for (const char* ext : {".png", ".svg"}) outputs.emplace_back("--figure", figure + ext);
  if (!a.json_path.empty()) outputs.emplace_back("--json", a.json_path);
  check_distinct_outputs(outputs);
  if (!figure.empty()) {
    check_writable(figure + ".png", inputs);
    check_writable(figure + ".svg", inputs);
  }
  if (!a.json_path.empty()) check_writable(a.json_path, inputs);
}

// The JSON and the figure's pictures together, all or none
// (common::OutputSet); the exit status.
int write_outputs(const WhatifArgs& a, const std::string& figure, const Answer& ans) {
  common::OutputSet json;
  if (!a.json_path.empty()) {
    nlohmann::ordered_json j = {{"scenario", a.file}, {"varied", ans.heading}, {"within", a.within},
                                {"points", ans.points}};
    j["recommendation"] = {{"value", ans.rec.point ? nlohmann::ordered_json(ans.recommended)
                                                   : nlohmann::ordered_json(nullptr)},
                           {"answer", ans.rec.answer}, {"why", ans.rec.why}};
    json.add(a.json_path, common::json_text(j, 2) + "\n");
  }
  if (figure.empty()) {
    write_together(json);
    return 0;
  }
  return draw_figure(  // no JSON without its figure
      [&](const std::string& png, const std::string& svg) { return gnuplot_script(ans.plot, ans.look, png, svg); },
      figure, "gnuplot", std::move(json));
}

// The table, the recommendation and its reasons.
void print_report(const WhatifArgs& a, const Answer& ans) {
  std::cout << common::shown_lines(fmt::format("clerk whatif {}: varying {}\n\n", a.file, ans.heading) + ans.table) << "\n";
  std::cout << "Recommendation: " << common::shown_lines(ans.rec.answer) << "\n";
  if (!ans.rec.why.empty()) std::cout << "Why: " << common::shown_lines(ans.rec.why) << "\n";
  if (a.seeds.empty())
    std::cout << "(one run a point, on the scenario's seed: differences of a few percent can be chance; "
                 "--seeds 5 averages five)\n";
}

int whatif_command(const WhatifArgs& a) {
  try {
    if (count_questions(a) != 1)
      throw SweepError("clerk whatif", "", "ask one question: --threads, --reuseport, --ram, --disk or --load-until-p99 X "
                                           "(see clerk whatif --help)");
    const std::string figure = a.no_figure ? "" : a.figure.empty() ? default_figure(a) : a.figure;
    if (!figure.empty()) check_figure_prefix(figure, "--figure");
    check_outputs(a, figure, {a.file});
    Whatif w(a);  // loads the scenario: its errors come first
    check_outputs(a, figure, w.inputs());  // and then its includes too
    if (!figure.empty()) check_gnuplot("--figure (or --no-figure)");  // before any run
    const Answer ans = w.answer();
    // The files first, the report on standard output after them, as run,
    // compare, validate and sweep do: a reader of the report that has gone
    // (clerk whatif ... | head -3) ends clerk at its next write to standard
    // output, quietly, by SIGPIPE (cli/main.cpp), and the figure and the
    // JSON were lost with it when the table came first.
    const int status = write_outputs(a, figure, ans);
    print_report(a, ans);
    return status;
  } catch (const SweepError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

void add_whatif_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<WhatifArgs>();
  WhatifArgs& a = *args;
  CLI::App* cmd = clerk.add_subcommand(
      "whatif", "Answer a common question about a scenario with a sweep: a table, a figure and a recommendation");
  cmd->add_option("scenario", a.file, "the scenario file")->required();
  cmd->footer(
      "Ask one question:\n"
      "  clerk whatif my.toml --threads              pool threads per worker 1,2,4..128 (aio threads)\n"
      "  clerk whatif my.toml --threads=8,16,32      the counts given\n"
      "  clerk whatif my.toml --reuseport            listen ... reuseport off and on\n"
      "  clerk whatif my.toml --ram                  page cache 1/8 to 8 times the scenario's, aio off and threads\n"
      "  clerk whatif my.toml --ram=4g,16g,64g       the sizes given\n"
      "  clerk whatif my.toml --disk                 every hardware preset of clerk new --disk\n"
      "  clerk whatif my.toml --disk=ssd,scenarios/hardware/local.toml   presets by name, or profiles by path\n"
      "  clerk whatif my.toml --load-until-p99 0.5   raise a group's load until its p99 passes 0.5 s\n"
      "\"Within\" (--within, default 0.1): a p99 at most 10% above the best and requests/s at most 10% below.");
  cmd->add_option("--threads", a.threads, "vary nginx.thread_pool.threads (a list or a range like 1..128:*2)")
      ->expected(0, 1)
      ->default_str(kAsked)
      ->option_text("[=LIST]");
  cmd->add_flag("--reuseport", a.reuseport, "vary nginx.reuseport: off and on");
  cmd->add_option("--ram", a.ram, "vary memory.page_cache with aio off and aio threads (sizes like 4g,16g)")
      ->expected(0, 1)
      ->default_str(kAsked)
      ->option_text("[=LIST]");
  cmd->add_option("--disk", a.disk, "vary the machine: hardware presets (raid10, ssd, raid1, none) or profile files")
      ->expected(0, 1)
      ->default_str(kAsked)
      ->option_text("[=LIST]");
  cmd->add_option("--load-until-p99", a.load_until_p99, "raise --group's load until --watch's p99 passes this many seconds");
  cmd->add_option("--group", a.group, "the client group whose load --load-until-p99 raises; for the other questions, "
                                      "the only group watched (default: every group)");
  cmd->add_option("--watch", a.watch, "the group whose p99 --load-until-p99 watches (default: --group)");
  cmd->add_option("--within", a.within, "how close to the best counts as as good (default 0.1: 10%)");
  cmd->add_option("--seeds", a.seeds, "seeds per point: a count N (seeds 1..N) or a list (default: the scenario's seed)");
  cmd->add_option("-j,--jobs", a.jobs, "runs in parallel (default: one per core)")->check(common::whole_range(0u, 1024u));
  cmd->add_option("--duration", a.duration_s, "simulated seconds of every run")->check(duration_check());
  cmd->add_option("--set", a.sets, "KEY=VALUE for every run, as clerk run --set (repeatable)");
  cmd->add_option("--figure", a.figure, "write the figure to OUT.png and OUT.svg (default whatif-SCENARIO-QUESTION)")
      ->check(file_name_check());
  cmd->add_flag("--no-figure", a.no_figure, "no figure (and no gnuplot)");
  cmd->add_option("--json", a.json_path, "write the points and the recommendation as JSON (SI units) to this file")
      ->check(file_name_check());
  commands.add(cmd, [args] { return whatif_command(*args); });
}

}  // namespace cli
