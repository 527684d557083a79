#include "testbed/calibrate/herd.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <thread>
#include <vector>

#include "testbed/calibrate/interrupt.h"

namespace testbed::calibrate {

namespace {
double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};
}  // namespace

double herd_wakeup_s(const HerdRun& one, const HerdRun& many) {
  if (many.acceptors <= one.acceptors || one.connections == 0 || many.connections == 0) return 0;
  const double per_one = one.acceptors_cpu_s / static_cast<double>(one.connections);
  const double per_many = many.acceptors_cpu_s / static_cast<double>(many.connections);
  const double v = (per_many - per_one) / static_cast<double>(many.acceptors - one.acceptors);
  return v > 0 ? v : 0;
}

HerdRun herd_run(unsigned acceptors, std::uint64_t connections) {
  Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (listener.fd < 0 || bind(listener.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      listen(listener.fd, 511) != 0 || getsockname(listener.fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw std::runtime_error("herd: cannot listen on 127.0.0.1");

  std::atomic<bool> stop{false};
  std::vector<double> cpu(acceptors, 0);
  std::vector<std::uint64_t> eagain(acceptors, 0);
  std::vector<std::thread> threads;
  std::atomic<unsigned> ready{0};
  for (unsigned i = 0; i < acceptors; ++i) {
    threads.emplace_back([&, i] {
      Fd ep(epoll_create1(EPOLL_CLOEXEC));
      epoll_event ev{};
      ev.events = EPOLLIN;  // level-triggered, not exclusive: every instance is woken
      if (ep.fd < 0 || epoll_ctl(ep.fd, EPOLL_CTL_ADD, listener.fd, &ev) != 0) {
        stop = true;
        ++ready;
        return;
      }
      const double start = thread_cpu_s();
      ++ready;
      epoll_event got[4];
      while (!stop) {
        if (epoll_wait(ep.fd, got, 4, 50) <= 0) continue;  // the timeout only checks `stop`
        const int c = accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0)
          close(c);
        else if (errno == EAGAIN || errno == EWOULDBLOCK)
          ++eagain[i];
      }
      cpu[i] = thread_cpu_s() - start;
    });
  }
  while (ready < acceptors) std::this_thread::yield();
  std::uint64_t done = 0;
  try {
    for (; done < connections && !stop; ++done) {
      if (done % 1000 == 0) throw_if_interrupted();
      Fd c(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
      if (c.fd < 0 || connect(c.fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) break;
      char byte = 0;
      // The server's close() arrives as end of file: the next connection
      // starts only once this one was accepted.
      while (read(c.fd, &byte, 1) > 0) {
      }
    }
  } catch (...) {
    stop = true;
    for (auto& t : threads) t.join();
    throw;
  }
  stop = true;
  for (auto& t : threads) t.join();
  if (done < connections) throw std::runtime_error("herd: a loopback connection failed");
  HerdRun r;
  r.acceptors = acceptors;
  r.connections = done;
  for (unsigned i = 0; i < acceptors; ++i) {
    r.acceptors_cpu_s += cpu[i];
    r.eagain += eagain[i];
  }
  return r;
}

}  // namespace testbed::calibrate
