// A name the kernel gives a congestion control or a qdisc kind, as the
// hardware profile's [kernel] tcp_congestion_control and lo_qdisc hold them
// (common/loopback_tcp.h reads them; the scenario loader checks them):
// 1 to 15 characters (TCP_CA_NAME_MAX in include/net/tcp.h, and a TCA_KIND
// of IFNAMSIZ, 16 with the NUL) of a-z, 0-9, '_' and '-' ("dctcp-reno").
#pragma once
#include <string>

namespace common {

inline bool is_kernel_name(const std::string& name) {
  if (name.empty() || name.size() > 15) return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  return true;
}

}  // namespace common
