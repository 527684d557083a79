#include "ui/counter_tally.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace ui {

std::vector<CounterTally> tally_counters(models::World& world) {
  using Phase = models::HttpConnection::Phase;
  const models::Nginx& server = world.server();
  const models::Wrk& wrk = world.clients();
  const std::uint32_t n = server.workers();
  std::vector<CounterTally> out(n);
  std::vector<bool> blocked(n);
  for (std::uint32_t w = 0; w < n; ++w)
    blocked[w] = world.tasks().state(server.worker(w).task()) == models::TaskState::kDiskWait;
  const sim::Time now = world.engine().now();
  const auto conns = static_cast<std::uint32_t>(std::min<std::uint64_t>(wrk.connections_opened(), server.connection_slots()));
  for (std::uint32_t id = 0; id < conns; ++id) {
    const models::HttpConnection& c = server.conn(id);
    if (c.worker < 0 || static_cast<std::uint32_t>(c.worker) >= n) continue;
    CounterTally& t = out[static_cast<std::uint32_t>(c.worker)];
    switch (c.phase) {
      case Phase::kQueued: ++t.ready; break;
      case Phase::kDelayed: ++t.bench; break;
      case Phase::kSending: ++(blocked[static_cast<std::uint32_t>(c.worker)] ? t.warehouse : t.desk); break;
      case Phase::kWaitPool: ++t.team; break;
      case Phase::kWaitWritable: ++t.dock; continue;
      default: continue;
    }
    if (wrk.in_flight(id)) t.oldest_s = std::max(t.oldest_s, sim::to_seconds(now - wrk.request_started(id)));
  }
  return out;
}

float wait_warmth(double oldest_s) {
  if (oldest_s <= 0.01) return 0.0f;
  return static_cast<float>(std::min(1.0, std::log10(oldest_s / 0.01) / 2.0));
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 1)
    std::snprintf(buf, sizeof buf, "%.0f ms", s * 1e3);
  else if (s < 10)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  return buf;
}

}  // namespace ui
