// Linux md RAID10, "near" layout: each chunk is stored on `near_copies`
// adjacent member drives. A read is split at chunk boundaries; each piece goes
// to one copy, chosen as md's read_balance does: a drive whose head sits
// exactly where the piece starts (sequential), else an idle drive, else the
// drive whose last completed read ended closest. The read completes when all
// its pieces have.
//
// md raises the array's readahead to at least two stripes (raid10.c), where a
// stripe is raid_disks * chunk / near_copies.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/hardware/hdd.h"

namespace models {

struct Raid10Spec {
  std::uint32_t devices = 4;
  std::uint32_t near_copies = 2;
  std::uint64_t chunk_bytes = 512 * 1024;
  HddSpec member;
};

class Raid10 final : public BlockDevice, public IoListener {
 public:
  Raid10(sim::Engine& engine, const Raid10Spec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return capacity_; }
  std::uint64_t readahead_bytes() const override;
  DiskStats stats() const override;
  void on_io_done(std::uint64_t tag) override;

  struct Copy {
    std::uint32_t device;
    std::uint64_t device_offset;
  };
  // Where the byte at logical `offset` lives: copy 0 .. near_copies-1.
  Copy locate(std::uint64_t offset, std::uint32_t copy) const;
  const Hdd& member(std::uint32_t i) const { return *members_[i]; }
  std::uint32_t devices() const { return spec_.devices; }

 private:
  struct Read {
    IoListener* listener;
    std::uint64_t tag;
    std::uint32_t pieces_left;
  };
  struct Piece {
    std::uint32_t read;
    std::uint32_t device;
    std::uint64_t end;  // device offset where this piece ends
  };
  std::uint32_t choose_copy(std::uint64_t offset) const;

  sim::Engine& engine_;
  Raid10Spec spec_;
  std::uint64_t capacity_;
  std::vector<std::unique_ptr<Hdd>> members_;
  std::vector<std::uint32_t> pending_;        // reads in flight per member
  std::vector<std::uint64_t> head_position_;  // end of last completed read per member
  std::vector<Read> reads_;
  std::vector<std::uint32_t> free_reads_;
  std::vector<Piece> pieces_;
  std::vector<std::uint32_t> free_pieces_;
};

}  // namespace models
