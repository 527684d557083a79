#include "testbed/realrun/placement.h"
#include "common/text_file.h"

#include <dirent.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace testbed::realrun {
namespace {

template <typename T>
bool hex_field(const std::string& s, T& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, 16);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "0100007F:1F90" -> address, port.
bool endpoint(const std::string& s, std::uint32_t& addr, std::uint16_t& port) {
  const std::size_t colon = s.find(':');
  if (colon == std::string::npos) return false;
  return hex_field(s.substr(0, colon), addr) && hex_field(s.substr(colon + 1), port);
}

}  // namespace

std::vector<TcpSocket> parse_proc_net_tcp(const std::string& text) {
  std::vector<TcpSocket> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
    std::istringstream f(line);
    std::string sl, local, remote, st, queues, timer, retr, uid, timeout, inode;
    if (!(f >> sl >> local >> remote >> st >> queues >> timer >> retr >> uid >> timeout >> inode)) continue;
    if (sl.empty() || sl.back() != ':') continue;  // the header line
    TcpSocket s;
    int state = 0;
    if (!endpoint(local, s.local_addr, s.local_port) || !endpoint(remote, s.remote_addr, s.remote_port) ||
        !hex_field(st, state))
      continue;
    s.state = state;
    const auto r = std::from_chars(inode.data(), inode.data() + inode.size(), s.inode);
    if (r.ec != std::errc()) continue;
    out.push_back(s);
  }
  return out;
}

std::uint64_t parse_socket_link(const std::string& link) {
  constexpr std::string_view prefix = "socket:[";
  if (link.size() < prefix.size() + 2 || link.compare(0, prefix.size(), prefix) != 0 || link.back() != ']') return 0;
  std::uint64_t inode = 0;
  const char* first = link.data() + prefix.size();
  const char* last = link.data() + link.size() - 1;
  const auto r = std::from_chars(first, last, inode);
  return r.ec == std::errc() && r.ptr == last ? inode : 0;
}

std::vector<std::uint64_t> socket_inodes(pid_t pid, const std::string& proc) {
  std::vector<std::uint64_t> out;
  const std::string dir = proc + "/" + std::to_string(pid) + "/fd";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  char target[128];
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string link = dir + "/" + e->d_name;
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    if (const std::uint64_t inode = parse_socket_link(std::string(target, static_cast<std::size_t>(n))))
      out.push_back(inode);
  }
  ::closedir(d);
  return out;
}

Placement compute_placement(const std::vector<TcpSocket>& sockets, std::uint16_t port,
                            const std::map<std::uint64_t, std::size_t>& inode_worker,
                            const std::map<std::uint64_t, std::size_t>& inode_group, std::size_t workers,
                            std::size_t groups) {
  constexpr int kEstablished = 1;
  Placement p;
  p.per_group.assign(groups, std::vector<std::uint32_t>(workers, 0));
  // Client sides by their endpoint pair (client address:port, server address).
  std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint32_t>, std::uint64_t> client_inode;
  for (const auto& s : sockets)
    if (s.state == kEstablished && s.remote_port == port && s.local_port != port)
      client_inode[{s.local_addr, s.local_port, s.remote_addr}] = s.inode;
  // /proc/net/tcp is read a page at a time while the hash table changes
  // (tcp4_seq_show() resumes from a bucket and offset after each read), so
  // a socket can be listed twice while others connect or close: count each
  // connection, named by its endpoints, once.
  std::set<std::tuple<std::uint32_t, std::uint16_t, std::uint32_t, std::uint16_t>> counted;
  for (const auto& s : sockets) {
    if (s.state != kEstablished || s.local_port != port) continue;
    if (!counted.insert({s.local_addr, s.local_port, s.remote_addr, s.remote_port}).second) continue;
    const auto w = inode_worker.find(s.inode);
    const auto c = client_inode.find({s.remote_addr, s.remote_port, s.local_addr});
    const auto g = c == client_inode.end() ? inode_group.end() : inode_group.find(c->second);
    if (w == inode_worker.end() || g == inode_group.end() || w->second >= workers || g->second >= groups) {
      ++p.unmatched;
      continue;
    }
    ++p.per_group[g->second][w->second];
  }
  return p;
}

Placement measure_placement(std::uint16_t port, const std::vector<pid_t>& workers,
                            const std::vector<pid_t>& group_pids, const std::string& proc) {
  std::map<std::uint64_t, std::size_t> inode_worker, inode_group;
  for (std::size_t i = 0; i < workers.size(); ++i)
    for (auto inode : socket_inodes(workers[i], proc)) inode_worker[inode] = i;
  for (std::size_t i = 0; i < group_pids.size(); ++i)
    for (auto inode : socket_inodes(group_pids[i], proc)) inode_group[inode] = i;
  // The sockets after the fd tables: a connection made in between is
  // unmatched rather than wrongly placed.
  return compute_placement(parse_proc_net_tcp(common::read_text(proc + "/net/tcp")), port, inode_worker, inode_group,
                           workers.size(), group_pids.size());
}

std::vector<std::uint32_t> placed_per_group(const Placement& p) {
  std::vector<std::uint32_t> out;
  for (const auto& g : p.per_group) {
    std::uint32_t n = 0;
    for (auto c : g) n += c;
    out.push_back(n);
  }
  return out;
}

Placement measure_complete_placement(std::uint16_t port, const std::vector<pid_t>& workers,
                                     const std::vector<pid_t>& group_pids, const std::vector<std::uint32_t>& expected,
                                     int attempts, double gap_s) {
  Placement best;
  std::uint64_t best_placed = 0;
  for (int i = 0; i < attempts; ++i) {
    Placement p = measure_placement(port, workers, group_pids);
    const auto placed = placed_per_group(p);
    if (placed == expected) return p;
    std::uint64_t total = 0;
    for (auto n : placed) total += n;
    if (i == 0 || total > best_placed) {
      best = std::move(p);
      best_placed = total;
    }
    ::usleep(static_cast<useconds_t>(gap_s * 1e6));
  }
  return best;
}

}  // namespace testbed::realrun
