#include "common/loopback_tcp.h"

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fmt/format.h>
#include <system_error>

#include "common/number_text.h"
#include "common/unique_fd.h"

namespace common {
namespace {

constexpr std::size_t kHeader = NLMSG_ALIGN(sizeof(nlmsghdr));
constexpr std::size_t kTcmsg = NLMSG_ALIGN(sizeof(tcmsg));
constexpr std::size_t kMaxDumpBytes = 16u << 20;  // far beyond any machine's qdiscs

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

std::size_t aligned(std::size_t n) { return (n + NLMSG_ALIGNTO - 1) & ~static_cast<std::size_t>(NLMSG_ALIGNTO - 1); }

// The header of the message at `pos`, false when fewer bytes remain than it
// says it holds (or than a header).
bool message_at(const std::string& bytes, std::size_t pos, nlmsghdr& h) {
  if (bytes.size() - pos < sizeof h) return false;
  std::memcpy(&h, bytes.data() + pos, sizeof h);
  return h.nlmsg_len >= sizeof h && h.nlmsg_len <= bytes.size() - pos;
}

// errno of an NLMSG_ERROR message (0: an acknowledgement), as text.
std::string netlink_error(const std::string& bytes, std::size_t pos, const nlmsghdr& h) {
  int err = 0;
  if (h.nlmsg_len < kHeader + sizeof err) return "a truncated NLMSG_ERROR";
  std::memcpy(&err, bytes.data() + pos + kHeader, sizeof err);
  if (err == 0) return "";
  const int code = err < 0 && err != INT_MIN ? -err : err;
  return "RTM_GETQDISC: " + std::generic_category().message(code);
}

// TCA_KIND among the attributes in [pos, end), "" if absent or not a name.
std::string kind_attribute(const std::string& bytes, std::size_t pos, std::size_t end) {
  while (end - pos >= sizeof(rtattr)) {
    rtattr a{};
    std::memcpy(&a, bytes.data() + pos, sizeof a);
    if (a.rta_len < sizeof a || a.rta_len > end - pos) return "";
    if (a.rta_type == TCA_KIND) {
      std::string kind(bytes.data() + pos + sizeof a, a.rta_len - sizeof a);
      kind = kind.substr(0, kind.find('\0'));
      return is_kernel_name(kind) ? kind : "";
    }
    const std::size_t step = aligned(a.rta_len);
    if (step > end - pos) return "";
    pos += step;
  }
  return "";
}

// Whether a received chunk holds the dump's end (NLMSG_DONE or an error).
bool ends_dump(const std::string& chunk) {
  for (std::size_t pos = 0; pos < chunk.size();) {
    nlmsghdr h{};
    if (!message_at(chunk, pos, h)) return true;  // malformed: stop reading, the parser says why
    if (h.nlmsg_type == NLMSG_DONE || h.nlmsg_type == NLMSG_ERROR) return true;
    pos += aligned(h.nlmsg_len);
  }
  return false;
}

class NetlinkQdiscDump final : public QdiscDump {
 public:
  std::string dump(std::string& error) const override {
    error.clear();
    UniqueFd fd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE));
    if (!fd.valid()) return fail(error, "socket(AF_NETLINK, NETLINK_ROUTE)");
    // Never wait for ever on a kernel that does not answer.
    const timeval timeout{2, 0};
    if (::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0)
      return fail(error, "setsockopt(SO_RCVTIMEO)");
    struct {
      nlmsghdr h;
      tcmsg t;
    } request{};
    request.h.nlmsg_len = static_cast<__u32>(kHeader + sizeof(tcmsg));
    request.h.nlmsg_type = RTM_GETQDISC;
    request.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    request.h.nlmsg_seq = 1;
    request.t.tcm_family = AF_UNSPEC;
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd.get(), &request, request.h.nlmsg_len, 0, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel) < 0)
      return fail(error, "sendto(RTM_GETQDISC)");
    std::string out;
    std::string chunk(65536, '\0');
    while (out.size() < kMaxDumpBytes) {
      const ssize_t n = ::recv(fd.get(), chunk.data(), chunk.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return fail(error, "recv(NETLINK_ROUTE)");
      if (n == 0) break;
      const std::string got = chunk.substr(0, static_cast<std::size_t>(n));
      out += got;
      if (ends_dump(got)) return out;
    }
    error = "the RTM_GETQDISC dump did not end";
    return out;
  }

 private:
  static std::string fail(std::string& error, const char* call) {
    error = fmt::format("{}: {}", call, std::generic_category().message(errno));
    return "";
  }
};

}  // namespace

const QdiscDump& netlink_qdisc_dump() {
  static const NetlinkQdiscDump dump;
  return dump;
}

std::string read_congestion_control(const ProcFiles& files) {
  const std::string name = trimmed(files.read("/proc/sys/net/ipv4/tcp_congestion_control"));
  return is_kernel_name(name) ? name : "";
}

int read_ifindex(const ProcFiles& files, const std::string& device) {
  const auto index = number_text<int>(trimmed(files.read("/sys/class/net/" + device + "/ifindex")));
  return index && *index > 0 ? *index : -1;
}

std::string parse_root_qdisc(const std::string& dump, int ifindex, std::string& error) {
  error.clear();
  for (std::size_t pos = 0; pos < dump.size();) {
    nlmsghdr h{};
    if (!message_at(dump, pos, h)) {
      error = "a truncated netlink message";
      return "";
    }
    if (h.nlmsg_type == NLMSG_DONE) return "";
    if (h.nlmsg_type == NLMSG_ERROR) {
      error = netlink_error(dump, pos, h);
      if (!error.empty()) return "";
    }
    tcmsg t{};
    if (h.nlmsg_type == RTM_NEWQDISC && h.nlmsg_len >= kHeader + sizeof t) {
      std::memcpy(&t, dump.data() + pos + kHeader, sizeof t);
      if (t.tcm_ifindex == ifindex && t.tcm_parent == TC_H_ROOT && h.nlmsg_len >= kHeader + kTcmsg)
        return kind_attribute(dump, pos + kHeader + kTcmsg, pos + h.nlmsg_len);
    }
    const std::size_t step = aligned(h.nlmsg_len);
    if (step > dump.size() - pos) break;  // the last message, unpadded
    pos += step;
  }
  return "";
}

LoopbackTcp read_loopback_tcp(const ProcFiles& files, const QdiscDump& qdiscs) {
  LoopbackTcp l;
  const std::string cc_file = "/proc/sys/net/ipv4/tcp_congestion_control";
  l.congestion_control = read_congestion_control(files);
  l.congestion_source = l.congestion_control.empty() ? cc_file + " unreadable or not a congestion control's name" : cc_file;
  const int index = read_ifindex(files, "lo");
  if (index < 0) {
    l.qdisc_source = "/sys/class/net/lo/ifindex unreadable: no loopback device";
    return l;
  }
  std::string error;
  const std::string bytes = qdiscs.dump(error);
  if (error.empty()) l.lo_qdisc = parse_root_qdisc(bytes, index, error);
  if (!error.empty())
    l.qdisc_source = "netlink RTM_GETQDISC dump failed: " + error;
  else if (l.lo_qdisc.empty())
    l.qdisc_source = fmt::format("no root qdisc of lo (ifindex {}) in the RTM_GETQDISC dump: lo down?", index);
  else
    l.qdisc_source = fmt::format("the root qdisc (TCA_KIND) of lo, ifindex {} (/sys/class/net/lo/ifindex), "
                                 "in a netlink RTM_GETQDISC dump, as `tc qdisc show dev lo`",
                                 index);
  return l;
}

LoopbackTcp this_loopback_tcp() { return read_loopback_tcp(*files_under(""), netlink_qdisc_dump()); }

}  // namespace common
