#include "models/hardware/ssd_drive.h"

#include <algorithm>
#include <stdexcept>

namespace models {

SsdDrive::SsdDrive(const SsdSpec& spec, sim::RandomStream rng) : spec_(spec), rng_(rng) {
  if (spec.parallelism == 0) throw std::invalid_argument("ssd: parallelism must be at least 1");
  in_service_.resize(spec.parallelism);
  for (std::uint32_t i = spec.parallelism; i > 0; --i) free_slots_.push_back(i - 1);
}

double SsdDrive::sample_access_s() {
  const double u = rng_.uniform();
  if (!spec_.latency_cdf.empty()) {
    const auto& cdf = spec_.latency_cdf;
    auto it = std::lower_bound(cdf.begin(), cdf.end(), u,
                               [](const std::pair<double, double>& p, double x) { return p.second < x; });
    if (it == cdf.begin()) return it->first * (cdf.front().second > 0 ? u / cdf.front().second : 1.0);
    if (it == cdf.end()) return cdf.back().first;
    const auto& lo = *(it - 1);
    const double f = (u - lo.second) / (it->second - lo.second);
    return lo.first + f * (it->first - lo.first);
  }
  // The mixture: one uniform draw picks the kind, a second draws its time.
  if (u < spec_.stall_probability)
    return spec_.stall_min_s + rng_.uniform() * (spec_.stall_max_s - spec_.stall_min_s);
  if (u < spec_.stall_probability + spec_.slow_probability) return rng_.lognormal(spec_.slow_median_s, spec_.slow_sigma);
  return rng_.lognormal(spec_.read_median_s, spec_.read_sigma);
}

std::optional<SsdDrive::Started> SsdDrive::submit(sim::Time now, std::uint64_t offset, std::uint64_t length,
                                                   IoListener* listener, std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("ssd: read beyond the end of the drive");
  const bool sequential = spec_.sequential_bandwidth_Bps > 0 && continues_stream(offset, offset + length);
  const Read r{length, listener, tag, now, sequential};
  std::optional<Started> started;
  if (busy_ < spec_.parallelism)
    started = start(now, r);
  else
    queue_.push(now, r);
  max_outstanding_ = std::max(max_outstanding_, static_cast<std::uint32_t>(outstanding()));
  depth_.set(now, static_cast<double>(outstanding()));
  return started;
}

bool SsdDrive::continues_stream(std::uint64_t offset, std::uint64_t end) {
  const bool found = offset > 0 && std::find(ends_.begin(), ends_.end(), offset) != ends_.end();
  if (ends_.size() < kRememberedEnds) {
    ends_.push_back(end);
  } else {
    ends_[next_end_] = end;
    next_end_ = (next_end_ + 1) % kRememberedEnds;
  }
  return found;
}

SsdDrive::Started SsdDrive::start(sim::Time now, const Read& r) {
  if (busy_ == 0) busy_since_ = now;
  const std::uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  in_service_[slot] = r;
  ++busy_;
  const double depth = static_cast<double>(busy_ + queue_.size());  // outstanding, this read included
  double service = 0;
  if (r.sequential) {
    ++sequential_reads_;
    service = static_cast<double>(r.length) / (sequential_bandwidth_at(depth) / spec_.parallelism);
  } else {
    service = sample_access_s() + static_cast<double>(r.length) / (bandwidth_at(depth) / spec_.parallelism);
  }
  return Started{slot, sim::from_seconds_ceil(service)};
}

double bandwidth_at_depth(const std::vector<std::pair<double, double>>& points, double flat, double depth) {
  if (points.empty()) return flat;
  if (depth <= points.front().first) return points.front().second;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (depth <= points[i].first) {
      const auto& [d0, b0] = points[i - 1];
      const auto& [d1, b1] = points[i];
      return b0 + (b1 - b0) * (depth - d0) / (d1 - d0);
    }
  }
  return points.back().second;
}

SsdDrive::Read SsdDrive::complete(sim::Time now, std::uint32_t slot, std::optional<Started>& next) {
  const Read done = in_service_[slot];
  --busy_;
  if (busy_ == 0) busy_s_ += sim::to_seconds(now - busy_since_);
  free_slots_.push_back(slot);
  ++reads_;
  read_bytes_ += done.length;
  await_sum_s_ += sim::to_seconds(now - done.submitted);
  if (!queue_.empty()) next = start(now, queue_.pop(now));
  depth_.set(now, static_cast<double>(outstanding()));
  return done;
}

DiskStats SsdDrive::stats(sim::Time now) const {
  DiskStats s;
  s.reads = reads_;
  s.read_bytes = read_bytes_;
  // iostat's %util: time with a read outstanding, not the units' summed
  // service time. A drive serving `parallelism` reads at once is at 100%
  // with one read outstanding: %util says busy, not saturated.
  s.busy_s = busy_s_ + (busy_ > 0 ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = depth_.integral(now);
  s.drives = 1;
  s.await_sum_s = await_sum_s_;
  s.max_outstanding = max_outstanding_;
  return s;
}

}  // namespace models
