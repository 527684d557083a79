// What TCP's own pacing costs on loopback, measured (`clerk calibrate
// --pacing`): one connection over 127.0.0.1 in this process, a sender that
// answers each one-byte request with `response` bytes of a cached file by
// non-blocking sendfile() calls of at most `chunk` bytes, waiting in epoll
// for EPOLLOUT when the socket is full (as an NGINX worker with
// sendfile_max_chunk), and a receiver that writes the request and reads the
// response 8 KiB at a time (wrk's RECVBUF, its socket_readable loop) from a
// non-blocking socket in its own epoll. Both sockets get the congestion
// control under test by setsockopt(TCP_CONGESTION), so the host's sysctl is
// left alone: "cubic" does not pace; "bbr" asks for pacing (bbr_init()), and
// on a `lo` without the fq qdisc TCP paces itself (tcp_pacing_check() and
// its hrtimer, tcp_pace_kick(); models/os/tcp_pacing.h).
//
// Each run reports, per response:
//  - the wall time from the request's write to the response's last read;
//  - the sender's and the receiver's thread CPU (CLOCK_THREAD_CPUTIME_ID:
//    sum_exec_runtime, which includes softirqs that ran on top of the
//    thread, such as loopback's receive path at its local_bh_enable());
//  - the machine's busy time (/proc/stat, all CPUs), whose excess over the
//    two threads is work that ran elsewhere: softirqs on an idle CPU (the
//    pacing timer's, when nothing else runs there) and ksoftirqd;
//  - the HRTIMER and NET_RX softirqs the machine ran (/proc/softirqs: the
//    pacing timer, HRTIMER_MODE_ABS_PINNED_SOFT, runs as one; loopback's
//    receive path as the other);
//  - the socket's segments out (tcpi_segs_out), its pacing rate
//    (tcpi_pacing_rate) and congestion window at the end, and the EPOLLOUT
//    waits.
// The machine must be quiet: another process's CPU counts as busy time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace testbed::calibrate {

struct PacingSpec {
  std::string congestion_control = "cubic";
  std::uint64_t response = 4 * 1024 * 1024;  // the local scenarios' file (scenarios/local/common.toml)
  std::uint64_t chunk = 512 * 1024;          // their sendfile_max_chunk
  unsigned rounds = 500;                     // responses
};

struct PacingRun {
  PacingSpec spec;
  double wall_s = 0;            // all rounds, request written to response read
  double sender_cpu_s = 0;      // the sender thread's CPU over the rounds
  double receiver_cpu_s = 0;    // the receiver thread's
  double machine_busy_s = 0;    // all CPUs' busy time over the rounds (/proc/stat)
  std::uint64_t segs_out = 0;   // the sender's tcpi_segs_out over the rounds
  std::uint64_t epollout_waits = 0;
  std::uint64_t hrtimer_softirqs = 0;  // /proc/softirqs HRTIMER, all CPUs: the pacing timer is a soft hrtimer
  std::uint64_t net_rx_softirqs = 0;   // NET_RX: loopback's receive path (netif_rx's backlog)
  double pacing_rate_Bps = 0;   // tcpi_pacing_rate at the end
  std::uint32_t cwnd = 0;       // tcpi_snd_cwnd at the end, in segments
  std::uint32_t mss = 0;        // tcpi_snd_mss
};

// Per response, for reports and the difference of two runs.
struct PacingPerResponse {
  double wall_us = 0, sender_us = 0, receiver_us = 0, machine_us = 0, elsewhere_us = 0;
  double segs = 0, epollout_waits = 0, hrtimer_softirqs = 0, net_rx_softirqs = 0;
};
PacingPerResponse per_response(const PacingRun& r);

// One run; throws std::runtime_error naming what failed (e.g. a congestion
// control the kernel does not have: "bbr" needs tcp_bbr loaded or built in).
PacingRun pacing_run(const PacingSpec& spec);

// `runs` of each congestion control, alternated (cubic, bbr, cubic, ...),
// so that a drift of the host's speed falls on both.
struct PacingComparison {
  std::vector<PacingRun> unpaced, paced;
};
PacingComparison compare_pacing(const PacingSpec& spec, unsigned runs, const std::string& unpaced_cc = "cubic",
                                const std::string& paced_cc = "bbr");

// What pacing costs the machine per byte: the paced runs' median busy time
// per response less the unpaced runs', over the response's bytes, in
// seconds (never below 0). The profile's [cpu] loopback_pacing_byte.
double pacing_machine_per_byte_s(const PacingComparison& c);

// The report `clerk calibrate --pacing` prints: each run's figures per
// response, then the medians and the paced-over-unpaced differences.
std::string pacing_report(const PacingComparison& c);

}  // namespace testbed::calibrate
