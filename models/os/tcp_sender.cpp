#include "models/os/tcp_sender.h"

#include <algorithm>
#include <cmath>

namespace models {

TcpSender::TcpSender(const TcpSenderSpec& spec, const TcpPath& path)
    : spec_(spec),
      path_(path),
      cwnd_(spec.initial_window),
      cwnd_cap_(std::max<std::uint64_t>(spec.initial_window,
                                        static_cast<std::uint64_t>(spec.send_buffer / spec.mss))) {}

sim::Time TcpSender::crossing(double bytes) const {
  if (!std::isfinite(path_.rate_Bps)) return 0;
  return sim::from_seconds_ceil(bytes / path_.rate_Bps);
}

void TcpSender::write(sim::Time now, double bytes) {
  if (bytes <= 0) return;
  forget_acked(now);
  // tcp_slow_start_after_idle_check: data written with nothing in flight.
  if (released_ == written_ && windows_.empty()) restart_after_idle(now);
  written_ += bytes;
  if (next_round_ == sim::kNever) {
    // Nothing is waiting for an ACK to send more: a new round begins now.
    round_sent_ = 0;
    ++rounds_;
  }
  release(now);
}

void TcpSender::restart_after_idle(sim::Time now) {
  if (!spec_.slow_start_after_idle || !sent_any_) return;
  sim::Time idle = now - last_send_;
  if (idle <= rto()) return;
  // tcp_cwnd_restart: halve per RTO of idle time, down to the restart window.
  const std::uint64_t restart = std::min<std::uint64_t>(spec_.initial_window, cwnd_);
  std::uint64_t cwnd = cwnd_;
  while ((idle -= rto()) > 0 && cwnd > restart) cwnd >>= 1;
  cwnd_ = std::max(cwnd, restart);
  ++restarts_;
}

void TcpSender::release(sim::Time now) {
  const double window = static_cast<double>(cwnd_) * spec_.mss;
  const double bytes = std::min(window - round_sent_, written_ - released_);
  if (bytes <= 0) return;
  const sim::Time start = std::max(now, bottleneck_free_);
  const sim::Time end = start + crossing(bytes);
  // The round's first segment's ACK lets the next round begin.
  if (round_sent_ == 0) next_round_ = start + crossing(std::min<double>(spec_.mss, bytes)) + path_.rtt;
  windows_.push_back(Window{start, end, released_, released_ + bytes});
  released_ += bytes;
  round_sent_ += bytes;
  bottleneck_free_ = end;
  last_send_ = now;
  sent_any_ = true;
}

void TcpSender::round(sim::Time now) {
  // Slow start: every segment the round sent, once ACKed, adds one to cwnd.
  const auto segments = static_cast<std::uint64_t>(std::ceil(round_sent_ / spec_.mss));
  cwnd_ = std::min(cwnd_cap_, cwnd_ + segments);
  round_sent_ = 0;
  next_round_ = sim::kNever;
  forget_acked(now);
  if (written_ > released_) {
    ++rounds_;
    release(now);
  }
}

double TcpSender::unacked(sim::Time now) const {
  // A byte is ACKed one RTT after it left the bottleneck.
  const sim::Time left_by = now - path_.rtt;
  double acked = windows_.empty() ? released_ : windows_.front().first;
  for (const Window& w : windows_) {
    if (w.end <= left_by) {
      acked = w.last;
      continue;
    }
    if (w.start < left_by)
      acked = w.first + (w.last - w.first) * static_cast<double>(left_by - w.start) / static_cast<double>(w.end - w.start);
    break;
  }
  return written_ - acked;
}

sim::Time TcpSender::when_unacked_at_most(double bytes) const {
  const double target = written_ - bytes;  // bytes that must be ACKed
  if (target > released_) return sim::kNever;
  if (windows_.empty() || target <= windows_.front().first) return 0;
  for (const Window& w : windows_) {
    if (target > w.last) continue;
    const double share = (target - w.first) / (w.last - w.first);
    return w.start + static_cast<sim::Time>(std::ceil(share * static_cast<double>(w.end - w.start))) + path_.rtt;
  }
  return sim::kNever;
}

void TcpSender::forget_acked(sim::Time now) {
  while (!windows_.empty() && windows_.front().end + path_.rtt <= now) windows_.pop_front();
}

}  // namespace models
