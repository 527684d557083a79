// Loopback's TCP settings read from a hand-made /proc and /sys tree and
// hand-made netlink dumps: the congestion control sysctl, lo's ifindex, the
// root qdisc of that ifindex among a dump's messages (not a child qdisc, not
// another device's), and what an error, a truncated message or a device
// without a root qdisc give.
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <string>

#include "common/loopback_tcp.h"
#include "common/tests/fake_tree.h"

using common::test::FakeTree;

namespace {

void put(std::string& out, const void* p, std::size_t n) {
  out.append(static_cast<const char*>(p), n);
  out.append((4 - n % 4) % 4, '\0');  // NLMSG_ALIGN / RTA_ALIGN
}

// One RTM_NEWQDISC message as the kernel's tc_fill_qdisc() writes it: the
// header, a tcmsg, TCA_KIND with its NUL.
std::string qdisc_message(int ifindex, std::uint32_t parent, const std::string& kind) {
  std::string body;
  tcmsg t{};
  t.tcm_family = AF_UNSPEC;
  t.tcm_ifindex = ifindex;
  t.tcm_parent = parent;
  put(body, &t, sizeof t);
  rtattr a{};
  a.rta_type = TCA_KIND;
  a.rta_len = static_cast<unsigned short>(sizeof a + kind.size() + 1);
  std::string attr(reinterpret_cast<const char*>(&a), sizeof a);
  attr += kind;
  attr += '\0';
  put(body, attr.data(), attr.size());
  nlmsghdr h{};
  h.nlmsg_len = static_cast<std::uint32_t>(sizeof h + body.size());
  h.nlmsg_type = RTM_NEWQDISC;
  h.nlmsg_flags = NLM_F_MULTI;
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  return out + body;
}

std::string control_message(std::uint16_t type, int error) {
  nlmsghdr h{};
  h.nlmsg_len = static_cast<std::uint32_t>(sizeof h + sizeof error);
  h.nlmsg_type = type;
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  out.append(reinterpret_cast<const char*>(&error), sizeof error);
  return out;
}

class FakeDump final : public common::QdiscDump {
 public:
  FakeDump(std::string bytes, std::string error) : bytes_(std::move(bytes)), error_(std::move(error)) {}
  std::string dump(std::string& error) const override {
    error = error_;
    return error_.empty() ? bytes_ : "";
  }

 private:
  std::string bytes_, error_;
};

// This machine's dump, in the kernel's order: lo's noqueue, an interface's
// pfifo_fast, a child qdisc on lo under an htb.
std::string machine_dump() {
  return qdisc_message(1, TC_H_ROOT, "noqueue") + qdisc_message(4, TC_H_ROOT, "pfifo_fast") +
         qdisc_message(1, 0x10001, "fq_codel") + control_message(NLMSG_DONE, 0);
}

}  // namespace

TEST_CASE("congestion control: the sysctl's name, nothing for what is no kernel name") {
  FakeTree tree;
  const auto files = common::files_under(tree.root());
  CHECK(common::read_congestion_control(*files).empty());  // absent
  tree.write("/proc/sys/net/ipv4/tcp_congestion_control", "bbr\n");
  CHECK(common::read_congestion_control(*files) == "bbr");
  tree.write("/proc/sys/net/ipv4/tcp_congestion_control", "dctcp-reno\n");
  CHECK(common::read_congestion_control(*files) == "dctcp-reno");
  tree.write("/proc/sys/net/ipv4/tcp_congestion_control", "cubic reno\n");
  CHECK(common::read_congestion_control(*files).empty());
  tree.write("/proc/sys/net/ipv4/tcp_congestion_control", "a_name_of_16_chr\n");
  CHECK(common::read_congestion_control(*files).empty());
}

TEST_CASE("lo's ifindex: a positive number, else -1") {
  FakeTree tree;
  const auto files = common::files_under(tree.root());
  CHECK(common::read_ifindex(*files, "lo") == -1);
  tree.write("/sys/class/net/lo/ifindex", "1\n");
  CHECK(common::read_ifindex(*files, "lo") == 1);
  tree.write("/sys/class/net/lo/ifindex", "0\n");
  CHECK(common::read_ifindex(*files, "lo") == -1);
  tree.write("/sys/class/net/lo/ifindex", "-3\n");
  CHECK(common::read_ifindex(*files, "lo") == -1);
}

TEST_CASE("qdisc dump: the root qdisc of the ifindex asked, not a child's or another device's") {
  std::string error;
  CHECK(common::parse_root_qdisc(machine_dump(), 1, error) == "noqueue");
  CHECK(error.empty());
  CHECK(common::parse_root_qdisc(machine_dump(), 4, error) == "pfifo_fast");
  // A device with no root qdisc dumped (down: the built-in noop is hidden).
  CHECK(common::parse_root_qdisc(machine_dump(), 7, error).empty());
  CHECK(error.empty());
  // The child comes first: still the root's.
  const std::string child_first =
      qdisc_message(1, 0x10001, "fq_codel") + qdisc_message(1, TC_H_ROOT, "htb") + control_message(NLMSG_DONE, 0);
  CHECK(common::parse_root_qdisc(child_first, 1, error) == "htb");
}

TEST_CASE("qdisc dump: an NLMSG_ERROR, a truncated message and a kind that is no name") {
  std::string error;
  CHECK(common::parse_root_qdisc(control_message(NLMSG_ERROR, -EPERM), 1, error).empty());
  CHECK(error.find("RTM_GETQDISC") != std::string::npos);
  CHECK(error.find(std::strerror(EPERM)) != std::string::npos);
  const std::string whole = qdisc_message(1, TC_H_ROOT, "noqueue");
  CHECK(common::parse_root_qdisc(whole.substr(0, whole.size() - 6), 1, error).empty());
  CHECK(error == "a truncated netlink message");
  CHECK(common::parse_root_qdisc(qdisc_message(1, TC_H_ROOT, "No Queue"), 1, error).empty());
  CHECK(error.empty());
  CHECK(common::parse_root_qdisc("", 1, error).empty());
}

TEST_CASE("loopback TCP: both settings with their sources, or why each is missing") {
  FakeTree tree;
  const auto files = common::files_under(tree.root());
  tree.write("/proc/sys/net/ipv4/tcp_congestion_control", "bbr\n");
  tree.write("/sys/class/net/lo/ifindex", "1\n");
  const common::LoopbackTcp l = common::read_loopback_tcp(*files, FakeDump(machine_dump(), ""));
  CHECK(l.congestion_control == "bbr");
  CHECK(l.congestion_source == "/proc/sys/net/ipv4/tcp_congestion_control");
  CHECK(l.lo_qdisc == "noqueue");
  CHECK(l.qdisc_source.find("ifindex 1") != std::string::npos);
  // The socket refused.
  const common::LoopbackTcp refused =
      common::read_loopback_tcp(*files, FakeDump("", "socket(AF_NETLINK, NETLINK_ROUTE): Permission denied"));
  CHECK(refused.lo_qdisc.empty());
  CHECK(refused.qdisc_source.find("Permission denied") != std::string::npos);
  // lo down (no root qdisc dumped for it), then no lo at all.
  tree.write("/sys/class/net/lo/ifindex", "9\n");
  const common::LoopbackTcp down = common::read_loopback_tcp(*files, FakeDump(machine_dump(), ""));
  CHECK(down.lo_qdisc.empty());
  CHECK(down.qdisc_source.find("no root qdisc of lo (ifindex 9)") != std::string::npos);
  tree.remove("/sys/class/net/lo");
  tree.remove("/proc/sys/net/ipv4/tcp_congestion_control");
  const common::LoopbackTcp none = common::read_loopback_tcp(*files, FakeDump(machine_dump(), ""));
  CHECK(none.congestion_control.empty());
  CHECK(none.congestion_source.find("unreadable") != std::string::npos);
  CHECK(none.qdisc_source.find("no loopback device") != std::string::npos);
}
