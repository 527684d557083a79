// The running kernel's loopback TCP beside the one the prediction's CPU
// costs were measured under. On loopback the congestion control and lo's
// qdisc move the CPU a request costs (models/os/tcp_pacing.h: bbr on noqueue
// paces with hrtimers and TSQ round trips; measured on the project's machine,
// 2026-11-27, the blocking/threads pair: 2.68 ms of server and wrk CPU per
// 4 MiB request under bbr against 1.91 ms under cubic), and the hardware
// profile's [cpu] costs hold only under its [kernel] tcp_congestion_control
// and lo_qdisc. `clerk realrun` prints the running kernel's in each
// scenario's header line, writes them to its JSON, and warns (a warning,
// not an error: the comparison still runs) when they differ from the
// profile's.
#pragma once
#include <string>

#include "common/loopback_tcp.h"
#include "models/os/host.h"

namespace testbed {

// "bbr on lo's noqueue (paced by TCP itself ...)", "unknown" for what is not known.
std::string describe_loopback_tcp(const std::string& congestion_control, const std::string& lo_qdisc);

// "" when the running kernel's congestion control and lo qdisc are the
// profile's, or neither side says (a key the profile leaves out, or the
// running kernel's unreadable, is not compared); else one line naming both.
std::string loopback_tcp_warning(const models::KernelSpec& profile, const common::LoopbackTcp& running);

}  // namespace testbed
