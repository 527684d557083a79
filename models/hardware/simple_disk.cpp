#include "models/hardware/simple_disk.h"

#include <stdexcept>

namespace models {

SimpleDisk::SimpleDisk(sim::Engine& engine, const SimpleDiskSpec& spec)
    : engine_(engine), spec_(spec), channel_(engine, spec.bandwidth_Bps) {
  if (!(spec.latency_s >= 0) || !(spec.bandwidth_Bps > 0))
    throw std::invalid_argument("simple disk: need latency >= 0 and bandwidth > 0");
}

std::uint32_t SimpleDisk::allocate(const Read& r) {
  const std::uint32_t slot = reads_.take();
  reads_[slot] = r;
  return slot;
}

void SimpleDisk::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                             std::uint64_t tag) {
  if (offset + length > capacity()) throw std::out_of_range("simple disk: read beyond the end of the disk");
  activity_.submitted(engine_.now());
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
  const Read r = reads_[slot];
  reads_.release(slot);
  activity_.done(engine_.now(), r.length);
  r.listener->on_io_done(r.tag);
}

DiskStats SimpleDisk::stats() const { return activity_.stats(engine_.now()); }

}  // namespace models
