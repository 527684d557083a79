// An NGINX server: its workers, their listen sockets and how new
// connections reach them, and the life of a connection from request to the
// last byte of its response leaving the NIC.
//
// Accept policies (ngx_event_accept.c, ngx_event.c), in listen_sockets.h
// and wake_order.h (shared with the SimGrid engine):
//  - accept_mutex off: every worker watches the one listen socket; a new
//    connection wakes every sleeping worker, and the first to call accept()
//    wins (the herd: the others wake for nothing).
//  - accept_mutex on: a worker takes the mutex before epoll_wait and holds it
//    while it sleeps; only holders watch the listen socket. Workers that do
//    not hold it wait at most accept_mutex_delay before trying again.
//  - reuseport: one listen socket per worker; the kernel picks the socket by
//    a hash of the connection, and only that worker can accept it.
//  - a recorded placement (clerk realrun replays a real run's): a group's
//    connections go to the worker furthest below its recorded share, through
//    that worker's own queue, whatever the policy.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/net/endpoints.h"
#include "models/os/filesystem.h"
#include "models/os/host.h"
#include "models/server/accept_event.h"
#include "models/server/connection_table.h"
#include "models/server/http_connection.h"
#include "models/server/listen_sockets.h"
#include "models/server/nginx_config.h"
#include "models/server/server_stats.h"
#include "models/server/worker.h"
#include "sim/random.h"

namespace models {

class Nginx final : public FlowListener, public ServerSide {
 public:
  Nginx(Host& host, const NginxConfig& config, const Filesystem& files, ClientSide& clients,
        sim::RandomStream rng);
  ~Nginx();

  // From the network.
  void connection_arrived(std::uint32_t conn, std::uint32_t group) override;
  void request_arrived(std::uint32_t conn, std::uint32_t file) override;

  // For workers.
  Host& host() { return host_; }
  const NginxConfig& config() const { return config_; }
  const Filesystem& files() const { return files_; }
  HttpConnection& conn(std::uint32_t id) { return conns_[id]; }
  // epoll_wait's word on the listen socket for `w` (ListenSockets::poll).
  bool listen_ready_for(const Worker& w) { return sockets_.poll(w.index(), w.accept_mutex_held()); }
  Accepted accept_one(Worker& w);
  // The end of an accept event that took a connection (ngx_reorder_accept_events).
  void accept_event_done(const Worker& w) { sockets_.accept_event_done(w.index()); }
  // ngx_trylock_accept_mutex, or the turn ngx_accept_disabled skips it (listen_sockets.h).
  bool try_accept_mutex(const Worker& w) { return sockets_.try_mutex(w.index(), w.accept_mutex_held()); }
  bool accept_mutex_skipped(const Worker& w) const { return sockets_.mutex_skipped(w.index()); }
  void release_accept_mutex(const Worker& w) { sockets_.release_mutex(w.index()); }
  // A request was read: take the file it asks for.
  void begin_request(std::uint32_t conn);
  // The file is open: queue the response header.
  void start_response(std::uint32_t conn);
  // Whether this request also writes a new cache file (cache_fill_rate).
  bool draw_cache_fill();
  void after_chunk(Worker& w, std::uint32_t conn, std::uint64_t sent, std::uint64_t limit);
  // Bytes a directio pass wrote before its response waits for an offloaded read.
  // The loopback receive path that sending `bytes` on `conn` runs in the sender (connection_table.h).
  double receive_path_s(std::uint32_t conn, std::uint64_t bytes, const CpuCosts& costs) {
    return conns_.receive_path_s(conn, bytes, costs);
  }
  void data_sent(std::uint32_t conn, std::uint64_t bytes) {
    if (bytes) conns_.chunk_sent(conn, bytes);
  }
  void fail(std::uint32_t conn, const std::string& reason, const std::string& log_line) {
    conns_.fail(conn, reason, log_line);
  }
  std::uint64_t chunk_limit(const HttpConnection& c) const;
  // The pool of worker `w` that aio threads=NAME names for the connection's file (pool_choice.h).
  ThreadPool& pool_for(Worker& w, std::uint32_t conn) {
    return w.pool(file_pools_.empty() ? 0 : file_pools_[conns_[conn].file]);
  }
  // The requests' stage clocks (null when the clients keep none).
  RequestStages* stages() { return stages_; }

  std::uint32_t workers() const { return static_cast<std::uint32_t>(workers_.size()); }
  Worker& worker(std::uint32_t i) { return *workers_[i]; }
  const ServerStats& stats() const { return stats_; }
  // Read-only views for front ends (the visualizer).
  const Worker& worker(std::uint32_t i) const { return *workers_[i]; }
  std::size_t connection_slots() const { return conns_.size(); }
  const HttpConnection& conn(std::uint32_t id) const { return conns_[id]; }
  // Connections established and not yet accepted, over every listen queue.
  std::size_t backlog() const { return sockets_.backlog(); }

  void on_flow_below(std::uint64_t tag) override;
  void on_flow_empty(std::uint64_t tag) override;

 private:
  Host& host_;
  NginxConfig config_;
  const Filesystem& files_;
  std::vector<std::uint32_t> file_pools_;  // per file, with several pools: its pool's index
  sim::RandomStream rng_;
  std::vector<std::unique_ptr<Worker>> workers_;
  ListenSockets sockets_;
  std::vector<Worker*> wake_order_;  // scratch for wake_for_connection
  ServerStats stats_;
  RequestStages* stages_;
  ConnectionTable<Sockets> conns_;  // after what it points at
};

}  // namespace models
