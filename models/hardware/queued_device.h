// A device behind its block-layer request queue (block_queue.h): what the
// page cache, the path walk and md submit to. The queue decides what the
// device below sees and when; the device (an HddDrive-backed drive on
// either engine, any BlockDevice) serves what it is given. The queue has no
// clock of its own: it reads the engine's through `Clock`, so the native
// engine and the SimGrid engine run the same model.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "models/hardware/block_device.h"
#include "models/hardware/block_queue.h"

namespace models {

class QueuedDevice final : public BlockDevice, public IoListener, private BlockQueue::Device {
 public:
  using Clock = std::function<sim::Time()>;
  QueuedDevice(BlockDevice& below, const BlockQueueSpec& spec, Clock clock)
      : below_(below), clock_(std::move(clock)), queue_(spec, *this) {}
  // The queue owns the device below.
  QueuedDevice(std::unique_ptr<BlockDevice> below, const BlockQueueSpec& spec, Clock clock)
      : owned_(std::move(below)), below_(*owned_), clock_(std::move(clock)), queue_(spec, *this) {}

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag) override {
    queue_.submit(clock_(), offset, length, listener, tag);
  }
  std::uint64_t capacity() const override { return below_.capacity(); }
  std::uint64_t readahead_bytes() const override { return below_.readahead_bytes(); }
  DiskStats stats() const override { return queue_.stats(clock_()); }
  void reset_peaks() override { queue_.reset_peaks(); }
  void start_plug(std::uint32_t task) override { queue_.start_plug(task); }
  void finish_plug() override { queue_.finish_plug(clock_()); }
  void submit_read_for(std::uint32_t task, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                       std::uint64_t tag) override {
    queue_.submit(clock_(), offset, length, listener, tag, false, task);
  }
  void set_slot_wait_listener(SlotWaitListener* listener) override { queue_.set_slot_wait_listener(listener); }
  bool read_congested() const override { return queue_.congested(); }
  std::vector<DriveView> drive_views() const override { return {{queue_.allocated() + queue_.sleepers(), &queue_}}; }

  void on_io_done(std::uint64_t tag) override { queue_.complete(clock_(), static_cast<std::uint32_t>(tag)); }
  BlockQueue& queue() { return queue_; }
  const BlockQueue& queue() const { return queue_; }

 private:
  void issue(sim::Time, std::uint32_t request, std::uint64_t offset, std::uint64_t length) override {
    below_.submit_read(offset, length, this, request);
  }

  std::unique_ptr<BlockDevice> owned_;  // before below_, which may refer to it
  BlockDevice& below_;
  Clock clock_;
  BlockQueue queue_;
};

// One queue in front of each of `drives`.
inline std::vector<std::unique_ptr<QueuedDevice>> queue_each(const std::vector<BlockDevice*>& drives,
                                                             const BlockQueueSpec& spec,
                                                             const QueuedDevice::Clock& clock) {
  std::vector<std::unique_ptr<QueuedDevice>> out;
  for (BlockDevice* d : drives) out.push_back(std::make_unique<QueuedDevice>(*d, spec, clock));
  return out;
}

}  // namespace models
