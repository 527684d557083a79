// The block layer's request queue of one device, without a clock: request
// slots, plugging, merging, the elevator, and the device's tags. It mirrors
// block/blk-core.c of Linux 3.13 (single-queue) and, where named, blk-mq.
//
// A bio (a read of a byte range) first tries to merge: into a request in the
// submitter's plug (attempt_plug_merge), else into a request queued in the
// elevator (elv_merge: back, and front where the elevator allows it), up to
// max_sectors_kb per request (ll_back_merge_fn). A merged bio needs no slot.
//
// Otherwise it needs a request slot (get_request / __get_request). The queue
// has nr_requests of them (BLKDEV_MAX_RQ, 128). Allocating the slot that
// makes nr_requests - nr_requests/8 + 1 requests marks the queue congested
// (blk_queue_congestion_threshold: 113 of 128), which makes readahead skip
// its asynchronous windows (page_cache_async_readahead checks
// bdi_read_congested); it is cleared below nr_requests - nr/8 - nr/16 - 1
// (103). The task that takes the last slot becomes a "batcher" and marks the
// queue full; from then on only batchers get slots, up to 3/2 nr_requests.
// Any other task sleeps in D (TASK_UNINTERRUPTIBLE, io_schedule) on an
// exclusive wait queue: each freed slot, while fewer than nr_requests are
// allocated, wakes the first sleeper and clears "full" (__freed_request).
// A woken task becomes a batcher (ioc_set_batching): it may take
// BLK_BATCH_REQ (32) slots within BLK_BATCH_TIME (HZ/50, 20 ms) whatever the
// count, so that one readahead window goes in whole. A task that sleeps
// first flushes its plug (schedule() calls blk_schedule_flush_plug); its
// later bios wait behind it.
//
// blk-mq (mq-deadline, none) has no request lists: a request is a scheduler
// tag (nr_requests of them, no batchers, no overflow), and sleepers on the
// tag bitmap are woken wake_batch at a time after wake_batch tags are freed
// (lib/sbitmap.c: wake_batch = clamp(depth / 8, 1, 8)).
//
// Under a plug (blk_start_plug: readahead's read_pages()) requests wait in
// the task's plug list and go to the elevator together at blk_finish_plug,
// sorted by sector, each trying to merge with a queued one as it goes in
// (ELEVATOR_INSERT_SORT_MERGE); a plug holding BLK_MAX_REQUEST_COUNT (16)
// requests is flushed before the next is added.
//
// The device takes requests from the elevator while it has a free tag
// (queue_depth: libata's 31, ATA_MAX_QUEUE 32 less the internal tag), at
// insertion and at every completion (__blk_run_queue, scsi_request_fn).
//
// Accounting is /proc/diskstats': a request is in flight from its
// allocation to its completion; merges count bios merged into requests.
//
// What is left out: clerk submits reads only, so one count stands for
// rl->count[BLK_RW_SYNC]; a woken sleeper runs at once (its scheduling
// delay is the CPU model's, not here); segment limits (max_segments 128
// of 4 KiB pages) never bind before max_sectors_kb here.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/container/flat_map.hpp>

#include "models/hardware/block_device.h"
#include "models/hardware/elevator.h"
#include "sim/slot_pool.h"
#include "sim/time.h"
#include "sim/time_average.h"

namespace models {

struct BlockQueueSpec {
  std::string scheduler = "deadline";  // elevator_choices() names
  DeadlineTunables deadline;
  std::uint32_t nr_requests = 128;     // BLKDEV_MAX_RQ (include/linux/blkdev.h, 3.13)
  std::uint32_t batch_requests = 32;   // BLK_BATCH_REQ (block/blk.h, 3.13)
  double batch_time_s = 0.02;          // BLK_BATCH_TIME = HZ/50 (block/blk.h, 3.13)
  std::uint64_t max_sectors_kb = 512;  // BLK_DEF_MAX_SECTORS = 1024 sectors (include/linux/blkdev.h, 3.13)
  std::uint32_t queue_depth = 31;      // libata: ATA_MAX_QUEUE 32 less ATA_TAG_INTERNAL (include/linux/libata.h)
  std::uint32_t max_plugged = 16;      // BLK_MAX_REQUEST_COUNT (block/blk-core.c, 3.13)
};

class BlockQueue {
 public:
  class Device {
   public:
    virtual void issue(sim::Time now, std::uint32_t request, std::uint64_t offset, std::uint64_t length) = 0;

   protected:
    ~Device() = default;
  };

  BlockQueue(const BlockQueueSpec& spec, Device& device);

  // A bio from `task` (kNoTask: nobody known); inside a plug section the
  // plug's task submits it.
  void submit(sim::Time now, std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag,
              bool write = false, std::uint32_t task = kNoTask);
  void start_plug(std::uint32_t task);
  void finish_plug(sim::Time now);
  // The device has finished `request`: its tag and slot are freed, the queue
  // runs and sleepers wake; its bios' listeners are told last.
  void complete(sim::Time now, std::uint32_t request);

  bool congested() const { return congested_; }
  void set_slot_wait_listener(SlotWaitListener* l) { slot_listener_ = l; }
  DiskStats stats(sim::Time now) const;
  // The maxima count from now on: what is outstanding and asleep now.
  void reset_peaks() {
    max_outstanding_ = count_;
    max_sleepers_ = static_cast<std::uint32_t>(waiters_.size());
  }
  const BlockQueueSpec& spec() const { return spec_; }
  bool blk_mq() const { return blk_mq_; }
  // For the tests.
  std::uint32_t allocated() const { return count_; }  // in the plug, the elevator or the drive
  std::size_t sleepers() const { return waiters_.size(); }
  std::uint32_t in_device() const { return in_device_; }

 private:
  struct Bio {
    IoListener* listener;
    std::uint64_t tag;
    std::uint32_t pieces_left;
  };
  struct Piece {
    std::uint32_t bio;
    std::uint64_t offset;
    std::uint64_t length;
    bool write;
  };
  struct Request {
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    bool write = false;
    bool in_elevator = false;
    sim::Time start = 0;
    std::vector<std::uint32_t> bios;
  };
  struct Submitter {
    std::uint32_t task = kNoTask;
    bool asleep = false;
    bool plugging = false;
    bool finish_pending = false;  // blk_finish_plug came while asleep
    std::uint32_t batch_left = 0;
    sim::Time last_waited = 0;
    sim::Time slept_at = 0;
    std::deque<Piece> pending;       // bios held while the task sleeps
    std::vector<std::uint32_t> plug;  // requests in the plug list
    std::uint32_t users = 0;          // plug section + pending: released at 0
  };

  std::uint32_t submitter_for(std::uint32_t task);
  void release_if_idle(std::uint32_t s);
  void process(sim::Time now, std::uint32_t s, const Piece& p);
  bool plug_merge(std::uint32_t s, const Piece& p);
  bool elevator_merge(sim::Time now, const Piece& p);
  bool fits(const Request& r, std::uint64_t more) const;
  void add_to_request(std::uint32_t rq, const Piece& p, bool front);
  bool get_request(sim::Time now, std::uint32_t s);
  bool batching(const Submitter& s, sim::Time now) const;
  void set_batching(Submitter& s, sim::Time now);
  std::uint32_t new_request(sim::Time now, const Piece& p);
  void sleep(sim::Time now, std::uint32_t s, const Piece& p);
  void drain_wakes(sim::Time now);
  void resume(sim::Time now, std::uint32_t s);
  void flush_plug(sim::Time now, std::uint32_t s);
  void insert(sim::Time now, std::uint32_t rq);
  bool insert_merge(sim::Time now, std::uint32_t rq);
  void merge_requests(sim::Time now, std::uint32_t into, std::uint32_t gone);
  void index(std::uint32_t rq);
  void unindex(std::uint32_t rq);
  void free_request(sim::Time now, std::uint32_t rq);
  void run_queue(sim::Time now);

  BlockQueueSpec spec_;
  Device& device_;
  std::unique_ptr<Elevator> elevator_;
  bool blk_mq_;
  std::uint64_t max_bytes_;
  std::uint32_t congestion_on_;
  std::uint32_t congestion_off_;
  std::uint32_t wake_batch_;
  sim::Time batch_time_;

  sim::SlotPool<Bio> bios_;
  sim::SlotPool<Request> requests_;
  sim::SlotPool<Submitter> submitters_;
  std::unordered_map<std::uint32_t, std::uint32_t> by_task_;
  std::uint32_t plugged_ = UINT32_MAX;  // the submitter whose plug is open
  // Requests queued in the elevator by start and by end (the kernel's merge
  // hash): sorted arrays, as in elevator.h, since at most 3/2 nr_requests
  // are queued.
  using Index = boost::container::flat_map<std::uint64_t, std::uint32_t>;
  Index by_start_;
  Index by_end_;
  std::deque<std::uint32_t> waiters_;  // sleeping submitters, in order
  std::uint32_t count_ = 0;            // slots allocated
  bool full_ = false;
  bool congested_ = false;
  std::uint32_t freed_since_wake_ = 0;  // blk-mq
  std::uint32_t in_device_ = 0;
  std::uint32_t wakes_due_ = 0;  // sleepers to wake once the current call is done
  bool draining_ = false;
  std::vector<std::vector<std::uint32_t>> done_;  // complete()'s finished bios, by nesting depth
  std::uint32_t completing_ = 0;

  SlotWaitListener* slot_listener_ = nullptr;
  // Accounting (/proc/diskstats).
  sim::TimeAverage in_flight_;
  sim::Time busy_since_ = 0;
  double busy_s_ = 0;
  std::uint64_t reads_ = 0;
  std::uint64_t read_bytes_ = 0;
  std::uint64_t merges_ = 0;
  double await_sum_s_ = 0;
  std::uint64_t slot_waits_ = 0;
  double slot_wait_s_ = 0;
  std::uint32_t max_outstanding_ = 0;
  std::uint32_t max_sleepers_ = 0;
};

}  // namespace models
