// An NGINX server on SimGrid: the counterpart of models::Nginx. The
// connections, listen queues, accept mutex, recorded placement and wake-up
// order are the same code (connection_table.h, listen_sockets.h,
// wake_order.h); the workers are actors (sg_worker.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engines/simgrid/sg_host.h"
#include "models/net/endpoints.h"
#include "models/os/filesystem.h"
#include "models/server/accept_event.h"
#include "models/server/connection_table.h"
#include "models/server/http_connection.h"
#include "models/server/listen_sockets.h"
#include "models/server/nginx_config.h"
#include "models/server/server_stats.h"
#include "sim/random.h"

namespace sgengine {

class SgWorker;

class SgServer final : public models::FlowListener, public models::ServerSide {
 public:
  SgServer(SgHost& host, const models::NginxConfig& config, const models::Filesystem& files,
           models::ClientSide& clients, sim::RandomStream rng);
  ~SgServer();

  // From the network.
  void connection_arrived(std::uint32_t conn, std::uint32_t group) override;
  void request_arrived(std::uint32_t conn, std::uint32_t file) override;

  // For workers.
  SgHost& host() { return host_; }
  const models::NginxConfig& config() const { return config_; }
  const models::Filesystem& files() const { return files_; }
  models::HttpConnection& conn(std::uint32_t id) { return conns_[id]; }
  bool listen_ready_for(const SgWorker& w);  // epoll_wait's word (ListenSockets::poll)
  models::Accepted accept_one(SgWorker& w);
  void accept_event_done(const SgWorker& w);  // ngx_reorder_accept_events
  bool try_accept_mutex(const SgWorker& w);  // or the turn ngx_accept_disabled skips it
  bool accept_mutex_skipped(const SgWorker& w) const;
  void release_accept_mutex(const SgWorker& w);
  // A request was read: take the file it asks for.
  void begin_request(std::uint32_t conn);
  // The file is open: queue the response header.
  void start_response(std::uint32_t conn);
  // Whether this request also writes a new cache file (cache_fill_rate).
  bool draw_cache_fill();
  void after_chunk(SgWorker& w, std::uint32_t conn, std::uint64_t sent, std::uint64_t limit);
  void fail(std::uint32_t conn, const std::string& reason, const std::string& log_line) {
    conns_.fail(conn, reason, log_line);
  }
  std::uint64_t chunk_limit(const models::HttpConnection& c) const;
  // The loopback receive path that sending `bytes` on `conn` runs in the sender (models/server/connection_table.h).
  double receive_path_s(std::uint32_t conn, std::uint64_t bytes) { return conns_.receive_path_s(conn, bytes, host().costs); }

  std::uint32_t workers() const { return static_cast<std::uint32_t>(workers_.size()); }
  SgWorker& worker(std::uint32_t i) { return *workers_[i]; }
  const models::ServerStats& stats() const { return stats_; }

  void on_flow_below(std::uint64_t tag) override;
  void on_flow_empty(std::uint64_t tag) override;

 private:
  SgHost& host_;
  models::NginxConfig config_;
  const models::Filesystem& files_;
  sim::RandomStream rng_;
  std::vector<std::unique_ptr<SgWorker>> workers_;
  models::ListenSockets sockets_;
  std::vector<SgWorker*> wake_order_;  // scratch for wake_for_connection
  models::ServerStats stats_;
  models::ConnectionTable<SgNic> conns_;  // after what it points at
};

}  // namespace sgengine
