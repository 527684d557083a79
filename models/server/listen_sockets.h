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
#pragma once
#include <cstdint>
#include <deque>
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
    // Without a socket of its own, the shared one, if the worker may listen on it.
    if (accept_.reuseport) return false;
    return (holds_mutex || !accept_.accept_mutex) && !shared_.empty();
  }
  // accept() by worker `w`: false when its queues are empty (EAGAIN).
  bool accept(std::uint32_t w, std::uint32_t& conn);

  // ngx_trylock_accept_mutex / ngx_shmtx_unlock.
  bool try_mutex(std::uint32_t w);
  void release_mutex(std::uint32_t w) {
    if (mutex_owner_ == static_cast<std::int32_t>(w)) mutex_owner_ = -1;
  }

  // The connection closed: its worker's placed count goes down.
  void closed(std::uint32_t conn);

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
};

}  // namespace models
