#include "cli/compare_table.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>

#include "common/shown_text.h"

namespace cli {

namespace {

using models::WaitCause;

// The causes a D share is split into, in the run report's words
// (models/scenario/report.cpp), "other" last.
struct Cause {
  WaitCause cause;
  const char* key;    // the JSON's (wait_cause_key)
  const char* words;  // the table's
};
constexpr Cause kCauses[] = {{WaitCause::kDiskData, "disk_data", "disk data"},
                             {WaitCause::kDiskMetadata, "disk_metadata", "metadata (open)"},
                             {WaitCause::kReclaim, "reclaim", "memory reclaim"},
                             {WaitCause::kRequestSlot, "request_slot", "request slot"},
                             {WaitCause::kNone, "other", "other"}};

double cause_share(const StateFigures& s, WaitCause c) { return s.blocked[static_cast<std::size_t>(c)]; }

StateFigures states(std::uint64_t tasks, double r, double s, double d, double cpu_wait,
                    const models::BlockedByCause& b) {
  return {tasks, r, s, d, cpu_wait, b};
}

const GroupFigures* group(const CompareFigures& f, const std::string& name) {
  for (const GroupFigures& g : f.groups)
    if (g.name == name) return &g;
  return nullptr;
}

std::string seconds(double s) {
  if (std::isnan(s)) return "-";
  if (s >= 1) return fmt::format("{:.2f} s", s);
  if (s >= 1e-3) return fmt::format("{:.1f} ms", s * 1e3);
  return fmt::format("{:.0f} us", s * 1e6);
}
std::string percent(double share) { return fmt::format("{:.1f} %", share * 100); }

// The columns' headings: the scenarios' names without the folder they all
// share ("alternatives/"), which the table's first line names once.
std::string shared_folder(const std::vector<CompareFigures>& runs) {
  std::string prefix = runs.front().scenario.substr(0, runs.front().scenario.rfind('/') + 1);
  for (const CompareFigures& f : runs)
    if (f.scenario.rfind(prefix, 0) != 0 || f.scenario.size() == prefix.size()) return "";
  return prefix;
}

// A cause row is left out when no run has time in it, as the run report does.
bool any_time(const std::vector<CompareFigures>& runs, StateFigures CompareFigures::*who, WaitCause c) {
  return std::any_of(runs.begin(), runs.end(), [&](const CompareFigures& f) { return cause_share(f.*who, c) > 0; });
}

struct Row {
  std::string label;
  std::vector<std::string> cells;
};

std::vector<Row> rows_of(const std::vector<CompareFigures>& runs) {
  std::vector<Row> rows;
  auto row = [&](const std::string& label, const std::function<std::string(const CompareFigures&)>& f) {
    Row r{label, {}};
    for (const CompareFigures& x : runs) r.cells.push_back(f(x));
    rows.push_back(std::move(r));
  };
  row("simulated time", [](const auto& f) { return fmt::format("{:g} s", f.duration_s); });
  row("server outbound (ifstat)", [](const auto& f) { return fmt::format("{:.2f} Gbit/s", f.nic_gbps); });
  for (const std::string& n : group_names(runs)) {
    const std::string shown = common::shown_text(n);  // a group's name is the scenario's text: escaped for the terminal
    auto cell = [&](const std::function<std::string(const GroupFigures&)>& f) {
      return [&, f](const CompareFigures& x) {
        const GroupFigures* g = group(x, n);
        return g ? f(*g) : std::string("-");
      };
    };
    row(shown + ": requests/s", cell([](const auto& g) { return fmt::format("{:.2f} req/s", g.requests_per_s); }));
    row(shown + ": mean latency (wrk)", cell([](const auto& g) { return seconds(g.mean_s); }));
    row(shown + ": p99 latency (completed)", cell([](const auto& g) { return seconds(g.p99_s); }));
    row(shown + ": transfer", cell([](const auto& g) { return fmt::format("{:.1f} MB/s", g.transfer_Bps / 1e6); }));
  }
  row("all groups: p99 latency (completed)", [](const auto& f) { return seconds(f.p99_all_s); });
  row("all groups: in flight at the end", [](const auto& f) { return fmt::format("{} requests", f.in_flight); });
  row("disk read", [](const auto& f) { return fmt::format("{:.1f} MB/s", f.disk_read_Bps / 1e6); });
  row("disk %util / queue depth per drive",
      [](const auto& f) { return fmt::format("{:.0f} % / {:.1f}", f.disk_utilization * 100, f.disk_queue_depth); });
  row("page cache hit ratio (lookups)", [](const auto& f) { return fmt::format("{:.3f}", f.cache_hit_ratio); });
  row("requests that never waited for disk", [](const auto& f) {
    return f.requests_without_disk_wait < 0 ? std::string("-") : percent(f.requests_without_disk_wait);
  });
  row("iowait (top %wa)", [](const auto& f) { return percent(f.iowait); });
  row("workers R / S / D (top)", [](const auto& f) {
    return fmt::format("{:.0f} / {:.0f} / {:.0f} %", f.workers.running * 100, f.workers.sleeping * 100,
                       f.workers.disk_wait * 100);
  });
  for (const Cause& c : kCauses)
    if (any_time(runs, &CompareFigures::workers, c.cause))
      row(fmt::format("  worker D: {}", c.words), [&](const auto& f) { return percent(cause_share(f.workers, c.cause)); });
  row("  worker R waiting for a CPU", [](const auto& f) { return percent(f.workers.cpu_wait); });
  row("event loop blocked (waits behind D)", [](const auto& f) {
    return fmt::format("{:.1f} % of responses", f.delayed_share * 100);
  });
  row("pool threads R / S / D (top)", [](const auto& f) {
    return f.pool ? fmt::format("{:.0f} / {:.0f} / {:.0f} %", f.pool_threads.running * 100,
                                f.pool_threads.sleeping * 100, f.pool_threads.disk_wait * 100)
                  : std::string("no pool");
  });
  for (const Cause& c : kCauses)
    if (any_time(runs, &CompareFigures::pool_threads, c.cause))
      row(fmt::format("  pool D: {}", c.words),
        [&](const auto& f) { return f.pool ? percent(cause_share(f.pool_threads, c.cause)) : std::string("-"); });
  row("pool tasks / overflows", [](const auto& f) {
    return f.pool ? fmt::format("{} / {}", f.pool_tasks, f.pool_overflows) : std::string("-");
  });
  return rows;
}

nlohmann::ordered_json states_json(const StateFigures& s) {
  nlohmann::ordered_json by_cause = nlohmann::ordered_json::object();
  for (const Cause& c : kCauses) by_cause[c.key] = cause_share(s, c.cause);
  return {{"tasks", s.tasks},         {"running_frac", s.running}, {"sleeping_frac", s.sleeping},
          {"disk_wait_frac", s.disk_wait}, {"cpu_wait_frac", s.cpu_wait}, {"blocked_by_cause", by_cause}};
}

}  // namespace

CompareFigures figures_of(const models::RunResult& r) {
  CompareFigures f;
  f.scenario = r.scenario;
  f.file = r.file;
  f.duration_s = r.duration_s;
  f.nic_gbps = r.nic_out_gbps_mean;
  for (const models::WrkResult& c : r.clients)
    f.groups.push_back({c.spec.name, static_cast<double>(c.complete) / c.runtime_s, c.latency_mean,
                        c.raw.percentile(99), static_cast<double>(c.bytes) / c.runtime_s});
  f.p99_all_s = r.latency_all.percentile(99);
  f.in_flight = r.in_flight_all;
  f.workers = states(r.workers.size(), r.workers_running, r.workers_sleeping, r.workers_disk_wait, r.workers_cpu_wait,
                     r.workers_blocked_by_cause);
  f.pool = r.thread_pool;
  f.pool_threads = states(r.pool_threads, r.pool_running, r.pool_sleeping, r.pool_disk_wait, r.pool_cpu_wait,
                          r.pool_blocked_by_cause);
  f.pool_tasks = r.pool_tasks;
  f.pool_overflows = r.pool_overflows;
  f.iowait = r.iowait_frac;
  f.cache_hit_ratio = r.cache_hit_ratio;
  if (r.requests_with_stages)
    f.requests_without_disk_wait =
        static_cast<double>(r.requests_without_disk_wait) / static_cast<double>(r.requests_with_stages);
  f.disk_read_Bps = r.disk_read_bytes_per_s;
  f.disk_queue_depth = r.disk_mean_queue_depth;
  f.disk_utilization = r.disk_utilization;
  f.blocked_wait_s = r.blocked_wait_s;
  f.delayed_share = r.responses_delayed_share;
  return f;
}

std::vector<std::string> group_names(const std::vector<CompareFigures>& runs) {
  std::vector<std::string> names;
  for (const CompareFigures& f : runs)
    for (const GroupFigures& g : f.groups)
      if (std::find(names.begin(), names.end(), g.name) == names.end()) names.push_back(g.name);
  return names;
}

std::string compare_table(const std::vector<CompareFigures>& runs, std::uint64_t seed) {
  const std::string folder = shared_folder(runs);
  // A scenario's name is its file's path when it gives none, and a path may
  // hold any byte but '/' and NUL: the headings, as the group names, are
  // shown escaped (and measured so, for the columns' widths).
  std::vector<std::string> heads;
  for (const CompareFigures& f : runs) heads.push_back(common::shown_text(f.scenario.substr(folder.size())));
  const std::vector<Row> rows = rows_of(runs);
  std::size_t label_width = 0;
  for (const Row& r : rows) label_width = std::max(label_width, r.label.size());
  std::vector<std::size_t> width(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    width[i] = heads[i].size();
    for (const Row& r : rows) width[i] = std::max(width[i], r.cells[i].size());
  }
  std::string out = fmt::format("{} scenario{}{}, seed {} for every one (the same random draws)\n", runs.size(),
                                runs.size() == 1 ? "" : "s",
                                folder.empty() ? "" : " in " + common::shown_text(folder), seed);
  auto line = [&](const std::string& label, const std::vector<std::string>& cells) {
    std::string s = fmt::format("{:<{}}", label, label_width);
    for (std::size_t i = 0; i < cells.size(); ++i) s += fmt::format("  {:>{}}", cells[i], width[i]);
    return s + "\n";
  };
  out += line("", heads);
  for (const Row& r : rows) out += line(r.label, r.cells);
  out += "(D shares: of the run, per task, as top's states; split by the kernel's wait channel; causes no run has are left out)\n";
  return out;
}

nlohmann::ordered_json compare_json(const std::vector<CompareFigures>& runs, std::uint64_t seed) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CompareFigures& f : runs) {
    nlohmann::ordered_json groups = nlohmann::ordered_json::object();
    for (const GroupFigures& g : f.groups)
      groups[g.name] = {{"requests_per_s", g.requests_per_s}, {"latency_mean_s", g.mean_s},
                        {"latency_p99_s", g.p99_s}, {"transfer_bytes_per_s", g.transfer_Bps}};
    nlohmann::ordered_json j = {{"scenario", f.scenario},
                                {"file", f.file},
                                {"duration_s", f.duration_s},
                                {"nic_out_gbps_mean", f.nic_gbps},
                                {"clients", groups},
                                {"latency_p99_all_s", f.p99_all_s},
                                {"in_flight_at_end", f.in_flight},
                                {"disk", {{"read_bytes_per_s", f.disk_read_Bps},
                                          {"utilization", f.disk_utilization},
                                          {"mean_queue_depth", f.disk_queue_depth}}},
                                {"page_cache_hit_ratio", f.cache_hit_ratio},
                                {"iowait_frac", f.iowait},
                                {"workers", states_json(f.workers)},
                                {"event_loop_blocked", {{"total_s", f.blocked_wait_s},
                                                        {"requests_delayed_share", f.delayed_share}}}};
    if (f.requests_without_disk_wait >= 0) j["requests_without_disk_wait_share"] = f.requests_without_disk_wait;
    if (f.pool) {
      j["pool_threads"] = states_json(f.pool_threads);
      j["pool_threads"]["pool_tasks"] = f.pool_tasks;
      j["pool_threads"]["overflows"] = f.pool_overflows;
    }
    list.push_back(std::move(j));
  }
  return {{"seed", seed}, {"scenarios", list}};
}

sweep::BarChart compare_chart(const std::vector<CompareFigures>& runs, std::uint64_t seed) {
  sweep::BarChart chart;
  const std::string folder = shared_folder(runs);
  chart.title = fmt::format("clerk compare{}: seed {} for every scenario", folder.empty() ? "" : " " + folder, seed);
  for (const CompareFigures& f : runs) chart.categories.push_back(f.scenario.substr(folder.size()));
  const std::vector<std::string> names = group_names(runs);
  sweep::BarPanel rps{"requests/s per client group", names, {}, false, false};
  sweep::BarPanel mean{"mean latency, as wrk (s, log scale)", names, {}, false, true};
  sweep::BarPanel p99{"p99 latency of completed responses (s, log scale)", names, {}, false, true};
  sweep::BarPanel disk{"disk read (MB/s)", {"all drives"}, {}, false, false};
  sweep::BarPanel top{"workers' states, as top (% of the run per worker)", {"R", "S", "D"}, {}, true, false};
  sweep::BarPanel blocked{"workers' D by cause (% of the run per worker)", {}, {}, true, false};
  for (const Cause& c : kCauses) blocked.series.push_back(c.words);
  for (const CompareFigures& f : runs) {
    std::vector<double> r, m, p;
    for (const std::string& n : names) {
      const GroupFigures* g = group(f, n);
      r.push_back(g ? g->requests_per_s : NAN);
      m.push_back(g && g->mean_s > 0 ? g->mean_s : NAN);  // a log scale has no 0
      p.push_back(g && g->p99_s > 0 ? g->p99_s : NAN);
    }
    rps.values.push_back(r);
    mean.values.push_back(m);
    p99.values.push_back(p);
    disk.values.push_back({f.disk_read_Bps / 1e6});
    top.values.push_back({f.workers.running * 100, f.workers.sleeping * 100, f.workers.disk_wait * 100});
    std::vector<double> b;
    for (const Cause& c : kCauses) b.push_back(cause_share(f.workers, c.cause) * 100);
    blocked.values.push_back(b);
  }
  chart.panels = {rps, disk, mean, p99, top, blocked};
  return chart;
}

}  // namespace cli
