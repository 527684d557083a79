#include "testbed/realrun/prediction.h"

#include <algorithm>
#include <numeric>

#include "engines/run_scenario.h"

namespace testbed {

models::Scenario as_run(const models::Scenario& scenario, const RealRunResult& real, std::uint64_t cache_limit_bytes) {
  models::Scenario sc = scenario;
  if (cache_limit_bytes) sc.hardware.page_cache_bytes = cache_limit_bytes;
  // wrk's own measured duration: the simulated wrk runs as long.
  double duration = 0;
  for (const RealGroupResult& g : real.groups) duration = std::max(duration, g.duration_s);
  if (duration > 0) sc.duration_s = duration;
  for (std::size_t i = 0; i < sc.clients.size() && i < real.groups.size(); ++i) {
    const auto& p = real.groups[i].placement;
    const std::uint64_t placed = std::accumulate(p.begin(), p.end(), std::uint64_t{0});
    // Replay only a placement that names every worker and places something;
    // otherwise the model's accept policy decides, as the server's did.
    if (p.size() == sc.nginx.worker_processes && placed > 0) sc.clients[i].placement = p;
  }
  return sc;
}

models::RunResult predict(const models::Scenario& scenario, const RealRunResult& real, std::uint64_t seed,
                          std::uint64_t cache_limit_bytes) {
  const models::Scenario sc = as_run(scenario, real, cache_limit_bytes);
  return engines::run_scenario(sc, {seed, sc.duration_s, engines::Engine::kNative, {}});
}

}  // namespace testbed
