// Several independent disks of one machine, each its own block device with
// its own queue and heads, mounted at its own place (the 9x article's
// caching proxy: one proxy_cache_path per disk). The OS's one page cache
// reads them all (one memory), so the set is one BlockDevice to it: the
// members' address spaces one after another, member 0 (the machine's
// [disk]) first, each read sent to the member whose range holds it. A file
// lives on exactly one member (filesystem.h places it), so no read crosses
// from one member to the next; one that did would be a bug, and throws.
//
// What the block layer keeps per device stays per member: readahead's
// limit (the bdi's ra_pages) and congestion (bdi_read_congested) are asked
// of the member holding the offset (readahead_bytes_at, read_congested_at).
// iostat lists every member's drives in order.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/block_device.h"

namespace models {

class DiskSet final : public BlockDevice {
 public:
  struct Member {
    std::string name;
    std::unique_ptr<BlockDevice> device;
  };
  explicit DiskSet(std::vector<Member> members);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag) override;
  void submit_read_for(std::uint32_t task, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                       std::uint64_t tag) override;
  std::uint64_t capacity() const override { return bases_.back(); }
  // Member 0's (the [disk]'s); readahead_bytes_at says each member's.
  std::uint64_t readahead_bytes() const override { return members_.front().device->readahead_bytes(); }
  std::uint64_t readahead_bytes_at(std::uint64_t offset) const override;
  DiskStats stats() const override;
  void start_plug(std::uint32_t task) override;
  void finish_plug() override;
  void set_slot_wait_listener(SlotWaitListener* listener) override;
  bool read_congested() const override { return members_.front().device->read_congested(); }
  bool read_congested_at(std::uint64_t offset) const override;
  std::vector<DiskStats> drive_stats() const override;
  void reset_peaks() override;
  std::vector<DriveView> drive_views() const override;
  DriveWords drive_words(std::uint32_t drive) const override;

  std::size_t members() const { return members_.size(); }
  const std::string& name(std::size_t m) const { return members_[m].name; }
  const BlockDevice& member(std::size_t m) const { return *members_[m].device; }
  // Where member m's range begins in the set's address space.
  std::uint64_t base(std::size_t m) const { return bases_[m]; }
  // The member whose range holds `offset`.
  std::size_t member_of(std::uint64_t offset) const;

 private:
  std::vector<Member> members_;
  std::vector<std::uint64_t> bases_;  // members_.size() + 1: each member's start, then the end
};

}  // namespace models
