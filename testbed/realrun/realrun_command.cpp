#include "testbed/realrun/realrun_command.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

#include "common/guarded.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/units.h"
#include "common/output_path.h"
#include "common/shown_text.h"
#include "testbed/realrun/comparison.h"
#include "testbed/realrun/loopback_tcp_check.h"
#include "testbed/realrun/prediction.h"
#include "testbed/realrun/real_run.h"

namespace testbed {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) {
  g_interrupted = true;
  stop_all_real_runs();  // async-signal-safe (real_run.h)
}

// clerk-serve built beside clerk, unless the user names another.
std::string default_serve_binary() {
#ifdef CLERK_SERVE_BINARY
  if (access(CLERK_SERVE_BINARY, X_OK) == 0) return CLERK_SERVE_BINARY;
#endif
  return "clerk-serve";
}

// clerk-replay built beside clerk (a trace group's load).
std::string default_replay_binary() {
#ifdef CLERK_REPLAY_BINARY
  if (access(CLERK_REPLAY_BINARY, X_OK) == 0) return CLERK_REPLAY_BINARY;
#endif
  return "clerk-replay";
}

// clerk-disk built beside clerk, unless the user names another.
std::string default_disk_binary() {
#ifdef CLERK_DISK_BINARY
  if (access(CLERK_DISK_BINARY, X_OK) == 0) return CLERK_DISK_BINARY;
#endif
  return "clerk-disk";
}

int run_checked(const RealrunRequest& o);

// One line on stderr per distinct warning, naming the scenarios it is for.
void warn_loopback_tcp(const std::vector<std::string>& files, const std::vector<models::Scenario>& scenarios,
                       const common::LoopbackTcp& running) {
  std::vector<std::pair<std::string, std::string>> lines;  // warning, files
  for (std::size_t s = 0; s < scenarios.size(); ++s) {
    const std::string w = loopback_tcp_warning(scenarios[s].kernel, running);
    if (w.empty()) continue;
    auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == w; });
    if (same == lines.end())
      lines.emplace_back(w, files[s]);
    else
      same->second += ", " + files[s];
  }
  for (const auto& [w, where] : lines) std::cerr << "clerk realrun: " << where << ": " << w << "\n";
}

// The run's own reading, into the comparison's warnings (once each).
void note_loopback_tcp(ScenarioComparison& c, const models::KernelSpec& profile, const common::LoopbackTcp& running) {
  const std::string w = loopback_tcp_warning(profile, running);
  if (!w.empty() && std::find(c.warnings.begin(), c.warnings.end(), w) == c.warnings.end()) c.warnings.push_back(w);
}

}  // namespace

// Exit statuses: 0 done, 1 a run failed (or --check missed), 2 bad input,
// 3 an internal error (a bug), 130 interrupted (SIGINT, SIGTERM or SIGHUP).
int realrun_command(const RealrunRequest& request) {
  // Bad input and bugs as every command has them (common/guarded.h).
  return common::guarded([&] {
    try {
      return run_checked(request);
    } catch (const RealRunError& e) {
      std::cerr << "clerk realrun: " << e.what() << "\n";
      return g_interrupted ? 130 : 1;
    }
  });
}

namespace {
int run_checked(const RealrunRequest& o) {
  // Every refusal before anything is measured or started.
  if (!o.json_path.empty()) {
    const std::string problem = common::output_path_problem(o.json_path, "--json");
    if (!problem.empty()) {
      std::cerr << "clerk realrun: " << problem << "\n";
      return 2;
    }
  }
  // clerk-disk emulates the disk of the scenario file with the --set list;
  // a --hardware profile would give the simulated side another disk.
  if (o.disk == "emulated" && !o.hardware.empty()) {
    std::cerr << "clerk realrun: --disk emulated emulates the scenario's own disk: --hardware would give the "
                 "simulated side another one; use --set to change the scenario on both sides\n";
    return 2;
  }
  std::vector<models::Scenario> scenarios;
  for (const std::string& f : o.files) scenarios.push_back(models::load_scenario(f, o.overrides, o.hardware));
  if (!o.json_path.empty()) {  // the JSON may overwrite no file the runs read
    std::vector<std::string> inputs{o.hardware};
    for (const models::Scenario& sc : scenarios) inputs.insert(inputs.end(), sc.files.begin(), sc.files.end());
    common::check_not_an_input(o.json_path, inputs);
  }
  for (std::size_t s = 0; s < scenarios.size(); ++s)
    if (const std::string why = real_run_refusal(scenarios[s]); !why.empty()) {
      std::cerr << "clerk realrun: " << common::shown_text(o.files[s]) << ": " << why << "\n";
      return 2;
    }
  // Before root is asked for: what a real NGINX cannot run is refused by name.
  if (o.server == "both" || o.server == "nginx")
    for (std::size_t s = 0; s < scenarios.size(); ++s)
      if (const std::string why = nginx_refusal(scenarios[s]); !why.empty()) {
        std::cerr << "clerk realrun: " << common::shown_text(o.files[s]) << ": " << why << "\n";
        return 2;
      }
  if (o.data_dir.empty()) {
    std::cerr << "clerk realrun: the data folder (--data) is empty: name a folder\n";
    return 2;
  }
  // And what NGINX's configuration cannot hold of the data folder's path
  // (a newline, '$' in root: nginx_conf.h), before anything is made.
  if (o.server == "both" || o.server == "nginx") {
    RealRunOptions folders;
    folders.server = "nginx";
    folders.disk = o.disk;
    folders.data_dir = o.data_dir;
    if (const std::string why = nginx_folder_refusal(folders); !why.empty()) {
      std::cerr << "clerk realrun: " << why << "\n";
      return 2;
    }
  }
  if (geteuid() != 0) {
    std::cerr << "clerk realrun: needs root (a memory cgroup for the server's page cache, and drop_caches)\n";
    return 2;
  }
  // A killed earlier run's server may still hold the port, and its cgroup
  // and folder remain: remove them, only of runs whose clerk is gone.
  for (const std::string& line : remove_stale_real_runs()) std::cerr << "clerk realrun: " << line << "\n";
  std::vector<std::string> servers;
  if (o.server == "both" || o.server == "nginx") servers.push_back("nginx");
  if (o.server == "both" || o.server == "clerk-serve") servers.push_back("clerk-serve");

  // Before anything runs: the prediction's CPU costs were measured under the
  // profile's loopback TCP (loopback_tcp_check.h).
  warn_loopback_tcp(o.files, scenarios, common::this_loopback_tcp());
  // SIGHUP too (a closed terminal or SSH session): its default action ended
  // clerk with 129 and left the run's cgroup and folder (probe 8, M4).
  for (const int stop : {SIGINT, SIGTERM, SIGHUP}) std::signal(stop, on_interrupt);
  nlohmann::json out;
  bool all_within = true;
  for (const std::string& server : servers) {
    std::vector<ScenarioComparison> comparisons(scenarios.size());
    for (std::size_t s = 0; s < scenarios.size(); ++s)
      comparisons[s] = {o.files[s], scenarios[s].name.empty() ? o.files[s] : scenarios[s].name, server, {}, {}, {}, {}, {}};
    // Repetitions interleave the scenarios (A B A B ...), so that a drift of
    // the machine over time touches all of them alike.
    for (unsigned rep = 0; rep < o.repeat; ++rep) {
      for (std::size_t s = 0; s < scenarios.size(); ++s) {
        RealRunOptions ro;
        ro.server = server;
        ro.serve_binary = o.serve_binary.empty() ? default_serve_binary() : o.serve_binary;
        ro.replay_binary = default_replay_binary();
        ro.data_dir = o.data_dir;
        ro.port = o.port;
        ro.duration_s = o.duration_s;
        ro.verbose = o.verbose;
        ro.simulation_seed = scenarios[s].seed + rep;  // predict()'s seed below
        ro.disk = o.disk;
        ro.disk_binary = o.disk_binary.empty() ? default_disk_binary() : o.disk_binary;
        ro.scenario_file = o.files[s];
        ro.overrides = o.overrides;
        std::cerr << fmt::format("realrun: {} on {}, run {} of {}\n", common::shown_text(comparisons[s].name), server, rep + 1, o.repeat);
        RealRunResult real;
        try {
          real = run_real(scenarios[s], ro);
        } catch (const RealRunError& e) {
          std::cerr << "clerk realrun: " << e.what() << "\n";
          return g_interrupted ? 130 : 1;
        }
        const models::RunResult sim = predict(scenarios[s], real, scenarios[s].seed + rep, 0);
        note_loopback_tcp(comparisons[s], scenarios[s].kernel, real.loopback_tcp);
        comparisons[s].real_runs.push_back(real);
        comparisons[s].real.push_back(figures_of(real));
        comparisons[s].simulated.push_back(figures_of(sim));
      }
    }
    nlohmann::json js;
    for (ScenarioComparison& c : comparisons) {
      summarize(c);
      std::cout << format_comparison(c) << "\n";
      // --disk emulated: clerk-disk's summary of each run (how late its
      // replies were, read sizes, lookups, its page cache, ext4's inodes).
      for (std::size_t r = 0; r < c.real_runs.size(); ++r)
        for (const std::string& line : c.real_runs[r].disk_summary)
          std::cout << fmt::format("{} run {}: {}\n", c.name, r + 1, line);
      for (const MetricRow& r : c.rows) all_within = all_within && r.within;
      js["scenarios"].push_back(to_json(c));
    }
    if (comparisons.size() == 2) {
      const auto effect = effect_of(comparisons[0], comparisons[1]);
      std::cout << format_effect(comparisons[0], comparisons[1], effect) << "\n";
      for (const EffectRow& e : effect) all_within = all_within && e.within;
      js["effect"] = to_json(effect);
    }
    out["servers"][server] = js;
  }
  if (!o.json_path.empty()) common::write_file_atomically(o.json_path, common::json_text(out, 2) + "\n");
  return o.check && !all_within ? 1 : 0;
}
}  // namespace

}  // namespace testbed
