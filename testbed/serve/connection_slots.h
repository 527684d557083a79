// A worker's connection slots, against --worker-connections, and its
// reusable connections: nginx's free_connections and
// reusable_connections_queue (ngx_connection.c). A connection is reusable
// while it only waits (ngx_reusable_connection(c, 1)): accepted and waiting
// for its first request (ngx_http_init_connection), kept alive between
// requests with nothing buffered (ngx_http_set_keepalive) or in its
// lingering close (ngx_http_set_lingering_close). Once bytes of a request
// arrive it is busy again. When slots run short, the ones reusable the
// longest are closed to make room (ngx_drain_connections).
#pragma once

#include <cstddef>
#include <list>

namespace clerk::serve {

// What a drain does to a reusable connection: close it now, its slot free
// when reuse() returns (nginx sets c->close and runs the read handler, which
// closes a waiting connection at once).
class Reusable {
 public:
  virtual void reuse() = 0;

 protected:
  Reusable() = default;
  ~Reusable() = default;
  Reusable(const Reusable&) = delete;
  Reusable& operator=(const Reusable&) = delete;

 private:
  friend class ConnectionSlots;
  bool queued_ = false;
  std::list<Reusable*>::iterator position_;  // in ConnectionSlots::reusable_ while queued_
};

class ConnectionSlots {
 public:
  // nginx counts a worker's listening socket and its channel to the master
  // among its worker_connections (ngx_event_process_init); clients get the
  // rest, as the model's listen_sockets.h reserves them.
  static constexpr std::size_t kReservedSlots = 2;
  explicit ConnectionSlots(std::size_t worker_connections) : worker_connections_(worker_connections) {}
  ConnectionSlots(const ConnectionSlots&) = delete;
  ConnectionSlots& operator=(const ConnectionSlots&) = delete;

  std::size_t open() const { return open_; }
  std::size_t reusable() const { return reusable_.size(); }
  std::size_t free_slots() const;
  bool full() const { return free_slots() == 0; }
  void take() { ++open_; }
  void give_back() { --open_; }

  // ngx_reusable_connection: reusable moves the connection to the queue's
  // newest end (again if it was there already); not reusable takes it out.
  void set_reusable(Reusable& connection, bool reusable);

  // ngx_drain_connections, which ngx_get_connection calls before it takes a
  // slot: with at most worker_connections / 16 slots free (since nginx
  // 1.19.2 it reuses in advance, not only with none free) it closes the
  // drain_count() connections reusable the longest. Returns how many.
  std::size_t drain();

 private:
  std::size_t worker_connections_;
  std::size_t open_ = 0;
  std::list<Reusable*> reusable_;  // newest first, as nginx's queue (inserted at its head, drained from its tail)
};

// How many ngx_drain_connections closes: max(min(32, reusable / 8), 1).
std::size_t drain_count(std::size_t reusable);

}  // namespace clerk::serve
