// Who a readable shared listen socket wakes, and in which order.
//
// Sleeping workers that watch the socket are woken; Linux wakes epoll
// waiters last in, first out, so the most recently idle worker runs first
// and wins accept() (Cloudflare, "Why does one NGINX worker take all the
// load?"). The others find the queue empty. Busy workers see the socket at
// their next epoll_wait. With EPOLLEXCLUSIVE only the first waiter is woken.
//
// A template over the engine's worker (models::Worker, or the SimGrid
// actor), which needs sleeping(), idle_since(), index(), accept_mutex_held()
// and listen_ready(): no virtual call on the way.
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "models/server/listen_sockets.h"

namespace models {

// `order`: the caller's scratch, so that no connection allocates.
template <class W>
void wake_watchers(const std::vector<std::unique_ptr<W>>& workers, const ListenSockets& sockets,
                   bool epoll_exclusive, std::vector<W*>& order) {
  order.clear();
  for (const auto& w : workers)
    if (w->sleeping() && sockets.ready_for(w->index(), w->accept_mutex_held())) order.push_back(w.get());
  auto more_recent = [](const W* a, const W* b) { return a->idle_since() > b->idle_since(); };
  if (epoll_exclusive) {
    auto first = std::min_element(order.begin(), order.end(), more_recent);
    if (first != order.end()) (*first)->listen_ready();
    return;
  }
  // Most recent first, ties in worker order: a stable insertion sort, since
  // std::stable_sort asks for a buffer at every call and there are only as
  // many waiters as workers.
  for (std::size_t i = 1; i < order.size(); ++i) {
    W* const w = order[i];
    std::size_t j = i;
    for (; j > 0 && more_recent(w, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = w;
  }
  for (W* w : order) w->listen_ready();
}

// A connection was queued (ListenSockets::queue returned `own`): wake the
// worker whose own queue took it, or the watchers of the shared socket.
template <class W>
void wake_for_connection(std::int32_t own, const std::vector<std::unique_ptr<W>>& workers,
                         const ListenSockets& sockets, bool epoll_exclusive, std::vector<W*>& order) {
  if (own >= 0) {
    workers[static_cast<std::size_t>(own)]->listen_ready();
    return;
  }
  wake_watchers(workers, sockets, epoll_exclusive, order);
}

}  // namespace models
