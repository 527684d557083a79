// The server's NIC on SimGrid: each connection's send buffer is drained by
// transfers over the NIC link, which SimGrid shares equally among the
// transfers in progress.
//
// One sender actor per flow moves the bytes queued in the socket into a
// transfer, all of them at once, and starts the next as soon as one ends:
// a flow with data queued always has exactly one transfer running, so it
// holds one equal share, as in the native processor-sharing NIC.
//
// A reader that waits for the backlog to fall to a threshold (EPOLLOUT)
// needs an event at that point, and SimGrid reports only the end of a
// transfer. So a transfer never runs past a pending threshold: it is sized
// to end there, and when a threshold is set inside a running transfer that
// transfer is cancelled and restarted in two parts, at the same instant, which
// changes no share.
//
// Transfers carry whole bytes; a part that is not whole is rounded up, which
// delays a milestone by less than one byte's time.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <simgrid/s4u/Comm.hpp>
#include <vector>

#include "engines/simgrid/sg_clock.h"
#include "engines/simgrid/sg_platform.h"
#include "models/hardware/nic.h"
#include "models/os/tcp_sender.h"

namespace sgengine {

class SgNic {
 public:
  SgNic(const Platform& platform, const models::NicSpec& spec) : platform_(platform), spec_(spec) {}

  // `path`: an internet client's, which this engine refuses (sg_support.cpp); always null here.
  std::uint32_t open_flow(models::FlowListener* listener, std::uint64_t tag, const models::TcpPath* path = nullptr);
  void close_flow(std::uint32_t flow);  // drops whatever is still queued
  void send(std::uint32_t flow, double bytes);
  double backlog(std::uint32_t flow);
  bool drained(std::uint32_t flow) { return backlog(flow) <= 0; }
  // Calls on_flow_below once when the backlog falls to `bytes` (now, if it is there already).
  void notify_below(std::uint32_t flow, double bytes);

  double payload_sent();
  double interface_bytes_sent() { return payload_sent() * spec_.interface_bytes_per_payload_byte(); }
  const models::NicSpec& spec() const { return spec_; }

 private:
  struct Flow {
    bool open = false;
    models::FlowListener* listener = nullptr;
    std::uint64_t tag = 0;
    double queued = 0;      // in the socket, not yet in a transfer
    double threshold = -1;  // on_flow_below when the backlog falls to it (-1: none)
    simgrid::s4u::CommPtr transfer;
    double transfer_bytes = 0;  // exact size of the running transfer
    double transfer_wire = 0;   // whole bytes SimGrid carries for it
    std::unique_ptr<Wakeup> wake;
  };
  void sender(std::uint32_t f);
  void stop_transfer(Flow& flow);
  double in_transfer(const Flow& flow) const;

  const Platform& platform_;
  models::NicSpec spec_;
  std::deque<Flow> flows_;
  std::vector<std::uint32_t> free_;
  double sent_ = 0;  // bytes of finished (or cut) transfers
};

}  // namespace sgengine
