// The server's TCP sockets as sendfile() and epoll see them: what a socket
// holds (its backlog against tcp_wmem max), when it turns writable, and when
// a response's last byte has left for the client.
//
// A connection from the LAN is its flow on the NIC and nothing more
// (nic.h): every call goes straight to the NIC, so LAN runs are what they
// were before internet clients existed. A connection from across the
// internet (it has a TcpPath) also has a TcpSender (tcp_sender.h): its
// bytes still cross the NIC, which counts them and shares its line rate,
// and they stay in the socket until TCP has sent them (slow start) and
// their ACKs have returned. Such a socket
//  - holds max(NIC backlog, unACKed bytes): sendfile() stops earlier, at
//    tcp_wmem max, and the worker comes back on EPOLLOUT more often;
//  - is writable when both are at most the mark;
//  - is drained when the NIC has sent everything and the last byte has left
//    the client's bottleneck (it reaches the client one way later).
// The NIC's serialisation is taken before TCP's window rather than after
// it: at a NIC's line rate a window takes microseconds, against RTTs of
// milliseconds.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "models/hardware/nic.h"
#include "models/os/tcp_sender.h"
#include "sim/engine.h"

namespace models {

class Sockets final : public FlowListener, public sim::EventTarget {
 public:
  Sockets(sim::Engine& engine, Nic& nic, const TcpSenderSpec& tcp) : engine_(engine), nic_(nic), tcp_(tcp) {}

  // A connection's socket; `path`: the client's across the internet, or
  // null for a LAN client. Events go to `listener` with `tag`.
  std::uint32_t open_flow(FlowListener* listener, std::uint64_t tag, const TcpPath* path = nullptr);
  void close_flow(std::uint32_t flow);
  void send(std::uint32_t flow, double bytes) { add(flow, bytes, false); }
  void send_deferred(std::uint32_t flow, double bytes) { add(flow, bytes, true); }
  void flush() { nic_.flush(); }
  double backlog(std::uint32_t flow);
  // Every byte written has left (the NIC; for an internet client, its bottleneck).
  bool drained(std::uint32_t flow);
  // Calls on_flow_below once when the backlog falls to `bytes`.
  void notify_below(std::uint32_t flow, double bytes);

  Nic& nic() { return nic_; }
  const TcpSender* tcp(std::uint32_t flow) const {
    return flow < paths_.size() && paths_[flow].tcp ? &*paths_[flow].tcp : nullptr;
  }

  // From the NIC, for internet flows.
  void on_flow_below(std::uint64_t tag) override;
  void on_flow_empty(std::uint64_t tag) override;
  void on_event(std::uint64_t arg) override;

 private:
  struct PathFlow {
    std::optional<TcpSender> tcp;  // empty: a LAN flow
    FlowListener* listener = nullptr;
    std::uint64_t tag = 0;
    std::uint32_t generation = 0;  // of the pending engine event
    std::uint32_t incarnation = 0; // opens of this slot: a listener may close it
    double want_below = -1;        // waiting for the backlog to fall to this
    bool nic_below = false;        // the NIC's part already has
    bool nic_empty = true;
    bool empty_pending = false;    // written to since the last on_flow_empty
  };
  bool internet(std::uint32_t flow) const { return flow < paths_.size() && paths_[flow].tcp.has_value(); }
  void add(std::uint32_t flow, double bytes, bool deferred);
  // Runs what is due for the flow at now, then sets its next event.
  void settle(std::uint32_t flow);
  void schedule(std::uint32_t flow);

  sim::Engine& engine_;
  Nic& nic_;
  TcpSenderSpec tcp_;
  std::vector<PathFlow> paths_;  // by NIC flow
};

}  // namespace models
