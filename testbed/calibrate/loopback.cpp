#include "testbed/calibrate/loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "testbed/calibrate/interrupt.h"

namespace testbed::calibrate {

namespace {
using Clock = std::chrono::steady_clock;

// A connected pair of TCP sockets over 127.0.0.1.
class SocketPair {
 public:
  SocketPair() {
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener < 0 || bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listener, 1) != 0 ||
        getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      if (listener >= 0) close(listener);
      throw std::runtime_error("loopback: cannot listen on 127.0.0.1");
    }
    client_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (client_ < 0 || connect(client_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      close(listener);
      throw std::runtime_error("loopback: cannot connect to 127.0.0.1");
    }
    server_ = accept(listener, nullptr, nullptr);
    close(listener);
    if (server_ < 0) throw std::runtime_error("loopback: accept failed");
    const int one = 1;
    setsockopt(client_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(server_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~SocketPair() {
    close(client_);
    if (server_ >= 0) close(server_);
  }
  int client() const { return client_; }
  int server() const { return server_; }
  void shutdown_client() { shutdown(client_, SHUT_WR); }

 private:
  int client_ = -1, server_ = -1;
};

bool read_exact(int fd, char* buf, std::size_t n) {
  while (n > 0) {
    const ssize_t r = read(fd, buf, n);
    if (r <= 0) return false;
    buf += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}
}  // namespace

PingPongResult loopback_ping_pong(std::uint64_t round_trips) {
  SocketPair pair;
  std::thread echo([fd = pair.server()] {
    char c;
    while (read(fd, &c, 1) == 1)
      if (write(fd, &c, 1) != 1) break;
  });
  std::vector<double> rtt;
  rtt.reserve(round_trips);
  const std::uint64_t warmup = std::min<std::uint64_t>(1000, round_trips / 10);
  char c = 'p';
  bool ok = true;
  for (std::uint64_t i = 0; i < warmup + round_trips && ok && !interrupted(); ++i) {
    const auto t0 = Clock::now();
    ok = write(pair.client(), &c, 1) == 1 && read_exact(pair.client(), &c, 1);
    const auto t1 = Clock::now();
    if (i >= warmup) rtt.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  pair.shutdown_client();
  echo.join();
  throw_if_interrupted();
  if (!ok || rtt.empty()) throw std::runtime_error("loopback ping-pong failed");
  std::sort(rtt.begin(), rtt.end());
  PingPongResult r;
  r.round_trips = rtt.size();
  r.median_rtt_s = rtt.size() % 2 ? rtt[rtt.size() / 2] : 0.5 * (rtt[rtt.size() / 2 - 1] + rtt[rtt.size() / 2]);
  r.p99_rtt_s = rtt[std::min(rtt.size() - 1, rtt.size() * 99 / 100)];
  return r;
}

BandwidthResult loopback_bandwidth(double seconds) {
  SocketPair pair;
  std::atomic<std::uint64_t> received{0};
  std::thread receiver([&, fd = pair.server()] {
    std::vector<char> buf(1 << 20);
    ssize_t r;
    while ((r = read(fd, buf.data(), buf.size())) > 0) received.fetch_add(static_cast<std::uint64_t>(r));
  });
  const std::vector<char> buf(1 << 20, 'b');
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration<double>(seconds);
  // Count what the receiver got between two instants, not what was queued.
  const auto measure_from = start + std::chrono::duration<double>(std::min(0.2, seconds / 5));
  std::uint64_t at_from = 0;
  bool from_taken = false;
  Clock::time_point from_time;
  while (Clock::now() < end && !interrupted()) {
    if (write(pair.client(), buf.data(), buf.size()) <= 0) break;
    if (!from_taken && Clock::now() >= measure_from) {
      from_taken = true;
      from_time = Clock::now();
      at_from = received.load();
    }
  }
  const auto stop_time = Clock::now();
  const std::uint64_t at_stop = received.load();
  pair.shutdown_client();
  receiver.join();
  throw_if_interrupted();
  BandwidthResult b;
  if (!from_taken) {
    from_time = start;
    at_from = 0;
  }
  b.bytes = at_stop - at_from;
  b.seconds = std::chrono::duration<double>(stop_time - from_time).count();
  b.bytes_per_s = b.seconds > 0 ? static_cast<double>(b.bytes) / b.seconds : 0;
  return b;
}

}  // namespace testbed::calibrate
