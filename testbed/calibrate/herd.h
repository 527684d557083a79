// The model's `wakeup` (models/os/host.h): the CPU a worker spends when it is
// woken for a connection another worker accepts first, as NGINX's workers
// are when each watches the shared listen socket in its own epoll instance
// without EPOLLEXCLUSIVE (NGINX before 1.11.3 or Linux before 4.5, as in the
// 9x run). In-process, as the 9x profile's figure was measured:
// `acceptors` threads, each with its own epoll instance, level-triggered,
// on one non-blocking listen socket; a client thread connects `connections`
// times, one at a time, each time waiting until the server has accepted and
// closed. Every acceptor is woken by each connection (ep_poll_callback wakes
// every epoll instance on the socket's wait queue); one accept()s, the
// others find nothing, whether in accept() (EAGAIN) or still inside
// epoll_wait (ep_poll re-polls the socket and sleeps again). The acceptors'
// own CPU (CLOCK_THREAD_CPUTIME_ID) with N of them less with one, per
// connection and extra acceptor, is what each woken loser costs:
//     wakeup = (CPU_N - CPU_1) / ((N - 1) x connections).
#pragma once
#include <cstdint>

namespace testbed::calibrate {

struct HerdRun {
  unsigned acceptors = 0;
  std::uint64_t connections = 0;
  double acceptors_cpu_s = 0;   // the acceptor threads' CPU, summed
  std::uint64_t eagain = 0;     // accept()s that found nothing (woken losers that reached user space)
};

struct HerdResult {
  HerdRun one, many;
  double wakeup_s = 0;
};

HerdRun herd_run(unsigned acceptors, std::uint64_t connections);
// The difference of two runs (exposed for tests); 0 when it comes out negative.
double herd_wakeup_s(const HerdRun& one, const HerdRun& many);

}  // namespace testbed::calibrate
