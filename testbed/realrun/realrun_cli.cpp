#include "testbed/realrun/realrun_cli.h"

#include <atomic>
#include <csignal>
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

#include "common/output_file.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/limits.h"
#include "models/scenario/units.h"
#include "common/output_path.h"
#include "testbed/realrun/comparison.h"
#include "testbed/realrun/prediction.h"

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

// --duration: finite, from models::limits::kMinRunSeconds to kMaxRunSeconds
// (CLI11's PositiveNumber lets "nan" and "inf" through).
CLI::Validator run_duration_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double seconds = 0;
        try {
          std::size_t used = 0;
          seconds = std::stod(text, &used);
          if (used != text.size()) return "not a number of seconds: " + text;
        } catch (const std::exception&) {
          return "not a number of seconds: " + text;
        }
        try {
          models::limits::check_run_duration(seconds, "--duration");
        } catch (const models::ConfigError& e) {
          // CLI11 names the option itself.
          std::string message = e.what();
          const std::string named = "--duration: ";
          if (message.rfind(named, 0) == 0) message.erase(0, named.size());
          return message;
        }
        return {};
      },
      "SECONDS");
}

}  // namespace

struct RealrunCli::Options {
  std::vector<std::string> files;
  std::string server = "nginx";
  unsigned repeat = 3;
  double duration_s = 0;
  std::string hardware;
  std::string data_dir = "/var/tmp/clerk-data";
  std::uint16_t port = 18080;
  std::string json_path;
  std::vector<std::string> overrides;
  std::string serve_binary;
  bool check = false;
  bool verbose = false;
};

RealrunCli::RealrunCli(CLI::App& app) : options_(std::make_unique<Options>()) {
  Options& o = *options_;
  cmd_ = app.add_subcommand("realrun",
                            "Run scenarios for real (nginx or clerk-serve, real wrk, a memory cgroup) and print them "
                            "beside the simulator's prediction");
  cmd_->add_option("files", o.files, "scenario files; with two, also the effect of going from the first to the second")
      ->required();
  cmd_->add_option("--server", o.server, "the real server: nginx (Debian's nginx-light), clerk-serve, or both")
      ->check(CLI::IsMember({"nginx", "clerk-serve", "both"}));
  cmd_->add_option("--repeat", o.repeat, "real runs per scenario (medians and spreads are over these)")
      ->check(CLI::Range(1u, 100u));
  cmd_->add_option("--duration", o.duration_s, "seconds per run (default: the scenario's), from 0.001 to 100000")
      ->check(run_duration_check());
  cmd_->add_option("--hardware", o.hardware,
                   "hardware profile for the prediction, in place of the one the scenario includes (clerk calibrate's)");
  cmd_->add_option("--data", o.data_dir, "where the data set is made (reused while it matches)");
  // Port 0 is refused rather than picked: wrk, the NGINX configuration and
  // the busy-port check all need the port before the server starts.
  cmd_->add_option("--port", o.port, "loopback port for the server (1-65535; 0 is refused)")
      ->check(CLI::Range(1, 65535));
  cmd_->add_option("--json", o.json_path, "also write every run, both sides, as JSON to this file");
  cmd_->add_option("--set", o.overrides, "override a scenario key for both sides: --set clients.random.connections=8");
  cmd_->add_option("--serve-binary", o.serve_binary, "the clerk-serve to run (default: the one built with clerk)");
  cmd_->add_flag("--check", o.check, "exit 1 if a prediction misses its tolerance");
  cmd_->add_flag("-v,--verbose", o.verbose, "progress on stderr; keep each run's directory");
}

RealrunCli::~RealrunCli() = default;
bool RealrunCli::chosen() const { return cmd_->parsed(); }

// Exit statuses: 0 done, 1 a run failed (or --check missed), 2 bad input,
// 3 an internal error (a bug), 130 interrupted.
int RealrunCli::run() {
  try {
    return run_checked();
  } catch (const models::ConfigError& e) {
    std::cerr << "clerk: " << e.what() << "\n";
    return 2;
  } catch (const RealRunError& e) {
    std::cerr << "clerk realrun: " << e.what() << "\n";
    return g_interrupted ? 130 : 1;
  } catch (const std::exception& e) {
    std::cerr << "clerk realrun: internal error: " << e.what() << "\nPlease report this as a bug.\n";
  } catch (...) {
    std::cerr << "clerk realrun: internal error (unknown exception)\nPlease report this as a bug.\n";
  }
  return 3;
}

int RealrunCli::run_checked() {
  const Options& o = *options_;
  // Every refusal before anything is measured or started.
  if (!o.json_path.empty()) {
    const std::string problem = common::output_path_problem(o.json_path, "--json");
    if (!problem.empty()) {
      std::cerr << "clerk realrun: " << problem << "\n";
      return 2;
    }
  }
  std::vector<models::Scenario> scenarios;
  for (const std::string& f : o.files) scenarios.push_back(models::load_scenario(f, o.overrides, o.hardware));
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

  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  nlohmann::json out;
  bool all_within = true;
  for (const std::string& server : servers) {
    std::vector<ScenarioComparison> comparisons(scenarios.size());
    for (std::size_t s = 0; s < scenarios.size(); ++s)
      comparisons[s] = {o.files[s], scenarios[s].name.empty() ? o.files[s] : scenarios[s].name, server, {}, {}, {}, {}};
    // Repetitions interleave the scenarios (A B A B ...), so that a drift of
    // the machine over time touches all of them alike.
    for (unsigned rep = 0; rep < o.repeat; ++rep) {
      for (std::size_t s = 0; s < scenarios.size(); ++s) {
        RealRunOptions ro;
        ro.server = server;
        ro.serve_binary = o.serve_binary.empty() ? default_serve_binary() : o.serve_binary;
        ro.data_dir = o.data_dir;
        ro.port = o.port;
        ro.duration_s = o.duration_s;
        ro.verbose = o.verbose;
        std::cerr << fmt::format("realrun: {} on {}, run {} of {}\n", comparisons[s].name, server, rep + 1, o.repeat);
        RealRunResult real;
        try {
          real = run_real(scenarios[s], ro);
        } catch (const RealRunError& e) {
          std::cerr << "clerk realrun: " << e.what() << "\n";
          return g_interrupted ? 130 : 1;
        }
        const models::RunResult sim = predict(scenarios[s], real, scenarios[s].seed + rep, 0);
        comparisons[s].real_runs.push_back(real);
        comparisons[s].real.push_back(figures_of(real));
        comparisons[s].simulated.push_back(figures_of(sim));
      }
    }
    nlohmann::json js;
    for (ScenarioComparison& c : comparisons) {
      summarize(c);
      std::cout << format_comparison(c) << "\n";
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
  if (!o.json_path.empty()) common::write_file_atomically(o.json_path, out.dump(2) + "\n");
  return o.check && !all_within ? 1 : 0;
}

}  // namespace testbed
