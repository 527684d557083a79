// The server's network interface: its payload capacity shared fairly by the
// connections that have data queued (processor sharing over flows), which is
// what many TCP flows through one bottleneck converge to.
//
// Capacity: line rate times the share of each frame that is TCP payload:
// MSS / (MSS + TCP/IP headers + Ethernet header + FCS, preamble and gap).
// ifstat reports interface bytes (payload plus TCP/IP and Ethernet headers),
// as /proc/net/dev counts them.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/fair_share.h"
#include "sim/slot_pool.h"

namespace models {

struct NicSpec {
  double line_rate_bps = 10e9;
  std::uint32_t mtu = 1500;
  std::uint32_t tcp_ip_header = 52;   // IPv4 20 + TCP 20 + timestamps option 12
  std::uint32_t ethernet_header = 14;
  std::uint32_t wire_overhead = 24;   // preamble 8 + FCS 4 + inter-frame gap 12
  std::uint32_t mss() const { return mtu - tcp_ip_header; }
  double payload_Bps() const {
    const double frame_on_wire = mtu + ethernet_header + wire_overhead;
    return line_rate_bps / 8.0 * mss() / frame_on_wire;
  }
  double interface_bytes_per_payload_byte() const {
    return static_cast<double>(mtu + ethernet_header) / mss();
  }
};

class FlowListener {
 public:
  virtual void on_flow_below(std::uint64_t tag) = 0;  // backlog fell to the threshold
  virtual void on_flow_empty(std::uint64_t tag) = 0;  // every queued byte has left

 protected:
  ~FlowListener() = default;
};

class Nic final : public sim::FairShareListener {
 public:
  Nic(sim::Engine& engine, const NicSpec& spec);

  std::uint32_t open_flow(FlowListener* listener, std::uint64_t tag);
  void close_flow(std::uint32_t flow);  // drops whatever is still queued
  // The flow's events go to `listener` with `tag` from now on.
  void set_listener(std::uint32_t flow, FlowListener* listener, std::uint64_t tag) {
    flows_[flow].listener = listener;
    flows_[flow].tag = tag;
  }
  void send(std::uint32_t flow, double bytes);
  // send() for a caller sending several pieces at one instant (sendfile()):
  // the same result, with the share recomputed once, by flush().
  void send_deferred(std::uint32_t flow, double bytes);
  void flush() { share_.settle(); }
  double backlog(std::uint32_t flow);
  // Calls on_flow_below once when the backlog falls to `bytes` (now, if it is there already).
  void notify_below(std::uint32_t flow, double bytes);

  double payload_sent() { return share_.served(); }
  double interface_bytes_sent() { return payload_sent() * spec_.interface_bytes_per_payload_byte(); }
  double utilisation_integral() { return share_.busy_integral(); }
  const NicSpec& spec() const { return spec_; }
  std::size_t active_flows() const { return share_.active(); }

  void on_share_milestone(std::uint32_t job, std::uint64_t tag, double remaining) override;

 private:
  struct Flow {
    std::uint32_t job = sim::FairShare::kNoJob;
    FlowListener* listener = nullptr;
    std::uint64_t tag = 0;
    bool open = false;
  };
  NicSpec spec_;
  sim::FairShare share_;
  sim::SlotPool<Flow> flows_;
};

}  // namespace models
