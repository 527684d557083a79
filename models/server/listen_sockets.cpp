#include "models/server/listen_sockets.h"

#include <algorithm>

#include "models/server/nginx_versions.h"

namespace models {

namespace {
// The release's ngx_reorder_accept_events period (nginx_versions.h); none for
// a version the table does not know.
std::uint32_t reorder_every(const std::string& version) {
  const auto d = nginx_release_defaults(version);
  return d ? d->accept_reorder_every : 0;
}
}  // namespace

ListenSockets::ListenSockets(const NginxConfig& config)
    : accept_(*config.accept),
      workers_(config.worker_processes),
      placement_(config.placement),
      own_(config.worker_processes),
      placed_(config.placement.size(), std::vector<std::uint32_t>(config.worker_processes, 0)),
      exclusive_(config.epoll_exclusive && config.accept->shared_without_mutex()),
      reorder_every_(exclusive_ ? reorder_every(config.version) : 0),
      on_ready_list_(config.worker_processes, false),
      accept_events_(config.worker_processes, 0),
      connection_n_(config.worker_connections) {
  if (connection_n_) {
    used_.assign(workers_, 0);
    disabled_.assign(workers_, 0);
    skipped_.assign(workers_, false);
  }
  // Workers add the socket to their epoll in worker order, each at the tail.
  for (std::uint32_t w = 0; w < workers_; ++w) wait_queue_.push_back(w);
}

void ListenSockets::accept_event_done(std::uint32_t w) {
  // ngx_reorder_accept_events: every 16th accept event, and every one while
  // ngx_accept_disabled > 0.
  if (reorder_every_ == 0) return;
  if (accept_events_[w]++ % reorder_every_ != 0 && accept_disabled(w) <= 0) return;
  // EPOLL_CTL_DEL (ep_remove: off the wait queue and the ready list), then
  // EPOLL_CTL_ADD (ep_insert: at the wait queue's tail, and on the ready list
  // if the socket is readable now).
  wait_queue_.erase(std::find(wait_queue_.begin(), wait_queue_.end(), w));
  wait_queue_.push_back(w);
  on_ready_list_[w] = !shared_.empty();
}

std::int32_t ListenSockets::queue(std::uint32_t conn, std::uint32_t group, sim::RandomStream& rng) {
  if (placed_on_.size() <= conn) placed_on_.resize(conn + 1);
  closed(conn);  // the slot's previous connection, if a close was never seen
  if (const std::int32_t w = placed_worker(group); w >= 0) {
    placed_on_[conn] = Placed{w, group};
    ++placed_[group][static_cast<std::size_t>(w)];
    own_[static_cast<std::size_t>(w)].push_back(conn);
    return w;
  }
  if (accept_.reuseport) {
    const auto w = static_cast<std::uint32_t>(rng.below(workers_));
    own_[w].push_back(conn);
    return static_cast<std::int32_t>(w);
  }
  shared_.push_back(conn);
  return -1;
}

std::int32_t ListenSockets::placed_worker(std::uint32_t group) const {
  if (group >= placement_.size() || placement_[group].empty()) return -1;
  const auto& want = placement_[group];
  const auto& have = placed_[group];
  // The worker furthest below its recorded count; past the recorded total
  // (reconnects before a close is seen), the one furthest below its share.
  std::int32_t best = -1;
  double best_gap = -1e300;
  double total = 0;
  for (std::uint32_t n : want) total += n;
  for (std::size_t w = 0; w < want.size() && w < have.size(); ++w) {
    if (want[w] == 0) continue;
    const double gap = static_cast<double>(want[w]) - static_cast<double>(have[w]) -
                       static_cast<double>(want[w]) / total;  // ties go to the larger share
    if (gap > best_gap) best_gap = gap, best = static_cast<std::int32_t>(w);
  }
  return best;
}

bool ListenSockets::accept(std::uint32_t w, std::uint32_t& conn) {
  auto& own = own_[w];
  auto& q = accept_.reuseport || !own.empty() ? own : shared_;
  if (q.empty()) return false;
  conn = q.front();
  q.pop_front();
  return true;
}

bool ListenSockets::try_mutex(std::uint32_t w, bool held) {
  // ngx_process_events_and_timers: `if (ngx_accept_disabled > 0) ngx_accept_disabled--; else trylock`.
  if (connection_n_) {
    skipped_[w] = disabled_[w] > 0;
    if (skipped_[w]) {
      --disabled_[w];
      return held;
    }
  }
  if (mutex_owner_ == -1 || mutex_owner_ == static_cast<std::int32_t>(w)) {
    mutex_owner_ = static_cast<std::int32_t>(w);
    return true;
  }
  return false;
}

std::uint32_t ListenSockets::free_slots(std::uint32_t w) const {
  if (!connection_n_) return 0;
  const std::uint32_t taken = kReservedSlots + used_[w];
  return connection_n_ > taken ? connection_n_ - taken : 0;
}

bool ListenSockets::take_slot(std::uint32_t w, std::uint32_t conn) {
  if (!connection_n_) return true;
  // ngx_event_accept sets ngx_accept_disabled before ngx_get_connection takes the slot.
  const std::uint32_t free = free_slots(w);
  disabled_[w] = static_cast<std::int64_t>(connection_n_ / 8) - static_cast<std::int64_t>(free);
  if (free == 0) return false;
  if (slot_of_.size() <= conn) slot_of_.resize(conn + 1, -1);
  slot_of_[conn] = static_cast<std::int32_t>(w);
  ++used_[w];
  return true;
}

std::string ListenSockets::not_enough_line() const {
  return std::to_string(connection_n_) + " " + kNotEnough;
}

void ListenSockets::closed(std::uint32_t conn) {
  if (conn < slot_of_.size() && slot_of_[conn] >= 0) {
    --used_[static_cast<std::size_t>(slot_of_[conn])];
    slot_of_[conn] = -1;
  }
  if (conn >= placed_on_.size() || placed_on_[conn].worker < 0) return;
  Placed& p = placed_on_[conn];
  --placed_[p.group][static_cast<std::size_t>(p.worker)];
  p.worker = -1;
}

}  // namespace models
