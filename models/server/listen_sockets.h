// NGINX's listen sockets and the accept mutex: which queue a new connection
// waits in, which worker may accept it, and which connection accept() takes.
// Both engines run these rules; they differ only in how a woken worker gets
// to run (wake_order.h picks who is woken).
//
//  - accept_mutex off: one socket every worker watches (the shared queue).
//  - accept_mutex on: the same socket, watched only by the mutex holder.
//  - reuseport: one socket per worker (its own queue); the kernel hashes the
//    4-tuple, and a fresh client port makes the choice uniform.
//  - a recorded placement (clerk realrun replays a real run's): a group's
//    connections go to the worker furthest below its recorded share, through
//    that worker's own queue, whatever the policy.
//
// With EPOLLEXCLUSIVE the shared socket also keeps what the kernel keeps per
// worker (fs/eventpoll.c):
//  - its wait queue: each worker's epoll item is queued on the socket by
//    ep_ptable_queue_proc -> add_wait_queue_exclusive, at the tail, when the
//    worker adds the socket (ngx_event_process_init, after fork, in worker
//    order here); __wake_up_common walks it from the head;
//  - whether the socket is on a worker's ready list: ep_poll_callback puts it
//    there (list_add_tail on rdllist) for every entry the walk passes, busy
//    or not; ep_send_events reports it at that worker's next epoll_wait and,
//    level-triggered, leaves it there while it is readable, and drops it once
//    accept() has emptied the queue. A worker whose epoll has it races the
//    others for the next connection; one whose epoll lacks it does not see
//    the socket at all;
//  - ngx_reorder_accept_events (NGINX >= 1.21.6): EPOLL_CTL_DEL then
//    EPOLL_CTL_ADD moves the worker's entry to the tail, and ep_insert puts
//    the socket on its ready list at once if a connection is waiting.
// Without EPOLLEXCLUSIVE every entry's callback runs, so every worker's epoll
// has the socket: ready_for() alone says what epoll_wait reports.
//
// worker_connections (when the scenario sets it; unset, nothing below runs):
// each worker has that many connection slots (ngx_cycle->connection_n). Two
// are taken from the start: its listen socket (ngx_event_process_init takes a
// slot for each listening socket the worker watches: the shared one, or its
// own reuseport clone) and its channel to the master (ngx_add_channel_event
// in ngx_worker_process_init). The thread pools' and native AIO's eventfds
// use static connections in ngx_epoll_module.c, no slot. Every accepted
// client connection takes one until it closes.
//  - ngx_event_accept, after each accept() and before ngx_get_connection:
//    ngx_accept_disabled = connection_n / 8 - free slots;
//  - ngx_get_connection with no free slot: the socket is closed and
//    "N worker_connections are not enough" logged (NGX_LOG_ALERT), and
//    ngx_event_accept returns (no further accept, no reorder);
//  - ngx_process_events_and_timers with the mutex in use: a worker whose
//    ngx_accept_disabled > 0 decrements it and skips ngx_trylock_accept_mutex
//    for that turn. ngx_accept_mutex_held keeps its last value then: a worker
//    that held the mutex keeps the listen socket in its epoll (only a failed
//    trylock removes it), while the lock itself is free for the others;
//  - ngx_reorder_accept_events (EPOLLEXCLUSIVE): re-adds the socket after
//    every accept event while ngx_accept_disabled > 0, not every 16th.
// Not modelled: ngx_drain_connections (ngx_connection.c). ngx_get_connection
// calls it first: with at most connection_n / 16 slots free and a reusable
// connection (ngx_reusable_connection: kept alive between requests, or
// accepted and waiting for its first request), it closes max(1, min(32,
// reusable / 8)) of them, the longest idle first, logging "worker_connections
// are not enough, reusing connections". A client whose next request was on
// its way then sees its connection closed; clerk's clients do not model that,
// so this is left out, said in the key's reference and by clerk realrun.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/server/nginx_config.h"
#include "sim/random.h"

namespace models {

class ListenSockets {
 public:
  explicit ListenSockets(const NginxConfig& config);

  // A connection of `group` finished its handshake and waits to be accepted.
  // Returns the worker whose own queue took it, or -1 for the shared queue.
  // `rng` draws the reuseport hash.
  std::int32_t queue(std::uint32_t conn, std::uint32_t group, sim::RandomStream& rng);

  // Whether worker `w` would find a connection to accept (epoll says the
  // listen socket is readable).
  bool ready_for(std::uint32_t w, bool holds_mutex) const {
    // The worker's own queue: its reuseport socket's, or connections placed on it.
    if (!own_[w].empty()) return true;
    // Without a socket of its own, the shared one, if the worker may listen on it
    // and (EPOLLEXCLUSIVE) a wake-up walk or a re-add put it on the worker's ready list.
    if (accept_.reuseport) return false;
    if (exclusive_ && !on_ready_list_[w]) return false;
    return (holds_mutex || !accept_.accept_mutex) && !shared_.empty();
  }
  // epoll_wait by worker `w`: ready_for(), and ep_send_events drops the
  // shared socket from the worker's ready list when its queue is empty.
  bool poll(std::uint32_t w, bool holds_mutex) {
    if (exclusive_ && shared_.empty()) on_ready_list_[w] = false;
    return ready_for(w, holds_mutex);
  }

  // EPOLLEXCLUSIVE: the workers in the shared socket's wait-queue order, and
  // ep_poll_callback putting the socket on worker `w`'s ready list.
  bool exclusive() const { return exclusive_; }
  const std::vector<std::uint32_t>& wait_queue() const { return wait_queue_; }
  void put_on_ready_list(std::uint32_t w) { on_ready_list_[w] = true; }
  // Worker `w`'s accept event took at least one connection: NGINX >= 1.21.6
  // ends ngx_event_accept with ngx_reorder_accept_events.
  void accept_event_done(std::uint32_t w);
  // accept() by worker `w`: false when its queues are empty (EAGAIN).
  bool accept(std::uint32_t w, std::uint32_t& conn);

  // ngx_trylock_accept_mutex / ngx_shmtx_unlock. try_mutex returns whether
  // worker `w` holds the mutex (ngx_accept_mutex_held) after this turn's
  // step: `held` unchanged when ngx_accept_disabled > 0 skips the try.
  bool try_mutex(std::uint32_t w, bool held);
  // Whether the last try_mutex of `w` skipped the try (then NGINX does not
  // shorten epoll_wait's timeout to accept_mutex_delay).
  bool mutex_skipped(std::uint32_t w) const { return !skipped_.empty() && skipped_[w]; }
  void release_mutex(std::uint32_t w) {
    if (mutex_owner_ == static_cast<std::int32_t>(w)) mutex_owner_ = -1;
  }

  // The connection closed: its worker's placed count goes down, and its
  // connection slot is free again.
  void closed(std::uint32_t conn);

  // worker_connections: worker `w` accept()ed `conn`; ngx_get_connection
  // takes a slot. False when none is free (the connection is to be closed).
  bool take_slot(std::uint32_t w, std::uint32_t conn);
  // Worker `w`'s ngx_accept_disabled and its free connection slots.
  std::int64_t accept_disabled(std::uint32_t w) const { return disabled_.empty() ? 0 : disabled_[w]; }
  std::uint32_t free_slots(std::uint32_t w) const;
  // The log line of a refused connection (ngx_get_connection's alert).
  std::string not_enough_line() const;
  static constexpr const char* kNotEnough = "worker_connections are not enough";
  // Slots a worker takes before any client: its listen socket and its channel.
  static constexpr std::uint32_t kReservedSlots = 2;

  // Connections established and not yet accepted, over every listen queue.
  std::size_t backlog() const {
    std::size_t n = shared_.size();
    for (const auto& q : own_) n += q.size();
    return n;
  }

 private:
  // The worker a recorded placement gives this group's next connection, or -1.
  std::int32_t placed_worker(std::uint32_t group) const;

  struct Placed {
    std::int32_t worker = -1;  // -1: not placed
    std::uint32_t group = 0;
  };

  const AcceptPolicy& accept_;
  std::uint32_t workers_;
  std::vector<std::vector<std::uint32_t>> placement_;  // per group: the recorded count per worker
  std::deque<std::uint32_t> shared_;
  std::vector<std::deque<std::uint32_t>> own_;    // reuseport, and placed connections
  std::vector<std::vector<std::uint32_t>> placed_;  // per group: open placed connections per worker
  std::vector<Placed> placed_on_;                   // per connection
  std::int32_t mutex_owner_ = -1;
  // EPOLLEXCLUSIVE on the shared socket (see the top of this file).
  bool exclusive_;
  std::uint32_t reorder_every_;              // 16 from NGINX 1.21.6, 0 before (nginx_versions.h)
  std::vector<std::uint32_t> wait_queue_;    // worker indices, head first
  std::vector<bool> on_ready_list_;          // per worker
  std::vector<std::uint64_t> accept_events_; // per worker: the listen connection's c->requests
  // worker_connections (see the top of this file); all empty when not set.
  std::uint32_t connection_n_;
  std::vector<std::uint32_t> used_;     // per worker: client connections holding a slot
  std::vector<std::int64_t> disabled_;  // per worker: ngx_accept_disabled
  std::vector<bool> skipped_;           // per worker: the last try_mutex skipped the try
  std::vector<std::int32_t> slot_of_;   // per connection: the worker whose slot it holds, or -1
};

}  // namespace models
