#include "cli/sweep/sweep_runner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "cli/sweep/sweep_error.h"
#include "engines/run_scenario.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/result_json.h"

namespace cli::sweep {

Row run_one(const Plan& plan, const RunRef& run) {
  const Point& point = plan.points[run.point];
  const models::Scenario sc = models::load_scenario(plan.scenario, plan.overrides(point), plan.hardware(point));
  const auto json = models::to_json(engines::run_scenario(sc, {run.seed, sc.duration_s, engines::Engine::kNative, {}}), false);
  Row row;
  row.sweep = plan.fingerprint;
  row.run = run.id;
  row.point = run.point;
  row.seed = run.seed;
  for (const AxisValue& v : point.values) row.axes.push_back(v.label);
  for (const std::string& m : plan.metrics) row.metrics.push_back(models::json_metric(json, m).value_or(NAN));
  return row;
}

namespace {
unsigned threads_for(unsigned jobs, std::size_t runs) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, runs)));
}
}  // namespace

void check_jobs_fit(const Plan& plan, const std::vector<RunRef>& runs, unsigned jobs, const std::string& where) {
  const double budget = models::memory_budget_bytes();
  if (budget <= 0 || runs.empty()) return;  // unknown: run as before
  std::vector<double> bytes;
  for (const RunRef& r : runs) bytes.push_back(r.point < plan.point_bytes.size() ? plan.point_bytes[r.point] : 0);
  std::sort(bytes.begin(), bytes.end(), std::greater<>());
  const unsigned threads = threads_for(jobs, runs.size());
  double together = 0;
  unsigned fit = 0;  // the most threads whose largest runs fit
  for (unsigned i = 0; i < threads; ++i) {
    together += bytes[i];
    if (together <= budget) fit = i + 1;
  }
  if (fit == threads) return;
  throw SweepError(where, "-j " + std::to_string(threads),
                   fmt::format("the {} largest runs at once would need about {}, more than the {} allowed (half "
                               "of this machine's memory): use -j {} or fewer",
                               threads, models::memory_text(together), models::memory_text(budget), std::max(fit, 1u)));
}

void run_all(const Plan& plan, const std::vector<RunRef>& runs, unsigned jobs,
             const std::function<void(const Row&)>& emit) {
  jobs = threads_for(jobs, runs.size());
  std::mutex mu;
  std::condition_variable ready;
  std::map<std::size_t, Row> finished;  // rows waiting for the ones before them
  std::exception_ptr failure;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};

  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= runs.size() || stop) return;
      try {
        Row row = run_one(plan, runs[i]);
        std::lock_guard lock(mu);
        finished.emplace(i, std::move(row));
      } catch (...) {
        std::lock_guard lock(mu);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
      ready.notify_one();
    }
  };
  std::vector<std::jthread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);

  for (std::size_t i = 0; i < runs.size(); ++i) {
    Row row;
    {
      std::unique_lock lock(mu);
      ready.wait(lock, [&] { return failure || finished.count(i); });
      if (failure) break;
      row = std::move(finished.at(i));
      finished.erase(i);
    }
    try {
      emit(row);
    } catch (...) {
      std::lock_guard lock(mu);
      failure = std::current_exception();
      stop = true;
      break;
    }
  }
  stop = true;
  threads.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace cli::sweep
