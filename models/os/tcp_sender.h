// The sending side of one TCP connection to a client across the internet:
// how long the response stays in the server's send buffer, and when its
// bytes reach the client, given the path's round-trip time and the client's
// bottleneck rate. A LAN client needs none of this (models/os/sockets.h
// leaves its flows to the NIC alone).
//
// Slow start, in rounds (the latency model of Kurose and Ross, "Computer
// Networking", section 3.7, "Modeling latency: dynamic congestion window";
// Cardwell, Savage and Anderson, "Modeling TCP latency", INFOCOM 2000):
//  - a new connection starts with cwnd = 10 segments (RFC 6928; Linux's
//    TCP_INIT_CWND in include/net/tcp.h);
//  - each round sends up to cwnd bytes' worth of segments back to back; they
//    cross the client's bottleneck at its rate, first in first out, behind
//    whatever of the previous round is still crossing it;
//  - the next round begins when the first segment's ACK returns: one
//    segment's serialisation plus the round-trip time after the round's
//    first byte entered the bottleneck. Every segment ACKed in slow start
//    adds one to cwnd (tcp_slow_start), so cwnd grows by what the round
//    sent: it doubles per RTT while the sender has data, and grows less in a
//    round the application left short (tcp_is_cwnd_limited);
//  - nothing is lost, so the slow-start threshold stays infinite
//    (TCP_INFINITE_SSTHRESH): cwnd grows until the send buffer bounds it
//    (tcp_wmem max / MSS segments). Once a round's window takes longer than
//    the RTT to cross the bottleneck the bottleneck never idles again: the
//    transfer is bound by the client's rate.
// So, with infinite rate, N segments on a new connection take
// ceil(log2(N / 10 + 1)) rounds: the last byte reaches the client that many
// RTTs after the request left it (one way there, K - 1 rounds, one way
// back). With 10 segments crossing the bottleneck in more than an RTT, the
// transfer of B bytes takes B / rate + RTT.
//
// A byte stays in the send buffer until its ACK returns, one RTT after it
// left the bottleneck; ACKs of one window return at the bottleneck's pace.
// The server's sendfile() sees this occupancy (socket backlog), as Linux's
// sk_wmem_queued counts data until tcp_clean_rtx_queue frees it.
//
// Restart after idle (RFC 2861 section 3, RFC 5681 section 4.1):
// tcp_slow_start_after_idle_check() in include/net/tcp.h runs when data is
// written with nothing in flight; if the last send (lsndtime) is more than
// one RTO ago, tcp_cwnd_restart() in net/ipv4/tcp_output.c halves cwnd for
// each RTO of the idle time, down to min(cwnd, initial window). Only with
// net.ipv4.tcp_slow_start_after_idle = 1, the default. The RTO is
// srtt + max(4 mdev, tcp_rto_min) (tcp_set_rto, __tcp_set_rto,
// tcp_rtt_estimator in net/ipv4/tcp_input.c): with a path's fixed RTT,
// RTT + 200 ms (TCP_RTO_MIN = HZ / 5).
//
// Not modelled: loss and congestion avoidance, the client's receive window
// (Linux autotunes tcp_rmem to 6 MiB), delayed ACKs, pacing, and send
// buffer autotuning below tcp_wmem max (tcp_sndbuf_expand).
#pragma once
#include <cstdint>
#include <deque>
#include <limits>

#include "sim/time.h"

namespace models {

// The client's end of the path, as the server's socket sees it.
struct TcpPath {
  sim::Time rtt = 0;                                          // round trip, propagation only
  double rate_Bps = std::numeric_limits<double>::infinity();  // the client's bottleneck, payload bytes/s
};

struct TcpSenderSpec {
  std::uint32_t mss = 1448;           // payload per segment (the NIC's MTU less TCP/IP headers)
  std::uint32_t initial_window = 10;  // segments: TCP_INIT_CWND (RFC 6928)
  bool slow_start_after_idle = true;  // net.ipv4.tcp_slow_start_after_idle (default 1)
  sim::Time rto_min = sim::milliseconds(200);  // TCP_RTO_MIN
  double send_buffer = 4194304;       // net.ipv4.tcp_wmem max: bounds cwnd
};

class TcpSender {
 public:
  TcpSender(const TcpSenderSpec& spec, const TcpPath& path);

  // `bytes` written into the send buffer at `now`: sent at once as far as
  // the round's window allows.
  void write(sim::Time now, double bytes);
  // When the next round begins (kNever: none pending); run round() then.
  sim::Time next_round() const { return next_round_; }
  void round(sim::Time now);

  // Bytes written and not yet ACKed at `now` (the send buffer's fill).
  double unacked(sim::Time now) const;
  // The earliest time at which unacked() is at most `bytes`, if the windows
  // sent so far decide it; kNever when it waits on a round not yet begun.
  sim::Time when_unacked_at_most(double bytes) const;
  // When the last byte written leaves the bottleneck (it reaches the client
  // one way later); kNever while some of it is not sent yet.
  sim::Time when_departed() const { return released_ < written_ ? sim::kNever : bottleneck_free_; }

  std::uint64_t cwnd() const { return cwnd_; }  // segments
  sim::Time rto() const { return path_.rtt + spec_.rto_min; }
  std::uint64_t rounds() const { return rounds_; }  // rounds begun so far
  std::uint64_t restarts() const { return restarts_; }

 private:
  // Bytes [first, last) of the stream leave the bottleneck evenly over [start, end].
  struct Window {
    sim::Time start, end;
    double first, last;
  };
  sim::Time crossing(double bytes) const;  // serialisation at the bottleneck
  void release(sim::Time now);
  void forget_acked(sim::Time now);
  void restart_after_idle(sim::Time now);

  TcpSenderSpec spec_;
  TcpPath path_;
  std::uint64_t cwnd_;
  std::uint64_t cwnd_cap_;
  double written_ = 0, released_ = 0;
  double round_sent_ = 0;  // bytes the current round sent
  sim::Time next_round_ = sim::kNever;
  sim::Time bottleneck_free_ = 0;
  sim::Time last_send_ = 0;  // lsndtime
  bool sent_any_ = false;
  std::uint64_t rounds_ = 0, restarts_ = 0;
  std::deque<Window> windows_;  // sent and not wholly ACKed, in stream order
};

}  // namespace models
