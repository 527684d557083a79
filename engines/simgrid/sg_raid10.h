// md RAID10 (near layout) over SimGrid drives: the layer of models::Raid10
// (raid10_layer.h: chunk split, copy placement, read_balance) over SgHdd
// members. The layer itself takes no time; the members' actors do.
#pragma once
#include <cstdint>
#include <memory>
#include <simgrid/s4u/Host.hpp>
#include <vector>

#include "engines/simgrid/sg_hdd.h"
#include "models/hardware/raid10.h"
#include "models/hardware/queued_device.h"
#include "models/hardware/raid10_layer.h"

namespace sgengine {

class SgRaid10 final : public models::BlockDevice {
 public:
  // `block`: a request queue in front of each member (models/hardware/block_queue.h), or none.
  SgRaid10(simgrid::s4u::Host* host, const models::Raid10Spec& spec, const models::BlockQueueSpec* block = nullptr);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override {
    layer_.submit_read(offset, length, listener, tag);
  }
  std::uint64_t capacity() const override { return layer_.capacity(); }
  std::uint64_t readahead_bytes() const override { return layer_.readahead_bytes(); }
  models::DiskStats stats() const override { return layer_.stats(); }
  void start_plug(std::uint32_t task) override { layer_.start_plug(task); }
  void finish_plug() override { layer_.finish_plug(); }
  void submit_read_for(std::uint32_t task, std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                       std::uint64_t tag) override {
    layer_.submit_read(offset, length, listener, tag, task);
  }
  void set_slot_wait_listener(models::SlotWaitListener* listener) override { layer_.set_slot_wait_listener(listener); }
  bool read_congested() const override { return layer_.read_congested(); }
  std::vector<models::DiskStats> drive_stats() const override { return layer_.drive_stats(); }
  void reset_peaks() override { layer_.reset_peaks(); }

 private:
  static std::vector<std::unique_ptr<SgHdd>> make_members(simgrid::s4u::Host* host, const models::Raid10Spec& spec);

  std::vector<std::unique_ptr<SgHdd>> members_;  // before queues_ and layer_, which point at them
  std::vector<std::unique_ptr<models::QueuedDevice>> queues_;
  models::Raid10Layer layer_;
};

}  // namespace sgengine
