// The md RAID10 layer itself ("near" layout), without its drives: chunk
// split, copy placement and read_balance, and which piece of which read each
// drive is serving. It takes no time of its own; its drives do.
//
// It is apart from the drives so that both engines run the same layer: the
// native Raid10 over models::Hdd drives on the event heap, and the SimGrid
// engine over drives that are actors. The owner keeps the drives alive.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/slot_pool.h"

namespace models {

struct Raid10Spec;

// md.read_balance: the versions of raid10.c's read_balance(), registered here.
enum class ReadBalance { kFirstIdle, kIdleAsZero, kIdlestNonrot };
struct ReadBalanceChoice {
  const char* name;
  ReadBalance rule;
};
const std::vector<ReadBalanceChoice>& read_balance_choices();
const ReadBalanceChoice* find_read_balance(const std::string& name);

// Why read_balance sent pieces to a member, counted per member (for the
// visualizer's "why does this drive hold these reads").
struct ReadBalanceCounts {
  std::uint64_t idle = 0;     // it had no read pending (3.x: the first idle copy ends the search)
  std::uint64_t head_at = 0;  // busy, but its head ends exactly where the piece starts (distance 0)
  std::uint64_t closer = 0;   // busy, and its head was the closest of the copies
};

class Raid10Layer final : public IoListener {
 public:
  // `drives`: the member drives, devices() of them, all alike.
  Raid10Layer(const Raid10Spec& spec, std::vector<BlockDevice*> drives);

  // A read on behalf of `task` (kNoTask: nobody known), split at chunk
  // boundaries; each piece goes to its member for the same task.
  void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag,
                   std::uint32_t task = kNoTask);
  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t readahead_bytes() const { return readahead_bytes_; }
  DiskStats stats() const;  // the drives' figures, summed
  std::vector<DiskStats> drive_stats() const;
  void reset_peaks() {
    for (BlockDevice* d : drives_) d->reset_peaks();
  }
  void start_plug(std::uint32_t task);  // the task's plug covers every member's queue
  void finish_plug();
  void set_slot_wait_listener(SlotWaitListener* listener);
  bool read_congested() const;
  // For the tests: reads in flight on member `device`, and where its head is.
  std::uint32_t pending(std::uint32_t device) const { return pending_[device]; }
  std::uint64_t head_position(std::uint32_t device) const { return head_position_[device]; }
  // Pieces sent to member `device` so far, by the reason read_balance chose it.
  const ReadBalanceCounts& balance_counts(std::uint32_t device) const { return balance_[device]; }
  const std::string& read_balance_name() const { return read_balance_name_; }
  std::uint32_t near_copies() const { return near_copies_; }
  void on_io_done(std::uint64_t tag) override;

  struct Copy {
    std::uint32_t device;
    std::uint64_t device_offset;
  };
  // Where the byte at logical `offset` lives: copy 0 .. near_copies-1.
  Copy locate(std::uint64_t offset, std::uint32_t copy) const;

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
  struct Choice {
    std::uint32_t copy;
    bool idle;
    std::uint64_t distance;
  };
  Choice choose_copy(std::uint64_t offset) const;

  std::uint32_t devices_;
  std::uint32_t near_copies_;
  ReadBalance read_balance_ = ReadBalance::kFirstIdle;
  std::string read_balance_name_;
  std::uint64_t chunk_bytes_;
  std::uint64_t capacity_;
  std::uint64_t readahead_bytes_;
  std::vector<BlockDevice*> drives_;
  std::vector<std::uint32_t> pending_;        // reads in flight per member
  std::vector<std::uint64_t> head_position_;  // end of last completed read per member
  std::vector<ReadBalanceCounts> balance_;    // per member
  sim::SlotPool<Read> reads_;
  sim::SlotPool<Piece> pieces_;
};

// The layer's view of the drives an owner keeps.
template <class Drive>
std::vector<BlockDevice*> raid10_drives(const std::vector<std::unique_ptr<Drive>>& owned) {
  std::vector<BlockDevice*> out;
  for (const auto& d : owned) out.push_back(d.get());
  return out;
}

}  // namespace models
