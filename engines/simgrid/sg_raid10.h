// md RAID10 (near layout) over SimGrid drives: the layer of models::Raid10
// (chunk split, copy placement, read_balance) over SgHdd members. The layer
// itself takes no time; the members' actors do.
#pragma once
#include <cstdint>
#include <memory>
#include <simgrid/s4u/Host.hpp>
#include <vector>

#include "engines/simgrid/sg_hdd.h"
#include "models/hardware/raid10.h"

namespace sgengine {

class SgRaid10 final : public models::BlockDevice, public models::IoListener {
 public:
  SgRaid10(simgrid::s4u::Host* host, const models::Raid10Spec& spec);

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
                   std::uint64_t tag) override;
  std::uint64_t capacity() const override { return capacity_; }
  std::uint64_t readahead_bytes() const override;
  models::DiskStats stats() const override;
  void on_io_done(std::uint64_t tag) override;

 private:
  struct Copy {
    std::uint32_t device;
    std::uint64_t device_offset;
  };
  struct Read {
    models::IoListener* listener;
    std::uint64_t tag;
    std::uint32_t pieces_left;
  };
  struct Piece {
    std::uint32_t read;
    std::uint32_t device;
    std::uint64_t end;  // device offset where this piece ends
  };
  Copy locate(std::uint64_t offset, std::uint32_t copy) const;
  std::uint32_t choose_copy(std::uint64_t offset) const;

  models::Raid10Spec spec_;
  std::uint64_t capacity_;
  std::vector<std::unique_ptr<SgHdd>> members_;
  std::vector<std::uint32_t> pending_;        // reads in flight per member
  std::vector<std::uint64_t> head_position_;  // end of the last completed read per member
  std::vector<Read> reads_;
  std::vector<std::uint32_t> free_reads_;
  std::vector<Piece> pieces_;
  std::vector<std::uint32_t> free_pieces_;
};

}  // namespace sgengine
