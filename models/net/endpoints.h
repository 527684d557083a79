// The two ends of a connection as each sees the other across the network.
// The network's one-way delay is applied by the side that sends.
#pragma once
#include <cstdint>
#include <string>

#include "models/net/request_stages.h"
#include "models/os/tcp_sender.h"
#include "sim/time.h"

namespace models {

class ServerSide {
 public:
  virtual void connection_arrived(std::uint32_t conn, std::uint32_t group) = 0;
  virtual void request_arrived(std::uint32_t conn, std::uint32_t file) = 0;

 protected:
  ~ServerSide() = default;
};

class ClientSide {
 public:
  // The response's last byte left the server's NIC; `closes`: the server
  // closes the connection after it (Connection: close).
  virtual void on_response_delivered(std::uint32_t conn, bool closes) = 0;
  virtual void on_connection_closed(std::uint32_t conn, const std::string& reason) = 0;
  // The response's first byte (its header) went into the socket.
  virtual void on_first_byte(std::uint32_t /*conn*/) {}
  // A chunk of `bytes` of the response's body went into the socket and more
  // follows (the last chunk is told by on_response_delivered): a client that
  // reads as data arrives, as wrk does, can read it.
  virtual void on_data_sent(std::uint32_t /*conn*/, std::uint64_t /*bytes*/) {}
  // The server is about to send `bytes` of the response: true when the
  // sender transmits them itself, running their receive path and TCP's
  // pacing (a client on the same host that has read all it was sent;
  // os/host.h, loopback_rx_byte and loopback_pacing_byte), which the client
  // then does not pay. A client elsewhere receives on its own machine: false.
  virtual bool sender_runs_receive(std::uint32_t /*conn*/, std::uint64_t /*bytes*/) { return false; }
  // The requests' stage clocks (request_stages.h), or null when this client
  // does not record where the time went.
  virtual RequestStages* stages() { return nullptr; }
  // The connection's path across the internet (tcp_sender.h), or null for a
  // client on the LAN.
  virtual const TcpPath* path(std::uint32_t /*conn*/) const { return nullptr; }
  // NGINX logged the connection's request: its $request_time, from the
  // worker reading the request to handing the response's last byte to the
  // kernel (ngx_http_log_module's "time elapsed between the first bytes were
  // read from the client and the log write after the last bytes were sent").
  virtual void on_request_logged(std::uint32_t /*conn*/, sim::Time /*request_time*/) {}

 protected:
  ~ClientSide() = default;
};

}  // namespace models
