// Access-log replay at scale (models/clients/trace.h): a log of 10 million
// lines from the generator (log_generator.h), written to the temporary
// folder on the first use (not committed), then
// - trace_read_10M: the reader alone, every line parsed (lines/s);
// - trace_read_10M_request_time: the reader alone on a log of 10 million
//   lines with $msec and $request_time, written as the responses ended
//   (1% of them take up to 30 s), put back in arrival order by the reorder
//   buffer: its peak is reported beside the heap's;
// - trace_plan_10M: the run's scan, the distinct paths and their sizes;
// - trace_replay_10M: a whole run of the log, read twice (scan and replay),
//   every line replayed at 10 times the log's pace (10,000 requests/s
//   simulated for 1,000 s), over a data set of the log's paths in memory
//   (aws-36-core's no disk).
// Each reports the heap's peak (counting_alloc.h) and the process's peak
// RSS: bounded by the distinct paths, not the lines. A benchmark, not a
// test. Run: build/bench/clerk_bench --benchmark_filter=trace
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <queue>
#include <string>
#include <vector>

#include "bench/counting_alloc.h"
#include "models/clients/log_generator.h"
#include "models/clients/trace.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"

namespace {

// 10,000 s at 1,000 requests/s (a diurnal swing of 0.5 over the span):
// about 10 million lines over 10,000 paths.
models::LogGenSpec log_spec() {
  models::LogGenSpec s;
  s.duration_s = 10000;
  s.rate = 1000;
  s.amplitude = 0.5;
  s.period_s = 10000;
  s.files = 10000;
  s.seed = 1;
  return s;
}

const std::string& log_path() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() / "clerk-bench-10M.log").string();
    if (!std::filesystem::exists(p)) {
      const std::string tmp = p + ".part";
      {
        std::ofstream out(tmp, std::ios::binary);
        models::generate_log(log_spec(), out);
      }
      std::filesystem::rename(tmp, p);
    }
    return p;
  }();
  return path;
}

// 10,000 s of Poisson arrivals at 1,000 a second over 10,000 paths; 99% of
// requests take an exponential time of mean 20 ms, 1% up to 30 s. Each line
// is written when its request ends ($msec), so the log is in end order.
const std::string& request_time_log_path() {
  static const std::string path = [] {
    const std::string p = (std::filesystem::temp_directory_path() / "clerk-bench-10M-rt.log").string();
    if (std::filesystem::exists(p)) return p;
    const std::string tmp = p + ".part";
    {
      struct Pending {
        double end_s, took_s;
        std::uint32_t file, bytes;
        bool operator>(const Pending& o) const { return end_s > o.end_s; }
      };
      std::priority_queue<Pending, std::vector<Pending>, std::greater<>> ending;
      std::ofstream out(tmp, std::ios::binary);
      sim::RandomStream rng(1);
      std::string buffer;
      char line[96];
      auto write_until = [&](double t) {
        while (!ending.empty() && ending.top().end_s <= t) {
          const Pending e = ending.top();
          ending.pop();
          std::snprintf(line, sizeof line, "%.3f /f/%u %u %.3f\n", 1767225600 + e.end_s, e.file, e.bytes, e.took_s);
          buffer += line;
        }
        if (buffer.size() > (1 << 20)) out << buffer, buffer.clear();
      };
      double t = 0;
      for (std::uint64_t i = 0; i < 10'000'000; ++i) {
        t += -std::log(1 - rng.uniform()) / 1000;
        const double took = rng.uniform() < 0.01 ? 30 * rng.uniform() : -0.02 * std::log(1 - rng.uniform());
        // Milliseconds, as NGINX logs both.
        const double end = std::round((t + took) * 1000) / 1000;
        ending.push({end, std::round(took * 1000) / 1000, static_cast<std::uint32_t>(rng.below(10000)),
                     static_cast<std::uint32_t>(1024 + rng.below(65536))});
        write_until(t);
      }
      write_until(1e300);
      out << buffer;
    }
    std::filesystem::rename(tmp, p);
    return p;
  }();
  return path;
}

void report_memory(benchmark::State& state) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  state.counters["heap_peak_MiB"] = static_cast<double>(bench::heap().peak) / (1 << 20);
  state.counters["rss_peak_MiB"] = static_cast<double>(u.ru_maxrss) / 1024;
}

void trace_read_10M(benchmark::State& state) {
  const std::string& path = log_path();
  models::TraceSpec spec;
  spec.file = path;
  std::string error;
  const models::LogFormat format = *models::LogFormat::compile(spec.log_format, error);
  std::uint64_t lines = 0;
  bench::reset_peak();
  for (auto _ : state) {
    models::TraceReader reader(spec, format, sim::RandomStream(1));
    models::TraceLine line;
    while (reader.next(line)) benchmark::DoNotOptimize(line.at_s);
    lines = reader.counts().lines;
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["lines_per_s"] = benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsIterationInvariantRate);
  report_memory(state);
}

void trace_read_10M_request_time(benchmark::State& state) {
  models::TraceSpec spec;
  spec.file = request_time_log_path();
  spec.log_format = "$msec $request_uri $body_bytes_sent $request_time";
  std::string error;
  const models::LogFormat format = *models::LogFormat::compile(spec.log_format, error);
  models::TraceCounts counts;
  bench::reset_peak();
  for (auto _ : state) {
    models::TraceReader reader(spec, format, sim::RandomStream(1));
    models::TraceLine line;
    while (reader.next(line)) benchmark::DoNotOptimize(line.at_s);
    counts = reader.counts();
  }
  state.counters["lines"] = static_cast<double>(counts.lines);
  state.counters["reordered"] = static_cast<double>(counts.reordered);
  state.counters["reorder_held_peak"] = static_cast<double>(counts.reorder_held_peak);
  state.counters["lines_per_s"] =
      benchmark::Counter(static_cast<double>(counts.lines), benchmark::Counter::kIsIterationInvariantRate);
  report_memory(state);
}

void trace_plan_10M(benchmark::State& state) {
  models::TraceSpec spec;
  spec.file = log_path();
  models::FilesystemSpec base;
  base.files = 1;
  bench::reset_peak();
  std::uint64_t lines = 0, files = 0;
  for (auto _ : state) {
    const models::TracePlan plan = models::plan_trace(spec, base, {4096}, sim::RandomStream(1));
    lines = plan.counts.lines;
    files = plan.new_files;
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["paths"] = static_cast<double>(files);
  state.counters["lines_per_s"] = benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsIterationInvariantRate);
  report_memory(state);
}

void trace_replay_10M(benchmark::State& state) {
  const std::string scenario = (std::filesystem::temp_directory_path() / "clerk-bench-10M.toml").string();
  std::ofstream(scenario) << "include = \"@hardware/aws-36-core\"\nduration = \"1001s\"\nwarmup = \"0s\"\n"
                          << "[memory]\npage_cache = \"4g\"\n[nginx]\nworker_processes = 4\nsendfile = \"on\"\n"
                          << "[dataset]\nfiles = 1\nfile_size = \"4k\"\n"
                          << "[clients.log]\nconnections = 256\nspeed = 10\ndataset = \"log\"\ntrace = \""
                          << std::filesystem::path(log_path()).filename().string() << "\"\n";
  const models::Scenario sc = models::load_scenario(scenario);
  bench::reset_peak();
  std::uint64_t replayed = 0, lines = 0;
  for (auto _ : state) {
    models::World w(sc, sc.seed, sc.duration_s);
    w.run();
    const models::RunResult r = w.result(0);
    for (const auto& c : r.clients)
      if (c.spec.trace.enabled()) {
        replayed = c.complete;
        lines = c.trace.counts.lines;
      }
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["requests"] = static_cast<double>(replayed);
  state.counters["requests_per_s"] = benchmark::Counter(static_cast<double>(replayed), benchmark::Counter::kIsIterationInvariantRate);
  report_memory(state);
}

}  // namespace

BENCHMARK(trace_read_10M)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(trace_read_10M_request_time)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(trace_plan_10M)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(trace_replay_10M)->Unit(benchmark::kSecond)->Iterations(1);
