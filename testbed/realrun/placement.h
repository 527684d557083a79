// Which worker holds each of a wrk group's connections: the established TCP
// sockets in /proc/net/tcp, each side's inode mapped to the process holding
// it through /proc/<pid>/fd ("socket:[inode]" links). Faster than running
// `ss -tp` every time, and nothing to parse but two kernel formats.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace testbed::realrun {

struct TcpSocket {
  std::uint32_t local_addr = 0, remote_addr = 0;  // as the kernel prints them (network order read as hex)
  std::uint16_t local_port = 0, remote_port = 0;
  int state = 0;                                  // 1: ESTABLISHED, 10: LISTEN
  std::uint64_t inode = 0;                        // 0: no file (not yet accepted, or closing)
};

// The rows of /proc/net/tcp (the header line and malformed rows skipped).
std::vector<TcpSocket> parse_proc_net_tcp(const std::string& text);

// "socket:[12345]" -> 12345; 0 for any other link.
std::uint64_t parse_socket_link(const std::string& link);

// The socket inodes process `pid` holds open (empty if it is gone).
std::vector<std::uint64_t> socket_inodes(pid_t pid, const std::string& proc = "/proc");

struct Placement {
  std::vector<std::vector<std::uint32_t>> per_group;  // [group][worker]: connections
  std::uint32_t unmatched = 0;  // established server-side connections no worker or group was found for
};

// Established connections to `port`: the server side's inode names the
// worker (inode_worker), the client side's (same addresses, ports swapped)
// names the group (inode_group).
Placement compute_placement(const std::vector<TcpSocket>& sockets, std::uint16_t port,
                            const std::map<std::uint64_t, std::size_t>& inode_worker,
                            const std::map<std::uint64_t, std::size_t>& inode_group, std::size_t workers,
                            std::size_t groups);

// The whole measurement on the live system.
Placement measure_placement(std::uint16_t port, const std::vector<pid_t>& workers,
                            const std::vector<pid_t>& group_pids, const std::string& proc = "/proc");

// Connections come and go (keepalive_requests closes them, wrk reconnects):
// one look may miss a few. Looks up to `attempts` times, `gap_s` apart,
// until every group has `expected[g]` connections placed; else the most
// complete look.
Placement measure_complete_placement(std::uint16_t port, const std::vector<pid_t>& workers,
                                     const std::vector<pid_t>& group_pids, const std::vector<std::uint32_t>& expected,
                                     int attempts = 20, double gap_s = 0.005);
// Connections placed, per group.
std::vector<std::uint32_t> placed_per_group(const Placement& p);

}  // namespace testbed::realrun
