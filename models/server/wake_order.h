// Who a readable shared listen socket wakes, and in which order.
//
// The socket's readiness runs __wake_up_common over its wait queue, one
// entry per worker's epoll, calling ep_poll_callback (fs/eventpoll.c) for
// each: it puts the socket on that epoll's ready list and wakes the worker if
// it sleeps in epoll_wait (its waiter is on ep->wq; ep_autoremove_wake_function
// takes it off at once, so a worker woken and not yet back in epoll_wait
// counts as busy).
//  - With EPOLLEXCLUSIVE (NGINX >= 1.11.3 with accept_mutex off), entries
//    are exclusive and ep_poll_callback returns 1 only when it woke someone:
//    the walk goes in wait-queue order (listen_sockets.h), passes busy
//    workers, whose epoll keeps the socket ready, and stops at the first
//    sleeping one. Busy workers it passed see the socket at their next
//    epoll_wait and race the woken one for accept(); those after it do not.
//  - Without it, every entry's callback runs: every sleeping worker is woken
//    and busy ones see the socket at their next epoll_wait. The order of the
//    wake-ups is the model's choice, kept from before: most recently idle
//    first (Cloudflare, "Why does one NGINX worker take all the load?").
//    The kernel's is add_wait_queue's, last registered first.
// Whoever calls accept() first wins (worker.h: the connection is claimed
// after the CPU it takes to get there); the others find EAGAIN.
//
// A template over the engine's worker (models::Worker, or the SimGrid
// actor), which needs sleeping(), idle_since(), index(), accept_mutex_held()
// and listen_ready(): no virtual call on the way.
#pragma once
#include <memory>
#include <vector>

#include "models/server/listen_sockets.h"

namespace models {

// EPOLLEXCLUSIVE: the walk over the socket's wait queue.
template <class W>
void wake_first_sleeper(const std::vector<std::unique_ptr<W>>& workers, ListenSockets& sockets) {
  for (std::uint32_t w : sockets.wait_queue()) {
    sockets.put_on_ready_list(w);
    W& worker = *workers[w];
    if (worker.sleeping()) {
      worker.listen_ready();
      return;
    }
  }
}

// `order`: the caller's scratch, so that no connection allocates.
template <class W>
void wake_watchers(const std::vector<std::unique_ptr<W>>& workers, ListenSockets& sockets,
                   bool epoll_exclusive, std::vector<W*>& order) {
  if (epoll_exclusive && sockets.exclusive()) {
    wake_first_sleeper(workers, sockets);
    return;
  }
  order.clear();
  for (const auto& w : workers)
    if (w->sleeping() && sockets.ready_for(w->index(), w->accept_mutex_held())) order.push_back(w.get());
  auto more_recent = [](const W* a, const W* b) { return a->idle_since() > b->idle_since(); };
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
                         ListenSockets& sockets, bool epoll_exclusive, std::vector<W*>& order) {
  if (own >= 0) {
    workers[static_cast<std::size_t>(own)]->listen_ready();
    return;
  }
  wake_watchers(workers, sockets, epoll_exclusive, order);
}

}  // namespace models
