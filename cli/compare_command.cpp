#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/limits.h"
#include "models/scenario/resource_estimate.h"

namespace cli {

namespace {
const models::WrkResult* group(const models::RunResult& r, const std::string& name) {
  for (const auto& c : r.clients)
    if (c.spec.name == name) return &c;
  return nullptr;
}

std::string seconds(double s) {
  if (s >= 1) return fmt::format("{:.2f} s", s);
  return fmt::format("{:.1f} ms", s * 1e3);
}
}  // namespace

int compare_command(const CompareArgs& args) {
  std::vector<models::RunResult> results;
  for (const std::string& file : args.files) {
    models::Scenario sc;
    try {
      sc = models::load_scenario(file);
    } catch (const models::ConfigError& e) {
      std::cerr << "clerk: " << e.what() << "\n";
      return 2;
    }
    const double duration =
        models::limits::check_run_duration(args.duration_s.value_or(sc.duration_s), "--duration");
    models::check_fits_machine(sc, duration, file);  // throws ConfigError: exit 2 (common::guarded)
    results.push_back(engines::run_scenario(sc, {args.seed.value_or(sc.seed), duration, engines::Engine::kNative, {}}));
  }
  const int w = 24;
  std::string out = fmt::format("{:<34}", "");
  for (const auto& r : results) out += fmt::format("{:>{}}", r.scenario, w);
  out += "\n";
  auto row = [&](const std::string& label, const std::function<std::string(const models::RunResult&)>& f) {
    out += fmt::format("{:<34}", label);
    for (const auto& r : results) out += fmt::format("{:>{}}", f(r), w);
    out += "\n";
  };
  row("simulated time", [](const auto& r) { return fmt::format("{:.0f} s", r.duration_s); });
  row("server outbound (ifstat)", [](const auto& r) { return fmt::format("{:.2f} Gbit/s", r.nic_out_gbps_mean); });
  std::vector<std::string> names;
  for (const auto& c : results.front().clients) names.push_back(c.spec.name);
  for (const std::string& n : names) {
    row(n + ": requests/s", [&](const auto& r) {
      const auto* g = group(r, n);
      return g ? fmt::format("{:.2f}", static_cast<double>(g->complete) / g->runtime_s) : std::string("-");
    });
    row(n + ": mean latency (wrk)", [&](const auto& r) {
      const auto* g = group(r, n);
      return g ? seconds(g->latency_mean) : std::string("-");
    });
    row(n + ": p99 latency (raw)", [&](const auto& r) {
      const auto* g = group(r, n);
      return g ? seconds(g->raw.percentile(99)) : std::string("-");
    });
    row(n + ": transfer/s", [&](const auto& r) {
      const auto* g = group(r, n);
      return g ? fmt::format("{:.1f} MB/s", static_cast<double>(g->bytes) / g->runtime_s / 1e6) : std::string("-");
    });
  }
  row("all groups: p99 latency (merged)", [](const auto& r) { return seconds(r.latency_all.percentile(99)); });
  row("all groups: in flight at the end", [](const auto& r) { return fmt::format("{}", r.in_flight_all); });
  row("workers R / S / D (top)", [](const auto& r) {
    return fmt::format("{:.0f}/{:.0f}/{:.0f} %", r.workers_running * 100, r.workers_sleeping * 100,
                       r.workers_disk_wait * 100);
  });
  row("iowait (top %wa)", [](const auto& r) { return fmt::format("{:.0f} %", r.iowait_frac * 100); });
  row("thread pool tasks / overflows", [](const auto& r) {
    return r.thread_pool ? fmt::format("{} / {}", r.pool_tasks, r.pool_overflows) : std::string("off");
  });
  row("page cache hit ratio (lookups)", [](const auto& r) { return fmt::format("{:.3f}", r.cache_hit_ratio); });
  row("requests without a disk wait", [](const auto& r) {
    return r.requests_with_stages ? fmt::format("{:.3f}", static_cast<double>(r.requests_without_disk_wait) /
                                                             static_cast<double>(r.requests_with_stages))
                                  : std::string("-");
  });
  row("disk read", [](const auto& r) { return fmt::format("{:.1f} MB/s", r.disk_read_bytes_per_s / 1e6); });
  row("disk queue depth per drive", [](const auto& r) { return fmt::format("{:.1f}", r.disk_mean_queue_depth); });
  std::cout << out;
  return 0;
}

void add_compare_command(CLI::App& clerk, Commands& commands) {
  auto args = std::make_shared<CompareArgs>();
  CompareArgs& a = *args;
  CLI::App* cmd = clerk.add_subcommand("compare", "Run scenarios and print their main figures side by side");
  cmd->add_option("files", a.files, "scenario files")->required();
  cmd->add_option("--seed", a.seed, "random seed for every scenario")->check(seed_check());
  cmd->add_option("--duration", a.duration_s, "simulated seconds")->check(duration_check());
  commands.add(cmd, [args] { return compare_command(*args); });
}

}  // namespace cli
