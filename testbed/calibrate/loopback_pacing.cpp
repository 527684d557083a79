#include "testbed/calibrate/loopback_pacing.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "common/proc_stat.h"
#include "testbed/calibrate/cache_fill.h"
#include "testbed/calibrate/interrupt.h"

namespace testbed::calibrate {

namespace {

constexpr unsigned kWarmupRounds = 20;     // before the measured ones: slow start, BBR's startup
constexpr std::size_t kReadBuffer = 8192;  // wrk's RECVBUF (src/wrk.h)
constexpr int kEpollTimeoutMs = 10000;     // a round that long is a stuck connection

double monotonic_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

class Fd {
 public:
  explicit Fd(int fd, const char* what) : fd_(fd) {
    if (fd_ < 0) throw std::runtime_error(fmt::format("pacing: {}: {}", what, std::strerror(errno)));
  }
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd& operator=(Fd&&) = delete;
  int get() const { return fd_; }
  // Closes it now with a reset (SO_LINGER 0): the peer's calls fail at once.
  void reset() {
    const linger l{1, 0};
    setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(fmt::format("pacing: {}: {}", what, std::strerror(errno)));
}

// ENOENT: the kernel has no such module (tcp_available_congestion_control);
// EPERM: it is not in tcp_allowed_congestion_control and the process lacks
// CAP_NET_ADMIN (tcp_set_congestion_control's check).
void set_congestion_control(int fd, const std::string& cc) {
  if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc.data(), static_cast<socklen_t>(cc.size())) == 0) return;
  const int e = errno;
  const char* hint = e == EPERM    ? " (not in /proc/sys/net/ipv4/tcp_allowed_congestion_control: run as root)"
                     : e == ENOENT ? " (not in /proc/sys/net/ipv4/tcp_available_congestion_control: is its module loaded?)"
                                   : "";
  throw std::runtime_error(
      fmt::format("pacing: setsockopt(TCP_CONGESTION, \"{}\"): {}{}", cc, std::strerror(e), hint));
}

void set_nonblocking(int fd) { check(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0, "fcntl(O_NONBLOCK)"); }

tcp_info socket_info(int fd) {
  tcp_info info{};
  socklen_t len = sizeof info;
  check(getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0, "getsockopt(TCP_INFO)");
  return info;
}

// The response's bytes: a memory file of one response, read by sendfile()
// from the page cache (shmem) as NGINX reads a cached file.
Fd response_file(std::uint64_t bytes) {
  Fd f(memfd_create("clerk-pacing", MFD_CLOEXEC), "memfd_create");
  check(ftruncate(f.get(), static_cast<off_t>(bytes)) == 0, "ftruncate");
  std::vector<char> block(1 << 16, 'x');
  for (std::uint64_t done = 0; done < bytes;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), bytes - done));
    const ssize_t w = pwrite(f.get(), block.data(), n, static_cast<off_t>(done));
    check(w > 0, "pwrite");
    done += static_cast<std::uint64_t>(w);
  }
  return f;
}

// Waits on one socket in its own epoll instance for `events`.
class Waiter {
 public:
  Waiter(int sock, std::uint32_t events) : ep_(epoll_create1(EPOLL_CLOEXEC), "epoll_create1"), sock_(sock) {
    epoll_event ev{};
    ev.events = events;
    check(epoll_ctl(ep_.get(), EPOLL_CTL_ADD, sock_, &ev) == 0, "epoll_ctl(ADD)");
  }
  void wait(std::uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    check(epoll_ctl(ep_.get(), EPOLL_CTL_MOD, sock_, &ev) == 0, "epoll_ctl(MOD)");
    epoll_event got{};
    int n;
    do n = epoll_wait(ep_.get(), &got, 1, kEpollTimeoutMs);
    while (n < 0 && errno == EINTR);
    check(n >= 0, "epoll_wait");
    if (n == 0) throw std::runtime_error("pacing: no event on the loopback connection for 10 s");
  }

 private:
  Fd ep_;
  int sock_;
};

struct SenderFigures {
  double cpu_s = 0;
  std::uint64_t segs_out = 0, epollout_waits = 0;
  tcp_info end{};
  std::string error;
  std::atomic<bool> failed_first{false};  // the sender failed before the receiver did
};

// One response by sendfile() calls of at most `chunk` bytes; EAGAIN waits
// for EPOLLOUT. Returns the waits.
std::uint64_t send_response(int sock, int file, const PacingSpec& spec, Waiter& w) {
  std::uint64_t waits = 0;
  for (std::uint64_t sent = 0; sent < spec.response;) {
    off_t at = static_cast<off_t>(sent);
    const std::size_t want = static_cast<std::size_t>(std::min(spec.chunk, spec.response - sent));
    const ssize_t n = sendfile(sock, file, &at, want);
    if (n > 0) {
      sent += static_cast<std::uint64_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      ++waits;
      w.wait(EPOLLOUT);
    } else {
      check(false, "sendfile");
    }
  }
  return waits;
}

// Answers requests until the receiver closes; the figures cover the
// requests after the warm-up.
void sender_loop(int sock, int file, const PacingSpec& spec, SenderFigures& out) {
  try {
    Waiter w(sock, EPOLLIN);
    double cpu_start = 0;
    std::uint64_t segs_start = 0;
    for (unsigned request = 0;; ++request) {
      char byte = 0;
      ssize_t n;
      while ((n = read(sock, &byte, 1)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) w.wait(EPOLLIN);
      check(n >= 0, "read (sender)");
      if (n == 0) break;  // the receiver is done
      if (request == kWarmupRounds) {
        cpu_start = thread_cpu_s();
        segs_start = socket_info(sock).tcpi_segs_out;
      }
      const std::uint64_t waits = send_response(sock, file, spec, w);
      if (request >= kWarmupRounds) out.epollout_waits += waits;
    }
    out.cpu_s = thread_cpu_s() - cpu_start;
    out.end = socket_info(sock);
    out.segs_out = out.end.tcpi_segs_out - segs_start;
  } catch (const std::exception& e) {
    out.error = e.what();
    out.failed_first = true;    // set before the shutdown the receiver sees
    shutdown(sock, SHUT_RDWR);  // the receiver sees it at once
  }
}

// The receiver's side of one round: the request, then reads until the
// whole response is in.
void receive_round(int sock, const PacingSpec& spec, Waiter& w, std::vector<char>& buf) {
  const char request = 'r';
  check(write(sock, &request, 1) == 1, "write (receiver)");
  for (std::uint64_t got = 0; got < spec.response;) {
    const ssize_t n = read(sock, buf.data(), buf.size());
    if (n > 0) {
      got += static_cast<std::uint64_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      w.wait(EPOLLIN);
    } else {
      throw std::runtime_error(n == 0 ? "pacing: the sender closed the connection" : std::string("pacing: read: ") + std::strerror(errno));
    }
  }
}

struct Pair {
  Fd client, server;
};

Pair connected_pair(const std::string& cc) {
  Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), "socket");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  check(bind(listener.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && listen(listener.get(), 1) == 0 &&
            getsockname(listener.get(), reinterpret_cast<sockaddr*>(&a), &len) == 0,
        "listen on 127.0.0.1");
  Fd client(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), "socket");
  set_congestion_control(client.get(), cc);
  check(connect(client.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) == 0, "connect");
  Fd server(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC), "accept4");
  set_congestion_control(server.get(), cc);
  set_nonblocking(client.get());
  set_nonblocking(server.get());
  return Pair{std::move(client), std::move(server)};
}

std::string read_softirqs() {
  std::ifstream f("/proc/softirqs");
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

PacingPerResponse per_response(const PacingRun& r) {
  PacingPerResponse p;
  const double n = r.spec.rounds > 0 ? static_cast<double>(r.spec.rounds) : 1.0;
  p.wall_us = r.wall_s / n * 1e6;
  p.sender_us = r.sender_cpu_s / n * 1e6;
  p.receiver_us = r.receiver_cpu_s / n * 1e6;
  p.machine_us = r.machine_busy_s / n * 1e6;
  p.elsewhere_us = std::max(0.0, p.machine_us - p.sender_us - p.receiver_us);
  p.segs = static_cast<double>(r.segs_out) / n;
  p.epollout_waits = static_cast<double>(r.epollout_waits) / n;
  p.hrtimer_softirqs = static_cast<double>(r.hrtimer_softirqs) / n;
  p.net_rx_softirqs = static_cast<double>(r.net_rx_softirqs) / n;
  return p;
}

PacingRun pacing_run(const PacingSpec& spec) {
  if (spec.response == 0 || spec.chunk == 0 || spec.rounds == 0)
    throw std::runtime_error("pacing: response, chunk and rounds must be above 0");
  PacingRun run;
  run.spec = spec;
  Fd file = response_file(spec.response);
  Pair pair = connected_pair(spec.congestion_control);
  SenderFigures sender;
  std::thread t([&] { sender_loop(pair.server.get(), file.get(), spec, sender); });
  std::exception_ptr failure;  // Interrupted is no std::exception: every kind, so that the thread is joined
  try {
    Waiter w(pair.client.get(), EPOLLIN);
    std::vector<char> buf(kReadBuffer);
    for (unsigned i = 0; i < kWarmupRounds; ++i) receive_round(pair.client.get(), spec, w, buf);
    const std::string softirqs0 = read_softirqs();
    const double busy0 = machine_busy_s(), cpu0 = thread_cpu_s(), wall0 = monotonic_s();
    for (unsigned i = 0; i < spec.rounds; ++i) {
      if (i % 64 == 0) throw_if_interrupted();
      receive_round(pair.client.get(), spec, w, buf);
    }
    run.wall_s = monotonic_s() - wall0;
    run.receiver_cpu_s = thread_cpu_s() - cpu0;
    run.machine_busy_s = machine_busy_s() - busy0;
    const std::string softirqs1 = read_softirqs();
    run.hrtimer_softirqs = common::softirqs_between(common::parse_softirq_counts(softirqs0, "HRTIMER"),
                                                    common::parse_softirq_counts(softirqs1, "HRTIMER"));
    run.net_rx_softirqs = common::softirqs_between(common::parse_softirq_counts(softirqs0, "NET_RX"),
                                                   common::parse_softirq_counts(softirqs1, "NET_RX"));
  } catch (...) {
    failure = std::current_exception();
  }
  if (!failure)
    shutdown(pair.client.get(), SHUT_WR);  // end of file: the sender's loop ends
  else
    pair.client.reset();  // the sender may wait for EPOLLOUT: a reset ends that too
  t.join();
  // When the sender failed first, its error says more than the receiver's
  // "closed"; when the receiver did, the reset made the sender fail too.
  if (sender.failed_first && !interrupted()) throw std::runtime_error(sender.error);
  if (failure) std::rethrow_exception(failure);
  if (!sender.error.empty()) throw std::runtime_error(sender.error);
  run.sender_cpu_s = sender.cpu_s;
  run.segs_out = sender.segs_out;
  run.epollout_waits = sender.epollout_waits;
  run.pacing_rate_Bps = static_cast<double>(sender.end.tcpi_pacing_rate);
  run.cwnd = sender.end.tcpi_snd_cwnd;
  run.mss = sender.end.tcpi_snd_mss;
  return run;
}

PacingComparison compare_pacing(const PacingSpec& spec, unsigned runs, const std::string& unpaced_cc,
                                const std::string& paced_cc) {
  PacingComparison c;
  for (unsigned i = 0; i < runs; ++i) {
    PacingSpec unpaced = spec, paced = spec;
    unpaced.congestion_control = unpaced_cc;
    paced.congestion_control = paced_cc;
    c.unpaced.push_back(pacing_run(unpaced));
    throw_if_interrupted();
    c.paced.push_back(pacing_run(paced));
    throw_if_interrupted();
  }
  return c;
}

namespace {

std::string run_line(const PacingRun& r) {
  const PacingPerResponse p = per_response(r);
  return fmt::format("{:<6} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>7.1f} {:>7.2f} {:>7.1f} {:>7.1f} {:>9.2f} {:>5} {:>6}\n",
                     r.spec.congestion_control, p.wall_us, p.sender_us, p.receiver_us, p.machine_us, p.elsewhere_us,
                     p.segs, p.epollout_waits, p.hrtimer_softirqs, p.net_rx_softirqs, r.pacing_rate_Bps / 1e9, r.cwnd,
                     r.mss);
}

struct Medians {
  double wall = 0, sender = 0, receiver = 0, machine = 0, elsewhere = 0, segs = 0;
};

Medians medians(const std::vector<PacingRun>& runs) {
  std::vector<double> wall, sender, receiver, machine, elsewhere, segs;
  for (const PacingRun& r : runs) {
    const PacingPerResponse p = per_response(r);
    wall.push_back(p.wall_us);
    sender.push_back(p.sender_us);
    receiver.push_back(p.receiver_us);
    machine.push_back(p.machine_us);
    elsewhere.push_back(p.elsewhere_us);
    segs.push_back(p.segs);
  }
  return Medians{median(wall), median(sender), median(receiver), median(machine), median(elsewhere), median(segs)};
}

}  // namespace

double pacing_machine_per_byte_s(const PacingComparison& c) {
  if (c.unpaced.empty() || c.paced.empty()) return 0;
  const double bytes = static_cast<double>(c.unpaced.front().spec.response);
  return std::max(0.0, (medians(c.paced).machine - medians(c.unpaced).machine) * 1e-6 / bytes);
}

std::string pacing_report(const PacingComparison& c) {
  if (c.unpaced.empty() || c.paced.empty()) return "pacing: no runs\n";
  const PacingSpec& s = c.unpaced.front().spec;
  std::string out = fmt::format(
      "loopback pacing: {} responses of {} bytes a run, sendfile() calls of at most {} bytes (per response, us):\n"
      "{:<6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7} {:>9} {:>5} {:>6}\n",
      s.rounds, s.response, s.chunk, "cc", "wall", "sender", "receiver", "machine", "elsewhere", "segs", "EAGAIN",
      "HRTIMER", "NET_RX", "rate GB/s", "cwnd", "mss");
  for (std::size_t i = 0; i < std::max(c.unpaced.size(), c.paced.size()); ++i) {
    if (i < c.unpaced.size()) out += run_line(c.unpaced[i]);
    if (i < c.paced.size()) out += run_line(c.paced[i]);
  }
  const Medians u = medians(c.unpaced), p = medians(c.paced);
  const double bytes = static_cast<double>(s.response);
  out += fmt::format(
      "medians: wall {:.1f} -> {:.1f} us, machine busy {:.1f} -> {:.1f} us ({} -> {})\n"
      "paced over unpaced, per byte: machine {:.4f} ns (sender {:.4f}, receiver {:.4f}, elsewhere {:.4f}); "
      "segments {:.1f} -> {:.1f} a response\n",
      u.wall, p.wall, u.machine, p.machine, c.unpaced.front().spec.congestion_control,
      c.paced.front().spec.congestion_control, (p.machine - u.machine) / bytes * 1e3, (p.sender - u.sender) / bytes * 1e3,
      (p.receiver - u.receiver) / bytes * 1e3, (p.elsewhere - u.elsewhere) / bytes * 1e3, u.segs, p.segs);
  return out;
}

}  // namespace testbed::calibrate
