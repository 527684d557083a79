// /proc/net/tcp parsing and the connection -> (worker, group) mapping, from
// fixture text, then live on loopback sockets of this process.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "testbed/realrun/placement.h"
#include "testbed/realrun/tests/loopback_listener.h"

using namespace testbed::realrun;

namespace {
// Port 20120 = 0x4E98. Client ports 50000 (C350), 50001 (C351), 50002 (C352), 50003 (C353).
const char* kTcp =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 0100007F:4E98 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1000 1 0 100 0 0 10 0\n"
    "   1: 0100007F:4E98 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2001 1 0 20 4 30 10 -1\n"
    "   2: 0100007F:C350 0100007F:4E98 01 00000000:00000000 00:00000000 00000000     0        0 3001 1 0 20 4 30 10 -1\n"
    "   3: 0100007F:4E98 0100007F:C351 01 00000000:00000000 00:00000000 00000000     0        0 2002 1 0 20 4 30 10 -1\n"
    "   4: 0100007F:C351 0100007F:4E98 01 00000000:00000000 00:00000000 00000000     0        0 3002 1 0 20 4 30 10 -1\n"
    "   5: 0100007F:4E98 0100007F:C352 01 00000000:00000000 00:00000000 00000000     0        0 2003 1 0 20 4 30 10 -1\n"
    "   6: 0100007F:C352 0100007F:4E98 01 00000000:00000000 00:00000000 00000000     0        0 3003 1 0 20 4 30 10 -1\n"
    // In the accept queue: no server-side inode yet.
    "   7: 0100007F:4E98 0100007F:C353 01 00000000:00000000 00:00000000 00000000     0        0 0 1 0 20 4 30 10 -1\n"
    "   8: 0100007F:C353 0100007F:4E98 01 00000000:00000000 00:00000000 00000000     0        0 3004 1 0 20 4 30 10 -1\n"
    // Closing, and another server's connection: ignored.
    "   9: 0100007F:4E98 0100007F:C354 06 00000000:00000000 00:00000000 00000000     0        0 0 1 0 20 4 30 10 -1\n"
    "  10: 0100007F:1F90 0100007F:C355 01 00000000:00000000 00:00000000 00000000     0        0 4000 1 0 20 4 30 10 -1\n"
    "garbage line\n";
}  // namespace

TEST_CASE("/proc/net/tcp rows", "[placement]") {
  const auto rows = parse_proc_net_tcp(kTcp);
  REQUIRE(rows.size() == 11);
  CHECK(rows[0].state == 10);
  CHECK(rows[0].local_port == 20120);
  CHECK(rows[0].local_addr == 0x0100007F);
  CHECK(rows[1].state == 1);
  CHECK(rows[1].remote_port == 50000);
  CHECK(rows[1].inode == 2001);
  CHECK(rows[7].inode == 0);
}

TEST_CASE("socket links", "[placement]") {
  CHECK(parse_socket_link("socket:[12345]") == 12345);
  CHECK(parse_socket_link("socket:[]") == 0);
  CHECK(parse_socket_link("pipe:[12345]") == 0);
  CHECK(parse_socket_link("/var/tmp/x") == 0);
  CHECK(parse_socket_link("socket:[12x]") == 0);
}

TEST_CASE("placement maps each connection to its worker and group", "[placement]") {
  // Worker 0 holds 2001, worker 1 holds 2002 and 2003; group 0 holds 3001
  // and 3002, group 1 holds 3003 and 3004 (3004 still in the accept queue).
  const std::map<std::uint64_t, std::size_t> worker{{2001, 0}, {2002, 1}, {2003, 1}, {1000, 0}};
  const std::map<std::uint64_t, std::size_t> group{{3001, 0}, {3002, 0}, {3003, 1}, {3004, 1}};
  const Placement p = compute_placement(parse_proc_net_tcp(kTcp), 20120, worker, group, 2, 2);
  REQUIRE(p.per_group.size() == 2);
  CHECK(p.per_group[0] == std::vector<std::uint32_t>{1, 1});
  CHECK(p.per_group[1] == std::vector<std::uint32_t>{0, 1});
  CHECK(p.unmatched == 1);  // the connection not yet accepted
}

TEST_CASE("a connection that /proc/net/tcp lists twice is placed once", "[placement]") {
  // Reading the table while others connect can repeat a row (the reader
  // resumes at a bucket offset); rows 1-2 again, as such a read shows them.
  const std::string twice = std::string(kTcp) +
      "  11: 0100007F:4E98 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2001 1 0 20 4 30 10 -1\n"
      "  12: 0100007F:C350 0100007F:4E98 01 00000000:00000000 00:00000000 00000000     0        0 3001 1 0 20 4 30 10 -1\n";
  const std::map<std::uint64_t, std::size_t> worker{{2001, 0}, {2002, 1}, {2003, 1}};
  const std::map<std::uint64_t, std::size_t> group{{3001, 0}, {3002, 0}, {3003, 1}, {3004, 1}};
  const Placement p = compute_placement(parse_proc_net_tcp(twice), 20120, worker, group, 2, 2);
  CHECK(p.per_group[0] == std::vector<std::uint32_t>{1, 1});
  CHECK(p.per_group[1] == std::vector<std::uint32_t>{0, 1});
  CHECK(p.unmatched == 1);
}

TEST_CASE("placement of live loopback connections held by this process", "[placement]") {
  const LoopbackListener l = listen_on_loopback(16);
  const int listener = l.fd;
  const std::uint16_t port = l.port;
  std::vector<int> fds;
  for (int i = 0; i < 3; ++i) {
    const int c = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(::connect(c, reinterpret_cast<const sockaddr*>(&l.address), sizeof l.address) == 0);
    fds.push_back(c);
    fds.push_back(::accept(listener, nullptr, nullptr));
  }
  // This process is both "worker 0" and "group 0".
  const Placement p = measure_placement(port, {::getpid()}, {::getpid()});
  CHECK(p.per_group == std::vector<std::vector<std::uint32_t>>{{3}});
  CHECK(p.unmatched == 0);
  for (int fd : fds) ::close(fd);
  ::close(listener);
}
