#include "engines/simgrid/sg_hdd.h"

#include <algorithm>
#include <cmath>
#include <simgrid/s4u/Actor.hpp>
#include <stdexcept>

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgHdd::SgHdd(sg4::Host* host, const models::HddSpec& spec) : spec_(spec), geometry_(unused_, spec) {
  sg4::Actor::create("drive", host, [this] { drive(); })->daemonize();
}

// models::Hdd::positioning_time, from the same geometry and head state.
double SgHdd::positioning_time(std::uint64_t offset, sim::Time at) const {
  const double rotation = geometry_.rotation_s();
  const double head_tracks = geometry_.tracks_before(static_cast<double>(head_offset_));
  const double target_tracks = geometry_.tracks_before(static_cast<double>(offset));
  const double dt_idle = sim::to_seconds(at - head_time_);
  // Still streaming through the track buffer: the bytes come as the head passes.
  if (offset >= head_offset_ && std::floor(target_tracks) == std::floor(head_tracks))
    return std::max(0.0, (target_tracks - head_tracks) * rotation - dt_idle);
  double seek = 0;
  if (std::fabs(target_tracks - head_tracks) >= 1.0)
    seek = geometry_.seek_time(std::fabs(geometry_.radial_position(static_cast<double>(offset)) -
                                         geometry_.radial_position(static_cast<double>(head_offset_))));
  const double platter_angle = std::fmod((sim::to_seconds(at) + seek) / rotation, 1.0);
  double wait = (target_tracks - std::floor(target_tracks)) - platter_angle;
  if (wait < 0) wait += 1.0;
  if (wait > 1.0 - 1e-9) wait = 0;  // floating-point noise on an exact continuation
  return seek + wait * rotation;
}

void SgHdd::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                        std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("hdd: read beyond the end of the disk");
  const sim::Time now = now_ns();
  queue_.push_back(Request{offset, length, listener, tag, now});
  depth_.set(now, static_cast<double>(queued()));
  if (!busy_) {
    start_next();
    wake_.notify();
  }
}

void SgHdd::start_next() {
  const sim::Time now = now_ns();
  std::size_t best = 0;
  if (now - queue_.front().queued_at < sim::from_seconds_ceil(spec_.read_expire_s)) {
    // No read has expired: the one the head reaches first among the queued window.
    const std::size_t window = std::min<std::size_t>(queue_.size(), std::max<std::uint32_t>(1, spec_.ncq_depth));
    double best_pos = 0;
    for (std::size_t i = 0; i < window; ++i) {
      const double p = positioning_time(queue_[i].offset, now);
      if (i == 0 || p < best_pos) {
        best = i;
        best_pos = p;
      }
    }
  }
  current_ = queue_[best];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(best));
  busy_ = true;
  busy_since_ = now;
  const double transfer = (geometry_.tracks_before(static_cast<double>(current_.offset + current_.length)) -
                           geometry_.tracks_before(static_cast<double>(current_.offset))) *
                          geometry_.rotation_s();
  done_at_ = now + sim::from_seconds_ceil(positioning_time(current_.offset, now) + transfer);
}

void SgHdd::drive() {
  for (;;) {
    while (!busy_) wake_.wait();
    sg4::this_actor::sleep_until(sim::to_seconds(done_at_));
    ++resumptions();
    const sim::Time now = now_ns();
    busy_ = false;
    busy_s_ += sim::to_seconds(now - busy_since_);
    head_offset_ = current_.offset + current_.length;
    head_time_ = now;
    ++reads_;
    read_bytes_ += current_.length;
    const Request done = current_;
    if (!queue_.empty()) start_next();  // the drive moves on before the reader hears of it
    depth_.set(now, static_cast<double>(queued()));
    done.listener->on_io_done(done.tag);
  }
}

models::DiskStats SgHdd::stats() const {
  const sim::Time now = now_ns();
  models::DiskStats s;
  s.reads = reads_;
  s.read_bytes = read_bytes_;
  s.busy_s = busy_s_ + (busy_ ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = depth_.integral(now);
  s.drives = 1;
  return s;
}

}  // namespace sgengine
