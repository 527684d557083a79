// The two settings that shape TCP on loopback, as this machine has them:
// the congestion control new sockets get and the root qdisc of `lo`
// (models/os/tcp_pacing.h says what they decide: whether TCP paces). `clerk
// calibrate` records them in the hardware profile beside the CPU costs they
// were measured under; `clerk realrun` reports the running kernel's and warns
// when they differ from the profile's.
//
//   congestion control  /proc/sys/net/ipv4/tcp_congestion_control: the
//                       default of this network namespace's new sockets
//                       (tcp_assign_congestion_control()); an accepted
//                       socket inherits its listener's. NGINX and wrk set no
//                       TCP_CONGESTION, so both ends of every connection use
//                       it (a route's `congctl` could override it; clerk's
//                       runs add none).
//   lo's root qdisc     the kind (TCA_KIND) of the qdisc whose parent is
//                       TC_H_ROOT on lo's ifindex (/sys/class/net/lo/ifindex),
//                       from an RTM_GETQDISC dump over NETLINK_ROUTE: what
//                       `tc qdisc show dev lo` prints, without running tc.
//                       sysfs and /proc show no qdisc. A device that is down
//                       holds the built-in noop qdisc, which dumps hide
//                       (TCQ_F_BUILTIN: tc_qdisc_dump_ignore()).
#pragma once
#include <string>

#include "common/kernel_name.h"
#include "common/proc_files.h"

namespace common {

struct LoopbackTcp {
  std::string congestion_control;  // "bbr"; "" when unreadable
  std::string lo_qdisc;            // "noqueue"; "" when unreadable
  std::string congestion_source;   // the file, or why it could not be read
  std::string qdisc_source;        // the dump and ifindex, or why it could not be read
};

// The netlink messages of an RTM_GETQDISC dump, as recv() returned them.
class QdiscDump {
 public:
  virtual ~QdiscDump() = default;
  // The bytes; "" and `error` set when the dump failed.
  virtual std::string dump(std::string& error) const = 0;
};

// This machine's dump: a NETLINK_ROUTE socket, one RTM_GETQDISC request
// with NLM_F_DUMP, every reply up to NLMSG_DONE.
const QdiscDump& netlink_qdisc_dump();

// The readers, each on its own input.
std::string read_congestion_control(const ProcFiles& files);  // "" if absent or not a kernel name
int read_ifindex(const ProcFiles& files, const std::string& device);  // -1 if absent or malformed
// The root qdisc's kind of `ifindex` in `dump`, "" if none is there; a
// malformed message ends the reading. `error` says what went wrong (an
// NLMSG_ERROR's errno, a truncated message), "" otherwise.
std::string parse_root_qdisc(const std::string& dump, int ifindex, std::string& error);

LoopbackTcp read_loopback_tcp(const ProcFiles& files, const QdiscDump& qdiscs);
// This machine's (files_under("") and netlink_qdisc_dump()).
LoopbackTcp this_loopback_tcp();

}  // namespace common
