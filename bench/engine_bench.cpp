// How fast the simulator is (issues 2 and 7). A benchmark, not a test:
// nothing here is asserted.
//
//  - The native engine on the 9x scenario with threads and on a cache-hit
//    scenario at 250, 2,500 and 25,000 connections: events, simulated
//    requests and simulated seconds per wall second, wall time per request,
//    heap allocations per event while the run advances, peak heap (what
//    operator new holds) and peak resident memory (a child process that runs
//    the scenario once).
//  - The 9x scenario with threads and the cache-hit scenario at 250
//    connections on both engines in one run, and the ratio of their wall
//    times (SimGrid runs in a child process: one SimGrid engine per process).
//
// Wall time covers building the World and running it, as `clerk run`
// measures it; allocations are counted from the end of construction to the
// end of the run (counting_alloc.h).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <sys/resource.h>
#include <vector>
#include <cmath>

#include "bench/counting_alloc.h"
#include "common/child_process.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"
#ifdef CLERK_HAVE_SIMGRID
#include "engines/simgrid/sg_run.h"
#endif

namespace {


std::string scenario_path(const std::string& relative) { return std::string(CLERK_SOURCE_DIR) + "/scenarios/" + relative; }

struct Figures {
  double wall_s = 0;
  std::uint64_t events = 0;     // as the run's JSON counts them
  std::uint64_t delivered = 0;  // events that reached their target
  std::uint64_t requests = 0;  // responses completed at the clients
  double simulated_s = 0;
  std::uint64_t run_allocations = 0;
  std::size_t peak_heap = 0;
  int runs = 0;
};

std::uint64_t completed(const models::RunResult& r) {
  std::uint64_t n = 0;
  for (const auto& c : r.clients) n += c.complete;
  return n;
}

Figures run_native(const models::Scenario& sc) {
  Figures f;
  bench::reset_peak();
  std::uint64_t before = 0;
  engines::RunRequest request = engines::as_written(sc);
  request.hooks.built = [&before] { before = bench::heap().allocations; };
  request.hooks.ran = [&f, &before](models::World& world) {
    f.run_allocations = bench::heap().allocations - before;
    f.peak_heap = bench::heap().peak;
    f.delivered = world.engine().events_delivered();
  };
  const models::RunResult r = engines::run_scenario(sc, request);
  f.wall_s = r.wall_s;
  f.events = r.events;
  f.requests = completed(r);
  f.simulated_s = r.duration_s;
  f.runs = 1;
  return f;
}

void add(Figures& total, const Figures& f) {
  total.wall_s += f.wall_s;
  total.events += f.events;
  total.delivered += f.delivered;
  total.requests += f.requests;
  total.simulated_s += f.simulated_s;
  total.run_allocations += f.run_allocations;
  total.peak_heap = std::max(total.peak_heap, f.peak_heap);
  total.runs += f.runs;
}

// Peak resident memory, in MiB, of a process that builds and runs the
// scenario once: a child forked at the start, before any benchmark has run,
// when this process holds little beyond the program itself (a child's peak
// counts what it shares with its parent, and exec() would keep that peak),
// so the figure is close to what `clerk run` holds. Unlike the heap count it sees memory that operator
// new does not hand out (the page cache's index comes from calloc, and only
// the pages a run touches are resident). 0 if the child failed.
int run_once(void* file) {
  try {
    const models::Scenario sc = models::load_scenario(scenario_path(*static_cast<const std::string*>(file)));
    engines::run_scenario(sc, engines::as_written(sc));
    return 0;
  } catch (...) {
    return 1;
  }
}

double peak_rss_mib(std::string file) {
  try {
    common::SpawnSpec spec;
    spec.who = "clerk_bench";
    common::ChildProcess child = common::ChildProcess::run_in_child(spec, run_once, &file);
    const common::ChildExit end = *child.wait_for(INFINITY);
    return end.ok() ? static_cast<double>(end.usage.ru_maxrss) / 1024.0 : 0;  // ru_maxrss is in KiB
  } catch (const common::ProcessError&) {
    return 0;
  }
}

std::map<std::string, double> peak_rss;
std::map<std::string, Figures> native_results;
struct Pair {
  double native_wall_s = 0, simgrid_wall_s = 0;
  std::uint64_t requests = 0;
};
std::map<std::string, Pair> pair_results;

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : " ") + x;
  return out;
}

void report(benchmark::State& state, const Figures& t) {
  using benchmark::Counter;
  state.counters["events/s"] = Counter(static_cast<double>(t.events) / t.wall_s);
  state.counters["delivered/s"] = Counter(static_cast<double>(t.delivered) / t.wall_s);
  state.counters["requests/s"] = Counter(static_cast<double>(t.requests) / t.wall_s);
  state.counters["sim_s/s"] = Counter(t.simulated_s / t.wall_s);
  state.counters["ns/event"] = Counter(t.wall_s * 1e9 / static_cast<double>(t.delivered));
  state.counters["us/request"] = Counter(t.wall_s * 1e6 / static_cast<double>(t.requests));
  state.counters["allocs/event"] =
      Counter(static_cast<double>(t.run_allocations) / static_cast<double>(t.delivered));
  state.counters["peak_heap_MB"] = Counter(static_cast<double>(t.peak_heap) / 1e6);
}

void native(benchmark::State& state, const std::string& file, const std::vector<std::string>& overrides) {
  const models::Scenario sc = models::load_scenario(scenario_path(file), overrides);
  Figures total;
  for (auto _ : state) {
    const Figures f = run_native(sc);
    state.SetIterationTime(f.wall_s);
    add(total, f);
  }
  report(state, total);
  if (!overrides.empty()) {
    native_results[file + " " + join(overrides)] = total;
    return;
  }
  state.counters["peak_rss_MiB"] = benchmark::Counter(peak_rss[file]);
  native_results[file] = total;
}

void both_engines(benchmark::State& state, const std::string& file) {
  // Like with like: SimGrid's CPUs share by processor sharing, so the native
  // engine runs that too here (the scheduler's own cost is in the native rows).
  const models::Scenario sc = models::load_scenario(scenario_path(file), {"kernel.scheduler=processor-sharing"});
  for (const std::string& why : engines::cannot_run(sc, engines::Engine::kSimGrid)) {
    state.SkipWithError(("the SimGrid engine cannot run it: " + why).c_str());
    return;
  }
  Figures n;
  double simgrid_wall = 0;
  std::uint64_t simgrid_requests = 0, simgrid_events = 0;
  for (auto _ : state) {
    n = run_native(sc);
    const nlohmann::ordered_json j = engines::run_scenario_json(sc, engines::as_written(sc, engines::Engine::kSimGrid));
    simgrid_wall = j["wall_s"].get<double>();
    simgrid_events = j["events"].get<std::uint64_t>();
    simgrid_requests = 0;
    for (const auto& [name, g] : j["clients"].items()) simgrid_requests += g["requests"].get<std::uint64_t>();
    state.SetIterationTime(n.wall_s + simgrid_wall);
  }
  rusage children{};
  getrusage(RUSAGE_CHILDREN, &children);
  using benchmark::Counter;
  state.counters["native_s"] = Counter(n.wall_s);
  state.counters["simgrid_s"] = Counter(simgrid_wall);
  state.counters["speed_ratio"] = Counter(simgrid_wall / n.wall_s);
  state.counters["native_req/s"] = Counter(static_cast<double>(n.requests) / n.wall_s);
  state.counters["simgrid_req/s"] = Counter(static_cast<double>(simgrid_requests) / simgrid_wall);
  state.counters["simgrid_resumptions/s"] = Counter(static_cast<double>(simgrid_events) / simgrid_wall);
  state.counters["simgrid_peak_rss_MiB"] = Counter(static_cast<double>(children.ru_maxrss) / 1024.0);
  pair_results[file] = Pair{n.wall_s, simgrid_wall, n.requests};
}

void summary() {
  std::printf("\nNative engine (per run: building the World and running it; means over the runs)\n");
  std::printf("  %-28s %8s %9s %11s %11s %11s %8s %10s %8s %8s\n", "scenario", "wall ms", "sim s/s", "requests/s",
              "events/s", "delivered/s", "ns/deliv", "allocs/ev", "heap MB", "RSS MiB");
  for (const auto& [file, t] : native_results)
    std::printf("  %-28s %8.1f %9.1f %11.0f %11.0f %11.0f %8.1f %10.5f %8.1f %8.1f\n", file.c_str(),
                t.wall_s * 1e3 / t.runs, t.simulated_s / t.wall_s, static_cast<double>(t.requests) / t.wall_s,
                static_cast<double>(t.events) / t.wall_s, static_cast<double>(t.delivered) / t.wall_s,
                t.wall_s * 1e9 / static_cast<double>(t.delivered),
                static_cast<double>(t.run_allocations) / static_cast<double>(t.delivered),
                static_cast<double>(t.peak_heap) / 1e6, peak_rss[file]);
  std::printf("\nNative engine, cache-hit scenario: wall time per simulated request\n");
  const char* files[] = {"bench/cache-hit-250.toml", "bench/cache-hit-2500.toml", "bench/cache-hit-25000.toml"};
  const char* labels[] = {"250", "2,500", "25,000"};
  double base = 0;
  for (int i = 0; i < 3; ++i) {
    auto it = native_results.find(files[i]);
    if (it == native_results.end()) continue;
    const double us = it->second.wall_s * 1e6 / static_cast<double>(it->second.requests);
    if (i == 0) base = us;
    std::printf("  %7s connections: %7.3f us/request%s\n", labels[i], us,
                base > 0 ? (" (" + std::to_string(us / base).substr(0, 4) + "x the cost at 250)").c_str() : "");
  }
  for (const auto& [file, p] : pair_results)
    std::printf("\n%s, both engines in one run: native %.3f s, SimGrid %.3f s: native %.0fx faster\n", file.c_str(),
                p.native_wall_s, p.simgrid_wall_s, p.simgrid_wall_s / p.native_wall_s);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef CLERK_HAVE_SIMGRID
  engines::use_simgrid(sgengine::in_process_backend());  // SimGrid runs each in a child process here
#endif
  const char* native_files[] = {"nginx-9x/threads.toml", "bench/cache-hit-250.toml", "bench/cache-hit-2500.toml",
                                "bench/cache-hit-25000.toml"};
  for (const char* f : native_files) peak_rss[f] = peak_rss_mib(f);  // first: see peak_rss_mib
  for (const char* f : native_files)
    benchmark::RegisterBenchmark(("native/" + std::string(f)).c_str(), native, std::string(f),
                                 std::vector<std::string>{})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(2.0);
  // What the CPU scheduler and the block layer cost on the 9x run (the rows
  // above have both, as the scenario's hardware profile says): the same run
  // with processor sharing and without request queues. sim_s/s is "x real time".
  for (const std::vector<std::string>& o :
       {std::vector<std::string>{"kernel.scheduler=processor-sharing"},
        std::vector<std::string>{"block.request_queue=false"},
        std::vector<std::string>{"kernel.scheduler=processor-sharing", "block.request_queue=false"}})
    benchmark::RegisterBenchmark(("native/nginx-9x/threads.toml " + join(o)).c_str(), native,
                                 std::string("nginx-9x/threads.toml"), o)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(2.0);
  // The yardstick (9x with threads: heavy model work per event, 64
  // page-cache units and a disk queue per request) and the cache-hit
  // scenario (little model work per event, the shape of the model measured
  // while planning): together they show how the ratio depends on the model.
  for (const char* f : {"nginx-9x/threads.toml", "bench/cache-hit-250.toml"})
    benchmark::RegisterBenchmark(("both_engines/" + std::string(f)).c_str(), both_engines, std::string(f))
        ->UseManualTime()
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  summary();
  return 0;
}
