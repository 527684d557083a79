// The md layer itself (drivers/md), without its drives: where a logical
// byte lives on the members, how a read is split, which member serves each
// piece (read_balance), and which piece of which read each member is serving.
// It takes no time of its own; its drives do.
//
// Three levels, each as its kernel driver maps reads:
//  - RAID0 (raid0.c, map_sector() with one strip zone, as equal members
//    make): chunk k is on member k mod devices, at device offset
//    (k / devices) * chunk; a read is split at chunk boundaries
//    (raid0_make_request). One copy: no choice to make.
//  - RAID10, "near" layout (raid10.c): the copies of chunk k are device slots
//    k*nc .. k*nc+nc-1, counted row by row across the members; a read is split
//    at chunk boundaries and each piece goes to one copy, chosen by
//    raid10.c's read_balance() of the kernel md.read_balance names
//    (read_balance_choices()).
//  - RAID1 (raid1.c): every member holds the whole array at the same offset;
//    a read is split only at the 64 MiB barrier units (raid1.h
//    BARRIER_UNIT_SECTOR_SIZE, 1 << 17 sectors; raid1_make_request's
//    align_to_barrier_unit_end), and each piece goes to one member chosen as
//    raid1.c's read_balance() does in Linux 6.6 (6.9's choose_best_rdev() is
//    the same rule), members taken in order:
//      * a member where the piece continues its last read (next_seq_sect) or
//        whose head is there (head_position) takes it at once;
//      * else, if any member is non-rotational or some member is idle, the
//        member with the fewest pending reads (the first of equals);
//      * else the member whose head is closest (the first of equals).
//    The kernel's extra case for a non-rotational member with a nonzero
//    optimal I/O size (choose_next_idle) is left out: SATA SSDs report
//    optimal_io_size 0 (/sys/block/DEV/queue/optimal_io_size), and then it
//    never applies. md.read_balance does not apply to RAID1.
// A member's head is where its last completed read ended (update_head_pos,
// on completion); md starts every head at 0 (setup_conf), and so a read at
// offset 0 of an idle array goes to member 0.
//
// md raises a striped array's readahead to at least two stripes (RAID0 and
// RAID10 set io_opt to a stripe, and the block layer's readahead follows it),
// a stripe being devices * chunk / copies; RAID1 sets none.
//
// Only reads: md's writes (to every copy) are not modelled, as nothing in
// clerk writes.
//
// It is apart from the drives so that both engines run the same layer: the
// native MdArray over drives on the event heap, and the SimGrid engine over
// drives that are actors. The owner keeps the drives alive.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/slot_pool.h"

namespace models {

enum class MdLevel { kRaid0, kRaid1, kRaid10 };

// An array's geometry, as mdadm --create gives it.
struct MdLayout {
  MdLevel level = MdLevel::kRaid10;
  std::uint32_t devices = 4;               // mdadm --raid-devices
  std::uint32_t near_copies = 2;           // RAID10: mdadm --layout=n2
  std::uint64_t chunk_bytes = 512 * 1024;  // RAID0, RAID10: mdadm --chunk (default 512 KiB since mdadm 3.1)
  std::string read_balance = "3.x";        // RAID10: md.read_balance (read_balance_choices())
};

// What the layer needs of its member drives, all alike.
struct MdMembers {
  std::uint64_t capacity_bytes = 0;
  std::uint64_t readahead_bytes = 128 * 1024;
  bool nonrot = false;  // /sys/block/DEV/queue/rotational = 0 (an SSD)
};

// The bytes an array offers: a member's for RAID1; whole chunks per member,
// `copies` of each, for RAID0 and RAID10 (raid0.c rounds each member down to
// whole chunks).
std::uint64_t md_capacity(const MdLayout& layout, const MdMembers& members);

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
  std::uint64_t head_at = 0;  // its head ends exactly where the piece starts (RAID1: or its last read did)
  std::uint64_t closer = 0;   // busy, and its head was the closest of the copies
  std::uint64_t fewest = 0;   // busy, with the fewest reads pending (non-rotational members)
};

class MdLayer final : public IoListener {
 public:
  // `drives`: the member drives, layout.devices of them, all alike.
  MdLayer(const MdLayout& layout, const MdMembers& members, std::vector<BlockDevice*> drives);

  // A read on behalf of `task` (kNoTask: nobody known), split as the level
  // splits it; each piece goes to its member for the same task.
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
  // The rule that chose: raid10's md.read_balance version, or RAID1's own.
  const std::string& read_balance_name() const { return read_balance_name_; }
  MdLevel level() const { return level_; }
  std::uint32_t devices() const { return devices_; }
  // Copies of each byte: RAID10's near copies, every member for RAID1, one for RAID0.
  std::uint32_t copies() const { return copies_; }
  void on_io_done(std::uint64_t tag) override;

  struct Copy {
    std::uint32_t device;
    std::uint64_t device_offset;
  };
  // Where the byte at logical `offset` lives: copy 0 .. copies()-1.
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
  enum class Why { kIdle, kHeadAt, kCloser, kFewest, kOnly };
  struct Choice {
    std::uint32_t copy;
    Why why;
  };
  // The end of the piece that starts at `pos`: the chunk's, or RAID1's barrier unit's.
  std::uint64_t piece_end(std::uint64_t pos) const;
  Choice choose_copy(std::uint64_t offset) const;
  Choice raid10_balance(std::uint64_t offset) const;
  Choice raid1_balance(std::uint64_t offset) const;
  std::uint64_t distance(std::uint32_t device, std::uint64_t device_offset) const;

  MdLevel level_;
  std::uint32_t devices_;
  std::uint32_t copies_;
  bool nonrot_;
  ReadBalance read_balance_ = ReadBalance::kFirstIdle;
  std::string read_balance_name_;
  std::uint64_t split_bytes_;  // chunk, or RAID1's barrier unit
  std::uint64_t capacity_;
  std::uint64_t readahead_bytes_;
  std::vector<BlockDevice*> drives_;
  std::vector<std::uint32_t> pending_;        // reads in flight per member (nr_pending)
  std::vector<std::uint64_t> head_position_;  // end of last completed read per member
  std::vector<std::uint64_t> next_seq_;       // RAID1: where the last read sent to the member ends (next_seq_sect)
  std::vector<ReadBalanceCounts> balance_;    // per member
  sim::SlotPool<Read> reads_;
  sim::SlotPool<Piece> pieces_;
};

// The layer's view of the drives an owner keeps.
template <class Drive>
std::vector<BlockDevice*> md_drives(const std::vector<std::unique_ptr<Drive>>& owned) {
  std::vector<BlockDevice*> out;
  for (const auto& d : owned) out.push_back(d.get());
  return out;
}

}  // namespace models
