#include "engines/simgrid/sg_nic.h"

#include <algorithm>
#include <cmath>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>

namespace sgengine {

namespace sg4 = simgrid::s4u;

std::uint32_t SgNic::open_flow(models::FlowListener* listener, std::uint64_t tag, const models::TcpPath* path) {
  CLERK_ASSERT(path == nullptr, "SimGrid engine: internet clients are refused before the run (sg_support.cpp)");
  std::uint32_t f;
  if (!free_.empty()) {
    f = free_.back();
    free_.pop_back();
  } else {
    f = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
    flows_[f].wake = std::make_unique<Wakeup>();
    sg4::Actor::create("flow", platform_.server, [this, f] { sender(f); })->daemonize();
  }
  Flow& flow = flows_[f];
  flow.open = true;
  flow.listener = listener;
  flow.tag = tag;
  flow.queued = 0;
  flow.threshold = -1;
  return f;
}

// Bytes of the running transfer not yet sent.
double SgNic::in_transfer(const Flow& flow) const {
  if (!flow.transfer) return 0;
  const double wire_left = flow.transfer->get_remaining();
  return std::max(0.0, wire_left - (flow.transfer_wire - flow.transfer_bytes));
}

// Cuts the running transfer where it is; what it had not sent goes back to
// the socket. It is another actor's (a worker's) doing, while the flow's
// sender waits on the transfer: the sender holds a reference of its own, so
// that dropping the flow's here does not free the Comm under its wait(), and
// it tells from the flow's reference being gone that the transfer was cut
// (see sender()).
void SgNic::stop_transfer(Flow& flow) {
  const double left = in_transfer(flow);
  sent_ += flow.transfer_bytes - left;
  flow.queued += left;
  flow.transfer->cancel();
  flow.transfer = nullptr;
}

void SgNic::close_flow(std::uint32_t f) {
  Flow& flow = flows_[f];
  if (flow.transfer) stop_transfer(flow);
  flow.open = false;
  flow.queued = 0;
  flow.threshold = -1;
  flow.listener = nullptr;
  free_.push_back(f);
}

void SgNic::send(std::uint32_t f, double bytes) {
  if (bytes <= 0) return;
  Flow& flow = flows_[f];
  flow.queued += bytes;
  flow.wake->notify();
}

double SgNic::backlog(std::uint32_t f) {
  const Flow& flow = flows_[f];
  return flow.queued + in_transfer(flow);
}

void SgNic::notify_below(std::uint32_t f, double bytes) {
  Flow& flow = flows_[f];
  if (backlog(f) <= bytes) {
    flow.listener->on_flow_below(flow.tag);
    return;
  }
  flow.threshold = bytes;
  // The backlog reaches the threshold inside the running transfer: split it.
  if (flow.transfer && flow.queued < bytes) stop_transfer(flow);
}

double SgNic::payload_sent() {
  double in_progress = 0;
  for (const Flow& flow : flows_)
    if (flow.transfer) in_progress += flow.transfer_bytes - in_transfer(flow);
  return sent_ + in_progress;
}

void SgNic::sender(std::uint32_t f) {
  Flow& flow = flows_[f];
  for (;;) {
    while (flow.queued <= 0) flow.wake->wait();
    // Up to the pending threshold, or everything queued.
    double bytes = flow.queued;
    if (flow.threshold >= 0 && flow.queued > flow.threshold) bytes = flow.queued - flow.threshold;
    flow.queued -= bytes;
    flow.transfer_bytes = bytes;
    flow.transfer_wire = std::ceil(bytes);
    // This actor's own reference: the flow's goes when the transfer is cut
    // (stop_transfer), possibly while this wait() is still inside SimGrid,
    // and SimGrid's Comm lives only as long as someone holds it.
    const sg4::CommPtr transfer = sg4::Comm::sendto_async(platform_.server, platform_.clients,
                                                          static_cast<std::uint64_t>(flow.transfer_wire));
    flow.transfer = transfer;
    try {
      transfer->wait();
    } catch (const simgrid::NetworkFailureException&) {
      // how SimGrid ends the wait of a cancelled transfer; told below
    }
    ++resumptions();
    // Cut by stop_transfer, which did the accounting: also when the transfer
    // had ended at the instant it was cut and wait() returned normally, so
    // that its bytes are counted once and a closed flow's listener is not called.
    if (flow.transfer != transfer) continue;
    flow.transfer = nullptr;
    sent_ += bytes;
    if (flow.threshold >= 0 && flow.queued <= flow.threshold) {
      flow.threshold = -1;
      flow.listener->on_flow_below(flow.tag);
    }
    if (flow.open && flow.queued <= 0 && flow.transfer == nullptr) flow.listener->on_flow_empty(flow.tag);
  }
}

}  // namespace sgengine
