// The machine a server runs on, as its processes see it: CPUs, the NIC,
// the page cache, path lookup, and the kernel settings that matter here.
// Passed by reference to everything that runs on the host. KernelSpec also
// carries loopback's congestion control, qdisc and pacing, which the model
// does not use yet: they say what the [cpu] costs were measured under, for
// reports (clerk realrun's warning when the running kernel's differ).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "models/hardware/nic.h"
#include "models/os/cpu.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"
#include "models/os/sockets.h"
#include "models/os/task_states.h"
#include "sim/engine.h"

namespace models {

// CPU time per operation, in seconds.
struct CpuCosts {
  double request = 0;        // parse a request, build the header, open/stat bookkeeping
  double sendfile_byte = 0;  // kernel time per byte sendfile() hands to TCP
  double accept = 0;         // accept() plus registering the connection
  double wakeup = 0;         // a worker woken for a connection another worker accepted
  // One epoll event handled for nothing: a turn woken for a connection it
  // did not get. Also the default of the pool's costs below: a pool task
  // used to cost three `event`s, two in the worker and one in the pool thread.
  double event = 0;
  // A thread-pool task (NGINX's ngx_thread_pool.c) costs each side its own:
  //  - pool_worker: the worker's main thread, per task. Half when it posts
  //    the task (the write handler's output-filter pass that ends in
  //    ngx_thread_task_post: mutex, queue, cond_signal's futex wake), half
  //    when it handles the completion (epoll_wait returning the eventfd,
  //    ngx_epoll_notify_handler, ngx_thread_pool_handler taking the done
  //    list, the task's event handler and its output-filter pass). The
  //    calibration measures the sum only (the main thread's CPU time).
  //  - pool_thread: the pool thread, per task beyond its sendfile() work
  //    (sendfile_byte): back from pthread_cond_wait's futex, the queue's
  //    mutex, the done list's spinlock, the eventfd write (ngx_notify).
  // The loader defaults them to 2 x event and event (config_loader.cpp).
  double pool_worker = 0;
  double pool_thread = 0;
  // The RWF_NOWAIT probe and io_uring's reads (models/server/nowait_probe.h),
  // all on the event loop. Defaults measured on the project's machine (AMD
  // EPYC 2.6 GHz KVM guest, Linux 6.18, a cached 4 MiB file, CPU time by
  // getrusage, 3 runs of 400 passes): preadv2(RWF_NOWAIT) of 1 byte 0.55 us
  // a call; of 512 KiB 21 us, 0.04 ns/B; an io_uring IORING_OP_READ of 1
  // cached byte (liburing: get_sqe, submit, wait_cqe, cqe_seen) 0.94 us.
  double nowait_probe = 0.55e-6;    // one preadv2(RWF_NOWAIT) call
  double read_copy_byte = 0.04e-9;  // the page cache's copy into a user buffer, per byte
  double uring_op = 0.94e-6;        // one SQE submitted and its CQE reaped
  double pool_post() const { return pool_worker / 2; }
  double pool_complete() const { return pool_worker / 2; }
  // Kernel time per byte read from disk into the page cache: page allocation,
  // memory-cgroup charge and reclaim, I/O completion, all of it
  // (kernel_work.h says where each part runs).
  double cache_fill_byte = 0;
  // The part of cache_fill_byte that runs in the task whose read starts the
  // fill (allocation, memcg charge and reclaim, building the bios); the rest
  // runs in the block completion. Below 0: not given, all of it in the reader.
  double cache_fill_reader_byte = -1;
  // wrk's own CPU time, for clients that run on this host (and the pace of
  // wrk's connect loop anywhere).
  double client_connect = 0;  // socket() + non-blocking connect() + options, per connection
  double client_request = 0;  // write a request, parse its response
  double client_byte = 0;     // read() per response byte
  // Loopback's receive path per byte (ip_rcv -> tcp_v4_rcv -> the segment
  // queued on the receiving socket), which runs in whichever context
  // transmits: loopback_xmit() hands each skb to netif_rx(), and the NET_RX
  // softirq runs it at that context's local_bh_enable(). When the client has
  // read everything it was sent, the sender's sendfile() transmits at once
  // and pays it; when the client lags, the segment waits for the client's
  // read (the window it opens, or the socket it holds: tcp_v4_rcv queues to
  // the backlog that release_sock() processes in the reader), so the client
  // pays it, as part of client_byte. 0: not measured, always the client's.
  double loopback_rx_byte = 0;
  // TCP's own pacing on loopback per byte (bbr without the fq qdisc:
  // tcp_pacing.h): tcp_write_xmit()'s tcp_pacing_check() arms the socket's
  // pacing hrtimer (hrtimer_start(), HRTIMER_MODE_ABS_PINNED_SOFT, which
  // reprograms the CPU's clock event device when it is the earliest) and
  // tcp_pace_kick() sends the rest from its softirq. It is paid where the
  // segments are transmitted, as the receive path above is: by the sender
  // when the client has caught up, else by the client, whose ACKs (and the
  // window its reads open) clock the transmissions (tcp_ack() ->
  // tcp_data_snd_check() in the client's softirq). client_byte,
  // sendfile_byte and loopback_rx_byte are then the unpaced costs (calibrate
  // measures them under cubic and this as bbr's excess). 0: not paced.
  double loopback_pacing_byte = 0;
};

// What transmitting a byte over loopback costs the context that transmits
// it, beyond the sender's sendfile_byte: the receive path and pacing.
inline double loopback_transmit_byte(const CpuCosts& c) {
  return std::min(c.loopback_rx_byte, c.client_byte) + c.loopback_pacing_byte;
}

inline double reader_fill_byte(const CpuCosts& c) {
  return c.cache_fill_reader_byte < 0 ? c.cache_fill_byte : c.cache_fill_reader_byte;
}

struct KernelSpec {
  double tcp_wmem_max = 4194304;          // net.ipv4.tcp_wmem max: a socket's send buffer
  std::uint64_t pipe_bytes = 64 * 1024;   // sendfile() moves data through a 64 KiB pipe
  // TCP towards internet clients (tcp_sender.h): the initial congestion
  // window in segments (TCP_INIT_CWND in include/net/tcp.h, RFC 6928; ip
  // route's initcwnd overrides it) and net.ipv4.tcp_slow_start_after_idle
  // (default 1: Documentation/networking/ip-sysctl.rst).
  std::uint32_t initial_cwnd = 10;
  bool tcp_slow_start_after_idle = true;
  // The kernel the profile names, and its CPU scheduler ([kernel] scheduler keys).
  std::string release;                    // as uname -r
  // Loopback's TCP as the profile's [cpu] costs were measured under ([kernel]
  // tcp_congestion_control, lo_qdisc, tcp_pacing; models/os/tcp_pacing.h):
  // for reports only. The model does not use them (what pacing costs is
  // CpuCosts::loopback_pacing_byte); `clerk realrun` warns
  // when the running kernel's differ. "": the profile does not say.
  std::string tcp_congestion_control;     // net.ipv4.tcp_congestion_control, "bbr"
  std::string lo_qdisc;                   // lo's root qdisc, "noqueue"
  std::string tcp_pacing;                 // loopback_pacing() of the two: "internal", "fq", "none"
  SchedSpec sched;
};

struct Host {
  sim::Engine& engine;
  Cpu& cpu;
  Nic& nic;
  Sockets& sockets;  // the connections' sockets over the NIC (LAN flows: the NIC alone)
  PageCache& cache;
  PathWalk& walk;
  TaskStates& tasks;
  CpuCosts costs;
  KernelSpec kernel;
};

}  // namespace models
