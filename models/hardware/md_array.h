// Linux md arrays (md_layer.h: RAID0, RAID1 and RAID10 near layout) over
// drives on the event heap, and the specs of the disk kinds built of them.
// A member is a spinning drive (hdd.h), behind its own request queue when the
// block layer is modelled, or an SSD (ssd.h), without one, as a lone drive of
// each kind is built. All members are alike, as mdadm arrays usually are.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <variant>
#include <vector>

#include "models/hardware/hdd.h"
#include "models/hardware/md_layer.h"
#include "models/hardware/queued_device.h"
#include "models/hardware/ssd_drive.h"
#include "sim/engine.h"
#include "sim/random.h"

namespace models {

// A member's datasheet: the keys of a disk of type "hdd" or "ssd".
using MdMember = std::variant<HddSpec, SsdSpec>;

struct MdArraySpec {
  MdLayout layout;
  MdMember member;
};
// One spec type per disk kind (disk_spec.h), alike but for the level.
struct Raid0Spec : MdArraySpec {
  Raid0Spec() { layout = MdLayout{MdLevel::kRaid0, 2, 1, layout.chunk_bytes, layout.read_balance}; }
};
struct Raid1Spec : MdArraySpec {
  Raid1Spec() { layout = MdLayout{MdLevel::kRaid1, 2, 2, layout.chunk_bytes, layout.read_balance}; }
};
struct Raid10Spec : MdArraySpec {};  // MdLayout's defaults: the 2015 array's 4 drives, n2, 512 KiB

// What the md layer needs of the members: capacity, readahead, rotational.
MdMembers md_members(const MdMember& member);

// Builds member `index` of an array (its random stream is the caller's to give).
using MdMemberFactory = std::function<std::unique_ptr<BlockDevice>(std::uint32_t index)>;
// The native members: Hdd drives (each behind a request queue when `block`
// is set) or Ssd drives, drawing from `ssd_stream(index)`.
MdMemberFactory native_md_members(sim::Engine& engine, const MdMember& member, const BlockQueueSpec* block,
                                  std::function<sim::RandomStream(std::uint32_t)> ssd_stream);

class MdArray final : public BlockDevice {
 public:
  MdArray(const MdArraySpec& spec, const MdMemberFactory& make_member);

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
  // Each member's view (through its queue, if it has one); why a member got its reads.
  std::vector<DriveView> drive_views() const override;
  DriveWords drive_words(std::uint32_t drive) const override;

  using Copy = MdLayer::Copy;
  // Where the byte at logical `offset` lives: copy 0 .. copies()-1.
  Copy locate(std::uint64_t offset, std::uint32_t copy) const { return layer_.locate(offset, copy); }
  const BlockDevice& member(std::uint32_t i) const { return *members_[i]; }
  // The member's request queue, or null (no block layer, or an SSD member).
  const QueuedDevice* queue(std::uint32_t i) const { return dynamic_cast<const QueuedDevice*>(members_[i].get()); }
  std::uint32_t devices() const { return static_cast<std::uint32_t>(members_.size()); }
  const MdLayer& layer() const { return layer_; }

 private:
  static std::vector<std::unique_ptr<BlockDevice>> make_members(const MdArraySpec& spec, const MdMemberFactory& make);

  std::vector<std::unique_ptr<BlockDevice>> members_;  // before layer_, which points at them
  MdLayer layer_;
};

}  // namespace models
