// libFuzzer target: a fuzzed scenario text is loaded as `clerk run` loads it,
// and when it loads, its World is built and run for a short simulated time
// (the scenario's duration, at most $CLERK_FUZZ_SIM_S, default 0.2 s) and its figures gathered, as JSON
// and as the text report. See fuzz/contract.h for what every input must satisfy.
//
// Watchdogs: libFuzzer's -timeout stops an input stuck inside one step; the
// run is also advanced in 10 ms steps and an input whose short run takes more
// than its budget of this thread's CPU time is a finding, with the simulated
// time it had reached. The budget is $CLERK_FUZZ_CPU_S seconds (default 5) up
// to 25,000 connections, the largest committed seed's, and grows in
// proportion beyond: each connection's requests are events, so a run's cost
// grows with them (87,265 connections took 6.0 s on a loaded machine, 4.9 s
// idle, at 9 events a connection: slow, not stuck). CPU time, not wall clock:
// a fuzzer starved of CPU on a busy machine is not a hang (a wall clock flagged
// a committed 25,000-connection seed at 5.3 s while eight processes shared two
// cores). -rss_limit_mb and -malloc_limit_mb
// (scripts/fuzz) catch runaway memory.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "fuzz/contract.h"
#include "fuzz/scenario_sandbox.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/report.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"

namespace {

constexpr sim::Time kStep = sim::milliseconds(10);

// A positive number from the environment, or `otherwise`.
double env_seconds(const char* name, double otherwise) {
  const char* env = std::getenv(name);
  const double s = env ? std::atof(env) : 0;
  return s > 0 ? s : otherwise;
}

// The CPU time this thread has used, in seconds.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The CPU time a short run of `sc` may take (the header says why).
double cpu_budget(const models::Scenario& sc) {
  static const double cap = env_seconds("CLERK_FUZZ_CPU_S", 5.0);
  constexpr double kSeedConnections = 25000;  // scenarios/bench/cache-hit-25000.toml
  double connections = 0;
  for (const auto& g : sc.clients) connections += static_cast<double>(g.connections);
  return cap * std::max(1.0, connections / kSeedConnections);
}

// Advances in steps, so that a run that crawls is reported with where it was.
void run_watched(models::World& world, double cap) {
  const double t0 = thread_cpu_s();
  for (sim::Time t = 0; t < world.duration();) {
    t = std::min(world.duration(), t + kStep);
    world.run_until(t);
    const double cpu = thread_cpu_s() - t0;
    if (cpu > cap)
      fuzz::breach(fmt::format("hang: {:.3f} s simulated took {:.1f} s of CPU, over its {:.1f} s ({} events)",
                               sim::to_seconds(t), cpu, cap, world.engine().events_processed()));
  }
}

// As `clerk run`: a run that would not fit the machine is refused first (a
// ConfigError), over the scenario's whole duration; what fits runs briefly.
void run_briefly(const models::Scenario& sc, const std::string& path) {
  static const double simulated_cap = env_seconds("CLERK_FUZZ_SIM_S", 0.2);
  const double duration = std::min(sc.duration_s, simulated_cap);
  try {
    models::check_fits_machine(sc, sc.duration_s, path);
    // The warm-up is capped as the window is: brief, but its probes and the
    // window's start still run.
    models::Scenario brief = sc;
    brief.warmup.max_s = std::min(brief.warmup.max_s, simulated_cap);
    brief.warmup.fixed_s = std::min(brief.warmup.fixed_s, simulated_cap);
    models::World world(brief, sc.seed, duration);
    run_watched(world, cpu_budget(sc));
    const models::RunResult r = world.result(0);
    fuzz::check_accounting(r);
    (void)models::to_json(r, false).dump();
    (void)models::text_report(r);
  } catch (const models::ConfigError& e) {
    fuzz::check_config_error(e, e.file());  // a data set that does not fit is a ConfigError, as at load time
  } catch (const std::exception& e) {
    fuzz::breach(fmt::format("running a loaded scenario threw: {}", e.what()));
  } catch (...) {
    fuzz::breach("running a loaded scenario threw something that is not a std::exception");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = fuzz::sandbox().write(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::optional<models::Scenario> sc = fuzz::load_checked([&] { return models::load_scenario(path); });
  if (!sc) return 0;
  fuzz::check_loaded(*sc);
  run_briefly(*sc, path);
  return 0;
}
