// Linux md RAID10, "near" layout: each chunk is stored on `near_copies`
// adjacent member drives. A read is split at chunk boundaries; each piece goes
// to one copy, chosen as raid10.c's read_balance() does (raid10_layer.cpp:
// in 3.x the first idle copy, else the copy whose drive's last completed
// read ended closest, the first of equals; md.read_balance picks the
// version). The read completes when all its pieces have.
//
// md raises the array's readahead to at least two stripes (raid10.c), where a
// stripe is raid_disks * chunk / near_copies.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/hdd.h"
#include "models/hardware/queued_device.h"
#include "models/hardware/raid10_layer.h"

namespace models {

struct Raid10Spec {
  std::uint32_t devices = 4;
  std::uint32_t near_copies = 2;
  std::uint64_t chunk_bytes = 512 * 1024;
  HddSpec member;
  std::string read_balance = "3.x";  // md.read_balance: read_balance_choices() (raid10_layer.h)
};

// md RAID10 over models::Hdd drives on the event heap: the drives, and the
// layer (raid10_layer.h) that both engines share.
class Raid10 final : public BlockDevice {
 public:
  // `block`: a request queue in front of each member (block_queue.h), or none.
  Raid10(sim::Engine& engine, const Raid10Spec& spec, const BlockQueueSpec* block = nullptr);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                   std::uint64_t tag) override {
    layer_.submit_read(offset, length, listener, tag);
  }
  std::uint64_t capacity() const override { return layer_.capacity(); }
  std::uint64_t readahead_bytes() const override { return layer_.readahead_bytes(); }
  DiskStats stats() const override { return layer_.stats(); }
  void start_plug(std::uint32_t task) override { layer_.start_plug(task); }
  void finish_plug() override { layer_.finish_plug(); }
  void submit_read_for(std::uint32_t task, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                       std::uint64_t tag) override {
    layer_.submit_read(offset, length, listener, tag, task);
  }
  void set_slot_wait_listener(SlotWaitListener* listener) override { layer_.set_slot_wait_listener(listener); }
  bool read_congested() const override { return layer_.read_congested(); }
  std::vector<DiskStats> drive_stats() const override { return layer_.drive_stats(); }
  void reset_peaks() override { layer_.reset_peaks(); }

  using Copy = Raid10Layer::Copy;
  // Where the byte at logical `offset` lives: copy 0 .. near_copies-1.
  Copy locate(std::uint64_t offset, std::uint32_t copy) const { return layer_.locate(offset, copy); }
  const Hdd& member(std::uint32_t i) const { return *members_[i]; }
  // The member's request queue, or null without the block layer.
  const QueuedDevice* queue(std::uint32_t i) const { return queues_.empty() ? nullptr : queues_[i].get(); }
  std::uint32_t devices() const { return static_cast<std::uint32_t>(members_.size()); }
  const Raid10Layer& layer() const { return layer_; }

 private:
  static std::vector<std::unique_ptr<Hdd>> make_members(sim::Engine& engine, const Raid10Spec& spec);

  std::vector<std::unique_ptr<Hdd>> members_;  // before queues_ and layer_, which point at them
  std::vector<std::unique_ptr<QueuedDevice>> queues_;
  Raid10Layer layer_;
};

}  // namespace models
