#include "models/hardware/simple_disk.h"

#include <stdexcept>

namespace models {

SimpleDisk::SimpleDisk(sim::Engine& engine, const SimpleDiskSpec& spec)
    : engine_(engine), spec_(spec), channel_(engine, spec.bandwidth_Bps) {
  if (!(spec.latency_s >= 0) || !(spec.bandwidth_Bps > 0))
    throw std::invalid_argument("simple disk: need latency >= 0 and bandwidth > 0");
}

std::uint32_t SimpleDisk::allocate(const Read& r) {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    reads_[slot] = r;
  } else {
    slot = static_cast<std::uint32_t>(reads_.size());
    reads_.push_back(r);
  }
  return slot;
}

void SimpleDisk::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                             std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("simple disk: read beyond the end of the disk");
  const sim::Time now = engine_.now();
  if (outstanding_.value() == 0) busy_since_ = now;
  outstanding_.add(now, 1);
  const std::uint32_t slot = allocate(Read{length, listener, tag});
  if (spec_.shared) {
    engine_.schedule_in(sim::from_seconds_ceil(spec_.latency_s), this, slot);
    return;
  }
  fifo_.push_back(slot);
  if (!serving_) start_next();
}

// fcfs: the oldest waiting read takes the whole device.
void SimpleDisk::start_next() {
  if (fifo_head_ == fifo_.size()) {
    fifo_.clear();
    fifo_head_ = 0;
    serving_ = false;
    return;
  }
  serving_ = true;
  const std::uint32_t slot = fifo_[fifo_head_++];
  const double service = spec_.latency_s + static_cast<double>(reads_[slot].length) / spec_.bandwidth_Bps;
  engine_.schedule_in(sim::from_seconds_ceil(service), this, slot);
}

void SimpleDisk::on_event(std::uint64_t arg) {
  const auto slot = static_cast<std::uint32_t>(arg);
  if (spec_.shared) {
    // The latency is over: the transfer joins the others on the channel.
    channel_.add(static_cast<double>(reads_[slot].length), this, slot);
    return;
  }
  start_next();  // the device moves on before the reader hears of it, as a drive does
  finish(slot);
}

void SimpleDisk::on_share_milestone(std::uint32_t, std::uint64_t tag, double) {
  finish(static_cast<std::uint32_t>(tag));
}

void SimpleDisk::finish(std::uint32_t slot) {
  const sim::Time now = engine_.now();
  const Read r = reads_[slot];
  free_.push_back(slot);
  ++done_reads_;
  done_bytes_ += r.length;
  outstanding_.add(now, -1);
  if (outstanding_.value() == 0) busy_s_ += sim::to_seconds(now - busy_since_);
  r.listener->on_io_done(r.tag);
}

DiskStats SimpleDisk::stats() const {
  const sim::Time now = engine_.now();
  DiskStats s;
  s.reads = done_reads_;
  s.read_bytes = done_bytes_;
  s.busy_s = busy_s_ + (outstanding_.value() > 0 ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = outstanding_.integral(now);
  s.drives = 1;
  return s;
}

}  // namespace models
