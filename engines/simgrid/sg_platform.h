// The simulated machines as SimGrid resources: the server (a host whose
// cores are the logical CPUs), the clients' machine, the server's NIC (a
// link between them) and the server's disks.
//
// Units: a core runs 1e9 flop/s, so one flop is one nanosecond of CPU time.
// The NIC link carries TCP payload at the NIC's payload rate (the native
// models::NicSpec::payload_Bps), with no latency of its own: the network's
// one-way delay is applied by the side that sends, as in the native engine.
//
// SimGrid's default network model (LV08) scales latency and bandwidth to
// match measured TCP; CM02 shares each link by plain max-min fairness,
// which on one link is exactly equal shares, as the native NIC does. A
// split-duplex link keeps the two directions apart, so nothing the clients
// send takes from the server's outbound capacity.
#pragma once
#include <simgrid/s4u/Disk.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <vector>

#include "models/scenario/scenario.h"

namespace sgengine {

constexpr double kFlopsPerSecond = 1e9;

struct Platform {
  simgrid::s4u::Host* server = nullptr;
  simgrid::s4u::Host* clients = nullptr;
  simgrid::s4u::Link* nic = nullptr;            // the server-to-clients direction
  std::vector<simgrid::s4u::Disk*> disks;       // one per drive
};

// The engine settings every run uses; call once, before the platform.
void configure_engine();
Platform build_platform(const models::HardwareSpec& hw);

}  // namespace sgengine
