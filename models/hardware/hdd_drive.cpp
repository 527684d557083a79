#include "models/hardware/hdd_drive.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace models {

HddDrive::HddDrive(const HddSpec& spec) : spec_(spec) {
  if (spec.rate_inner_Bps <= 0 || spec.rate_outer_Bps < spec.rate_inner_Bps)
    throw std::invalid_argument("hdd: need 0 < inner rate <= outer rate");
  rotation_s_ = 60.0 / spec.rpm;
  // Mean of sqrt(|x-y|) for x, y uniform on [0,1] is 8/15.
  seek_full_s_ = spec.seek_track_s + (spec.seek_average_s - spec.seek_track_s) * 15.0 / 8.0;
  const double rho = spec.rate_inner_Bps / spec.rate_outer_Bps;
  rho2_ = rho * rho;
  // Track size at radius r (outer radius 1) is rate_outer * r * T_rot, and
  // offset x maps to r(x) = sqrt(1 - (1 - rho^2) x / X). Integrating
  // dx / track_size(x) gives tracks(x) = 2X / ((1 - rho^2) rate_outer T_rot) (1 - r(x)).
  tracks_scale_ = 2.0 * spec.capacity_bytes / ((1.0 - rho2_) * spec.rate_outer_Bps * rotation_s_);
  if (rho2_ >= 1.0) tracks_scale_ = 0;  // constant rate: handled in tracks_before
}

double HddDrive::radial_position(double offset) const {
  const double f = std::clamp(offset / spec_.capacity_bytes, 0.0, 1.0);
  const double r = std::sqrt(1.0 - (1.0 - rho2_) * f);
  const double r_inner = std::sqrt(rho2_);
  return r_inner < 1.0 ? (1.0 - r) / (1.0 - r_inner) : f;
}

double HddDrive::tracks_before(double offset) const {
  if (tracks_scale_ == 0) return offset / (spec_.rate_outer_Bps * rotation_s_);
  const double f = std::clamp(offset / spec_.capacity_bytes, 0.0, 1.0);
  return tracks_scale_ * (1.0 - std::sqrt(1.0 - (1.0 - rho2_) * f));
}

double HddDrive::transfer_rate(double offset) const {
  const double f = std::clamp(offset / spec_.capacity_bytes, 0.0, 1.0);
  return spec_.rate_outer_Bps * std::sqrt(1.0 - (1.0 - rho2_) * f);
}

double HddDrive::seek_time(double d) const {
  if (d <= 0) return 0;
  return spec_.seek_track_s + (seek_full_s_ - spec_.seek_track_s) * std::sqrt(std::min(d, 1.0));
}

double HddDrive::positioning_time(std::uint64_t offset, sim::Time at) const {
  return positioning(offset, tracks_before(static_cast<double>(offset)), radial_position(static_cast<double>(offset)),
                     head(), at);
}

HddDrive::Head HddDrive::head() const {
  return Head{tracks_before(static_cast<double>(head_offset_)), radial_position(static_cast<double>(head_offset_))};
}

// Positioning from the head to `offset`, whose track count and radial
// position are given (the same values positioning_time() computes).
double HddDrive::positioning(std::uint64_t offset, double target_tracks, double target_radial, const Head& head,
                             sim::Time at) const {
  const double head_tracks = head.tracks;
  const double dt_idle = sim::to_seconds(at - head_time_);
  // Still streaming through the track buffer: the bytes come as the head passes.
  if (offset >= head_offset_ && std::floor(target_tracks) == std::floor(head_tracks)) {
    const double reach = (target_tracks - head_tracks) * rotation_s_;
    return std::max(0.0, reach - dt_idle);
  }
  double seek = 0;
  if (std::fabs(target_tracks - head_tracks) >= 1.0)
    seek = seek_time(std::fabs(target_radial - head.radial));
  const double t_arrive = sim::to_seconds(at) + seek;
  // The fraction of a turn: for x >= 0, x - floor(x) is exactly fmod(x, 1.0)
  // (both subtract an integer that x holds exactly) without libm's call.
  const double turns = t_arrive / rotation_s_;
  const double platter_angle = turns - std::floor(turns);
  const double target_angle = target_tracks - std::floor(target_tracks);
  double wait = target_angle - platter_angle;
  if (wait < 0) wait += 1.0;
  if (wait > 1.0 - 1e-9) wait = 0;  // floating-point noise on an exact continuation
  return seek + wait * rotation_s_;
}

double HddDrive::service_time(const Request& r, sim::Time at) const {
  const double pos = positioning(r.offset, r.tracks, r.radial, head(), at);
  const double tracks = tracks_before(static_cast<double>(r.offset + r.length)) - r.tracks;
  return pos + tracks * rotation_s_;
}

bool HddDrive::submit(sim::Time now, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                      std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("hdd: read beyond the end of the disk");
  queue_.push(now, Request{offset, length, listener, tag, now, tracks_before(static_cast<double>(offset)),
                           radial_position(static_cast<double>(offset))});
  depth_.set(now, static_cast<double>(queued()));
  if (busy_) return false;
  dispatch(now);
  return true;
}

void HddDrive::dispatch(sim::Time now) {
  if (now - queue_.front().queued_at >= sim::from_seconds_ceil(spec_.read_expire_s)) {
    // The oldest read has expired: serve it before anything else.
    start(now, queue_.take(now, 0));
    return;
  }
  const std::size_t window = std::min<std::size_t>(queue_.size(), std::max<std::uint32_t>(1, spec_.ncq_depth));
  std::size_t best = 0;
  double best_pos = 0;
  const Head h = head();
  for (std::size_t i = 0; i < window; ++i) {
    const Request& r = queue_.at(i);
    const double p = positioning(r.offset, r.tracks, r.radial, h, now);
    if (i == 0 || p < best_pos) {
      best = i;
      best_pos = p;
    }
  }
  start(now, queue_.take(now, best));
}

void HddDrive::start(sim::Time now, const Request& r) {
  current_ = r;
  busy_ = true;
  busy_since_ = now;
  service_ = sim::from_seconds_ceil(service_time(current_, now));
}

HddDrive::Request HddDrive::complete(sim::Time now) {
  busy_ = false;
  busy_s_ += sim::to_seconds(now - busy_since_);
  head_offset_ = current_.offset + current_.length;
  head_time_ = now;
  ++reads_;
  read_bytes_ += current_.length;
  const Request done = current_;
  if (!queue_.empty()) dispatch(now);  // the drive moves on before the reader hears of it
  depth_.set(now, static_cast<double>(queued()));
  return done;
}

DiskStats HddDrive::stats(sim::Time now) const {
  DiskStats s;
  s.reads = reads_;
  s.read_bytes = read_bytes_;
  s.busy_s = busy_s_ + (busy_ ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = depth_.integral(now);
  s.drives = 1;
  return s;
}

}  // namespace models
