// The server's connections and the steps of their lives that no worker
// takes: established, accepted, a request arriving, the response header
// queued, the last byte leaving the NIC, a failure. Both engines' servers
// own one and call it; they differ only in who wakes a worker and how.
//
// A template over the engine's NIC (models::Nic, or the SimGrid one), which
// needs open_flow, close_flow, send, backlog and drained: no virtual call on the way.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/net/endpoints.h"
#include "models/server/http_connection.h"
#include "models/server/listen_sockets.h"
#include "models/server/server_stats.h"
#include "sim/time.h"

namespace models {

template <class NicT>
class ConnectionTable {
 public:
  // Whatever a connection's life touches besides its worker.
  ConnectionTable(NicT& nic, ClientSide& clients, ListenSockets& sockets, ServerStats& stats)
      : nic_(nic), clients_(clients), sockets_(sockets), stats_(stats) {}

  HttpConnection& operator[](std::uint32_t id) { return conns_[id]; }
  const HttpConnection& operator[](std::uint32_t id) const { return conns_[id]; }
  std::size_t size() const { return conns_.size(); }

  // The handshake is done: the slot holds a new connection, in the listen
  // queue, with its flow on the NIC (whose events go to `listener`).
  HttpConnection& open(std::uint32_t id, std::uint32_t group, FlowListener* listener) {
    while (conns_.size() <= id) conns_.emplace_back();
    if (delivering_.size() <= id) delivering_.resize(id + 1, false);
    if (closing_.size() <= id) closing_.resize(id + 1, false);
    HttpConnection& c = conns_[id];
    c = HttpConnection{};
    c.phase = HttpConnection::Phase::kBacklog;
    c.group = group;
    c.flow = nic_.open_flow(listener, id, clients_.path(id));
    ++stats_.connections;
    return c;
  }

  // Worker `worker` accepted it. True when a request already waits: the
  // worker must post its read event.
  bool accepted(std::uint32_t id, std::uint32_t worker) {
    HttpConnection& c = conns_[id];
    c.worker = static_cast<std::int32_t>(worker);
    c.phase = HttpConnection::Phase::kIdle;
    if (!c.request_pending) return false;
    c.phase = HttpConnection::Phase::kQueued;
    return true;
  }

  // A request for `file` reached the server at `now`. Returns the worker
  // whose read event it is, or -1 (not accepted yet, busy, or closed).
  std::int32_t request_arrived(std::uint32_t id, std::uint32_t file, sim::Time now) {
    HttpConnection& c = conns_[id];
    if (c.phase == HttpConnection::Phase::kClosed || c.phase == HttpConnection::Phase::kUnused) return -1;
    c.request_pending = true;
    c.pending_file = file;
    c.arrived_at = now;
    if (c.phase != HttpConnection::Phase::kIdle) return -1;
    c.phase = HttpConnection::Phase::kQueued;
    return c.worker;
  }

  // The response header (`bytes`) goes into the socket at `now`.
  void header_sent(std::uint32_t id, std::uint64_t bytes, sim::Time now) {
    HttpConnection& c = conns_[id];
    nic_.send(c.flow, static_cast<double>(bytes));
    stats_.blocked_before_first_byte_s += c.blocked_s;
    stats_.ttfb_s += sim::to_seconds(now - c.arrived_at);
    clients_.on_first_byte(id);
  }

  // NGINX logged the request at `now` (the whole response is in the socket).
  void request_logged(std::uint32_t id, sim::Time now) { clients_.on_request_logged(id, now - conns_[id].started_at); }

  // A chunk of `bytes` went into the socket and the response goes on.
  void chunk_sent(std::uint32_t id, std::uint64_t bytes) { clients_.on_data_sent(id, bytes); }
  // The loopback transmission's CPU that sending `bytes` on `id` costs the
  // sender when it transmits them itself (ClientSide::sender_runs_receive):
  // the receive path, moved from the client and never more than its read
  // costs (response_reader.h), and TCP's pacing (host.h).
  double receive_path_s(std::uint32_t id, std::uint64_t bytes, const CpuCosts& costs) {
    if (bytes == 0 || loopback_transmit_byte(costs) <= 0 || !clients_.sender_runs_receive(id, bytes)) return 0;
    return loopback_transmit_byte(costs) * static_cast<double>(bytes);
  }

  // The response's last byte is in the socket: the client hears of it when
  // the byte leaves the NIC (flow_empty), and a closing connection closes.
  void response_done(std::uint32_t id) {
    HttpConnection& c = conns_[id];
    closing_[id] = c.phase == HttpConnection::Phase::kClosed;
    if (nic_.drained(c.flow))
      deliver(id);
    else
      delivering_[id] = true;
  }

  void fail(std::uint32_t id, const std::string& reason, const std::string& log_line) {
    HttpConnection& c = conns_[id];
    if (c.phase == HttpConnection::Phase::kClosed) return;
    c.phase = HttpConnection::Phase::kClosed;
    nic_.close_flow(c.flow);
    delivering_[id] = false;
    sockets_.closed(id);
    ++stats_.failed[reason];
    ++stats_.log_lines;
    if (stats_.log.size() < kLogLinesKept) stats_.log.push_back(log_line);
    clients_.on_connection_closed(id, reason);
  }

  // The socket's backlog fell below the writable mark (EPOLLOUT). Returns
  // the worker whose write event it is, or -1 when nobody waits for it.
  std::int32_t flow_below(std::uint32_t id) {
    HttpConnection& c = conns_[id];
    if (c.phase != HttpConnection::Phase::kWaitWritable) return -1;
    c.phase = HttpConnection::Phase::kQueued;
    return c.worker;
  }

  // The socket's backlog is empty.
  void flow_empty(std::uint32_t id) {
    if (!delivering_[id]) return;
    delivering_[id] = false;
    deliver(id);
  }

 private:
  static constexpr std::size_t kLogLinesKept = 20;

  void deliver(std::uint32_t id) {
    const bool close = closing_[id];
    if (close) {
      closing_[id] = false;
      nic_.close_flow(conns_[id].flow);
      sockets_.closed(id);
    }
    clients_.on_response_delivered(id, close);
  }

  NicT& nic_;
  ClientSide& clients_;
  ListenSockets& sockets_;
  ServerStats& stats_;
  std::deque<HttpConnection> conns_;
  std::vector<bool> delivering_;
  std::vector<bool> closing_;  // closed once the last response has left
};

}  // namespace models
