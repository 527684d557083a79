#include "testbed/realrun/comparison.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>

#include "models/os/tcp_pacing.h"
#include "testbed/realrun/loopback_tcp_check.h"

namespace testbed {

namespace {

constexpr double kEffectTolerance = 0.30;  // the bar for the thread pool's effect

std::string show(double v, const std::string& unit) {
  if (unit == "s") return v < 1 ? fmt::format("{:.2f}ms", v * 1e3) : fmt::format("{:.2f}s", v);
  if (unit == "B/s") return v >= 1e9 ? fmt::format("{:.2f}GB/s", v / 1e9) : fmt::format("{:.1f}MB/s", v / 1e6);
  if (unit == "share") return fmt::format("{:.1f}%", v * 100);
  return fmt::format("{:.1f}", v);
}

std::string show_spread(const Spread& s, const std::string& unit, std::size_t n) {
  if (s.count == 0) return "-";
  if (n <= 1) return show(s.median, unit);
  return fmt::format("{} ({}-{})", show(s.median, unit), show(s.min, unit), show(s.max, unit));
}

// A setting that could not be read is null in the JSON, not "".
nlohmann::json text_or_null(const std::string& v) { return v.empty() ? nlohmann::json() : nlohmann::json(v); }
nlohmann::json pacing_or_null(const common::LoopbackTcp& l) {
  if (l.congestion_control.empty() || l.lo_qdisc.empty()) return nlohmann::json();
  return models::loopback_pacing(l.congestion_control, l.lo_qdisc);
}

double relative(double predicted, double measured) {
  if (measured == 0) return predicted == 0 ? 0 : INFINITY;
  return predicted / measured - 1;
}

// The medians over runs of one side's share of `cause` in `group` (nullopt
// when no run of that side reports it).
std::optional<Spread> blocked_spread(const std::vector<RunFigures>& runs, const std::string& group,
                                     const std::string& cause) {
  std::vector<double> v;
  for (const RunFigures& f : runs) {
    const auto g = f.blocked.find(group);
    if (g == f.blocked.end()) continue;
    const auto c = g->second.find(cause);
    if (c != g->second.end()) v.push_back(c->second);
  }
  if (v.empty()) return std::nullopt;
  return spread_of(v);
}

std::vector<std::string> blocked_groups(const ScenarioComparison& c) {
  std::vector<std::string> groups;
  for (const auto* side : {&c.real, &c.simulated})
    for (const RunFigures& f : *side)
      for (const auto& [g, causes] : f.blocked)
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  std::sort(groups.begin(), groups.end());  // "main" before "pool"
  return groups;
}

std::string list_shares(const std::vector<std::pair<std::string, double>>& v) {
  std::string out;
  for (const auto& [name, share] : v) out += fmt::format("{}{} {:.1f}%", out.empty() ? "" : ", ", name, share * 100);
  return out.empty() ? "-" : out;
}

// Where the workers' threads wait, real beside the model, then what the
// sampler saw in the first run (its top wchans, the D of no known cause).
std::string format_waits(const ScenarioComparison& c) {
  const std::vector<std::string> groups = blocked_groups(c);
  if (groups.empty()) return {};
  std::string out = "   where the workers' threads wait (share of each thread's time; medians over runs):\n";
  out += fmt::format("   {:<10} {:<13} {:>32} {:>32} {:>8}\n", "threads", "cause", "real (wchan/stack, schedstat)",
                     "simulated", "diff");
  for (const std::string& g : groups) {
    for (const std::string& cause : kBlockedKeys) {
      const auto real = blocked_spread(c.real, g, cause), sim = blocked_spread(c.simulated, g, cause);
      const std::string r = real ? show_spread(*real, "share", c.real.size()) : "-";
      const std::string m = sim ? show_spread(*sim, "share", c.simulated.size()) : "-";
      const std::string d = real && sim ? fmt::format("{:+.1f}pt", (sim->median - real->median) * 100) : "";
      out += fmt::format("   {:<10} {:<13} {:>32} {:>32} {:>8}\n", g, cause, r, m, d);
    }
  }
  if (!c.real_runs.empty()) {
    const RealRunResult& r = c.real_runs.front();
    for (const realrun::WaitSummary& w : r.waits) {
      out += fmt::format("   run 1, {} threads ({}, {} samples): R {:.1f}% S {:.1f}% D {:.1f}%", w.group, w.threads,
                         w.samples, w.running * 100, w.sleeping * 100, w.disk_wait * 100);
      out += w.schedstat ? fmt::format("; schedstat: on a CPU {:.1f}%, waiting for one {:.1f}%\n", w.on_cpu * 100,
                                       w.cpu_wait * 100)
                         : std::string("; no schedstat\n");
      out += fmt::format("     top wchans: {}\n", list_shares(w.top_wchans));
      if (!w.other_wchans.empty()) out += fmt::format("     D of no known cause: {}\n", list_shares(w.other_wchans));
    }
    out += fmt::format("   the sampling took {:.2f}% of one CPU\n", r.sampler_cpu_share * 100);
  }
  return out;
}

nlohmann::json waits_json(const realrun::WaitSummary& w) {
  return {{"threads", w.threads},         {"samples", w.samples},
          {"running", w.running},         {"sleeping", w.sleeping},
          {"disk_wait", w.disk_wait},     {"schedstat", w.schedstat},
          {"on_cpu", w.on_cpu},           {"cpu_wait", w.cpu_wait},
          {"blocked_by_cause", w.blocked_by_cause},
          {"top_wchans", w.top_wchans},   {"other_wchans", w.other_wchans}};
}

}  // namespace

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  s.count = n;
  return s;
}

void summarize(ScenarioComparison& c) {
  c.rows.clear();
  std::vector<std::string> groups;
  if (!c.real.empty())
    for (const auto& g : c.real.front().groups) groups.push_back(g.name);
  for (const Metric& m : metrics_for(groups)) {
    MetricRow row{m, {}, {}, 0, false, true};
    std::vector<double> real, sim;
    // A figure a side does not have (NaN) is left out of its spread.
    for (const auto& f : c.real)
      if (const double x = m.read(f, m.group_index); !std::isnan(x)) real.push_back(x);
    for (const auto& f : c.simulated)
      if (m.group_index < f.groups.size() || m.group.empty())
        if (const double x = m.read(f, m.group_index); !std::isnan(x)) sim.push_back(x);
    row.real = spread_of(real);
    row.simulated = spread_of(sim);
    row.error = row.real.count && row.simulated.count ? relative(row.simulated.median, row.real.median) : NAN;
    row.judged = m.tolerance > 0;
    row.within = !row.judged || std::fabs(row.error) <= m.tolerance;
    c.rows.push_back(row);
  }
}

std::vector<EffectRow> effect_of(const ScenarioComparison& a, const ScenarioComparison& b) {
  std::vector<EffectRow> out;
  for (const MetricRow& ra : a.rows) {
    auto rb = std::find_if(b.rows.begin(), b.rows.end(), [&](const MetricRow& r) {
      return r.metric.group == ra.metric.group && r.metric.name == ra.metric.name;
    });
    if (rb == b.rows.end() || ra.metric.unit == "share") continue;
    EffectRow e{ra.metric, 0, 0, 0, false, true, true};
    e.real = ra.real.median > 0 && rb->real.count ? rb->real.median / ra.real.median : NAN;
    e.simulated = ra.simulated.median > 0 && rb->simulated.count ? rb->simulated.median / ra.simulated.median : NAN;
    e.error = relative(e.simulated, e.real);
    e.judged = ra.metric.tolerance > 0;
    e.same_direction = (e.real >= 1) == (e.simulated >= 1);
    e.within = !e.judged || (e.same_direction && std::fabs(e.error) <= kEffectTolerance);
    out.push_back(e);
  }
  return out;
}

std::string format_comparison(const ScenarioComparison& c) {
  const std::size_t n = c.real.size();
  std::string out = fmt::format("== {} on {}: {} real run{} and their predictions\n", c.name, c.server, n,
                                n == 1 ? "" : "s");
  if (!c.real_runs.empty()) {
    const RealRunResult& r = c.real_runs.front();
    out += fmt::format("   {}; page cache: {}; {}\n", r.server_version, r.cache_control,
                       describe_loopback_tcp(r.loopback_tcp.congestion_control, r.loopback_tcp.lo_qdisc));
  }
  for (const std::string& w : c.warnings) out += "   " + w + "\n";
  out += fmt::format("   {:<10} {:<13} {:>32} {:>32} {:>8}  {}\n", "group", "figure", "real: median (min-max)",
                     "simulated: median (min-max)", "error", "");
  for (const MetricRow& row : c.rows) {
    const std::string verdict = !row.judged ? "" : row.within ? fmt::format("ok (±{:.0f}%)", row.metric.tolerance * 100)
                                                              : fmt::format("MISS (±{:.0f}%)", row.metric.tolerance * 100);
    const std::string error = std::isnan(row.error)          ? std::string("")
                              : row.metric.unit == "share" ? fmt::format("{:+.1f}pt", (row.simulated.median - row.real.median) * 100)
                                                           : fmt::format("{:+.1f}%", row.error * 100);
    out += fmt::format("   {:<10} {:<13} {:>32} {:>32} {:>8}  {}\n", row.metric.group.empty() ? "server" : row.metric.group,
                       row.metric.label, show_spread(row.real, row.metric.unit, n),
                       show_spread(row.simulated, row.metric.unit, c.simulated.size()), error, verdict);
  }
  for (std::size_t i = 0; i < c.real_runs.size(); ++i) {
    std::string placement;
    for (const auto& g : c.real_runs[i].groups) {
      placement += " " + g.name + "=[";
      for (std::size_t w = 0; w < g.placement.size(); ++w) placement += (w ? "," : "") + std::to_string(g.placement[w]);
      placement += "]";
    }
    out += fmt::format("   run {}: connections per worker{}\n", i + 1, placement);
  }
  out += format_waits(c);
  out += format_iostat(c);
  return out;
}

std::string format_iostat(const ScenarioComparison& c) {
  std::string out;
  for (std::size_t i = 0; i < c.real.size() && i < c.simulated.size(); ++i) {
    if (c.real[i].drives.empty() && c.simulated[i].drives.empty()) continue;
    out += fmt::format("   iostat -x, run {} (real: /sys/block/<dev>/stat and inflight; simulated: the model's queues)\n",
                       i + 1);
    out += fmt::format("   {:<10} {:<9} {:>9} {:>10} {:>8} {:>9} {:>9} {:>9} {:>7} {:>9}\n", "side", "device", "r/s",
                       "rkB/s", "rrqm/s", "avgqu-sz", "await ms", "%util", "max-inf", "mean-inf");
    const auto rows = [&out](const char* side, const std::vector<realrun::DriveIostat>& drives) {
      for (const realrun::DriveIostat& x : drives)
        out += fmt::format("   {:<10} {:<9} {:>9.1f} {:>10.1f} {:>8.1f} {:>9.2f} {:>9.1f} {:>9.1f} {:>7} {:>9.2f}\n", side,
                           x.device, x.r_s, x.rkb_s, x.rrqm_s, x.avgqu_sz, x.await_ms, x.util * 100, x.max_inflight,
                           x.mean_inflight);
    };
    rows("real", c.real[i].drives);
    rows("simulated", c.simulated[i].drives);
  }
  return out;
}

nlohmann::json iostat_json(const std::vector<realrun::DriveIostat>& drives) {
  nlohmann::json j = nlohmann::json::array();
  for (const realrun::DriveIostat& x : drives)
    j.push_back({{"device", x.device}, {"r_s", x.r_s}, {"rkB_s", x.rkb_s}, {"rrqm_s", x.rrqm_s},
                 {"avgrq_kB", x.avgrq_kb}, {"avgqu_sz", x.avgqu_sz}, {"await_ms", x.await_ms}, {"util", x.util},
                 {"max_inflight", x.max_inflight}, {"mean_inflight", x.mean_inflight}, {"samples", x.samples}});
  return j;
}

std::string format_effect(const ScenarioComparison& a, const ScenarioComparison& b, const std::vector<EffectRow>& rows) {
  std::string out = fmt::format("== effect of {} -> {} (ratio of medians)\n", a.name, b.name);
  out += fmt::format("   {:<10} {:<13} {:>10} {:>10} {:>8}  {}\n", "group", "figure", "real", "simulated", "error", "");
  for (const EffectRow& e : rows) {
    const std::string verdict = !e.judged ? ""
                                : e.within ? "ok (±30%)"
                                : !e.same_direction ? "MISS (direction)"
                                                    : "MISS (±30%)";
    auto ratio = [](double x) { return std::isnan(x) ? std::string("-") : fmt::format("{:.2f}x", x); };
    const std::string error = std::isnan(e.error) ? std::string("") : fmt::format("{:+.1f}%", e.error * 100);
    out += fmt::format("   {:<10} {:<13} {:>10} {:>10} {:>8}  {}\n", e.metric.group, e.metric.label, ratio(e.real),
                       ratio(e.simulated), error, verdict);
  }
  return out;
}

nlohmann::json to_json(const ScenarioComparison& c) {
  nlohmann::json j;
  j["file"] = c.file;
  j["scenario"] = c.name;
  j["server"] = c.server;
  j["warnings"] = c.warnings;
  auto spread = [](const Spread& s) { return nlohmann::json{{"median", s.median}, {"min", s.min}, {"max", s.max}}; };
  // A side without the figure (count 0) is null, not zeros.
  auto spread_or_null = [&](const Spread& s) { return s.count ? spread(s) : nlohmann::json(nullptr); };
  for (const MetricRow& row : c.rows) {
    nlohmann::json r{{"real", spread_or_null(row.real)}, {"simulated", spread_or_null(row.simulated)}, {"error", row.error}};
    if (row.judged) r["tolerance"] = row.metric.tolerance, r["within"] = row.within;
    if (row.metric.group.empty())
      j["server_figures"][row.metric.name] = r;
    else
      j["groups"][row.metric.group][row.metric.name] = r;
  }
  for (const std::string& g : blocked_groups(c))
    for (const std::string& cause : kBlockedKeys) {
      nlohmann::json entry = nlohmann::json::object();
      if (const auto real = blocked_spread(c.real, g, cause)) entry["real"] = spread(*real);
      if (const auto sim = blocked_spread(c.simulated, g, cause)) entry["simulated"] = spread(*sim);
      j["blocked_by_cause"][g][cause] = entry;
    }
  for (std::size_t i = 0; i < c.real_runs.size(); ++i) {
    const RealRunResult& r = c.real_runs[i];
    nlohmann::json run{{"wall_s", r.wall_s},
                       {"server_cpu_s", r.server_cpu_s},
                       {"clients_cpu_s", r.clients_cpu_s},
                       {"machine_busy", r.machine_busy},
                       {"machine_iowait", r.machine_iowait},
                       {"machine_irq", r.machine_irq},
                       {"hrtimer_softirqs", r.hrtimer_softirqs},
                       {"net_rx_softirqs", r.net_rx_softirqs},
                       {"disk_read_bytes", r.disk_read_bytes},
                       {"disk_reads", r.disk_reads},
                       {"cache_control", r.cache_control},
                       {"cache_peak_bytes", r.cache_peak_bytes},
                       {"server_version", r.server_version},
                       {"tcp_congestion_control", text_or_null(r.loopback_tcp.congestion_control)},
                       {"lo_qdisc", text_or_null(r.loopback_tcp.lo_qdisc)},
                       {"tcp_pacing", pacing_or_null(r.loopback_tcp)},
                       {"notes", r.notes}};
    if (!r.disk_own_latency.empty()) run["disk_own_latency"] = r.disk_own_latency;
    for (const RealGroupResult& g : r.groups)
      run["groups"][g.name] = {{"requests", g.requests},
                               {"bytes", g.bytes},
                               {"duration_s", g.duration_s},
                               {"requests_per_s", g.requests_per_s},
                               {"latency_s", {{"mean", g.latency_mean}, {"stdev", g.latency_stdev}, {"max", g.latency_max},
                                              {"p50", g.latency_p50}, {"p75", g.latency_p75}, {"p90", g.latency_p90},
                                              {"p99", g.latency_p99}}},
                               {"errors", {{"connect", g.errors_connect}, {"read", g.errors_read}, {"write", g.errors_write},
                                           {"status", g.errors_status}, {"timeout", g.errors_timeout}}},
                               {"placement", g.placement},
                               {"placement_late", g.placement_late},
                               {"cpu_s", g.cpu_s}};
    for (const realrun::WaitSummary& w : r.waits) run["waits"][w.group] = waits_json(w);
    run["sampler_cpu_share"] = r.sampler_cpu_share;
    run["iostat"] = iostat_json(r.drives);
    for (const RealWorker& w : r.workers)
      run["workers"].push_back({{"pid", w.pid}, {"running", w.running}, {"sleeping", w.sleeping},
                                {"disk_wait", w.disk_wait}, {"cpu_s", w.cpu_s}, {"samples", w.samples}});
    if (i < c.simulated.size()) {
      nlohmann::json sim;
      for (const GroupFigures& g : c.simulated[i].groups)
        sim["groups"][g.name] = {{"requests_per_s", g.requests_per_s}, {"bytes_per_s", g.bytes_per_s},
                                 {"latency_mean", g.latency_mean}, {"latency_p50", g.latency_p50},
                                 {"latency_p99", g.latency_p99}, {"errors", g.errors}};
      sim["workers"] = {{"running", c.simulated[i].workers_running}, {"sleeping", c.simulated[i].workers_sleeping},
                        {"disk_wait", c.simulated[i].workers_disk_wait}};
      if (!c.simulated[i].blocked.empty()) sim["blocked_by_cause"] = c.simulated[i].blocked;
      sim["iostat"] = iostat_json(c.simulated[i].drives);
      run["simulated"] = sim;
    }
    j["runs"].push_back(run);
  }
  return j;
}

nlohmann::json to_json(const std::vector<EffectRow>& rows) {
  nlohmann::json j;
  for (const EffectRow& e : rows) {
    nlohmann::json r{{"real", e.real}, {"simulated", e.simulated}, {"error", e.error}};
    if (e.judged) r["same_direction"] = e.same_direction, r["within"] = e.within;
    j[e.metric.group][e.metric.name] = r;
  }
  return j;
}

}  // namespace testbed
