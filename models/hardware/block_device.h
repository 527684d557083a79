// What the OS sees of a disk: a device that reads byte ranges and says when
// each read is done. A single drive and an md array both look like this.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/hardware/drive_view.h"
#include "models/task_id.h"
#include "sim/time.h"

namespace models {

// Told when a task begins (asleep) or ends a sleep in D for a request slot
// (get_request, blk_mq_get_tag: block_queue.h).
class SlotWaitListener {
 public:
  virtual void slot_wait(sim::Time now, std::uint32_t task, bool asleep) = 0;

 protected:
  ~SlotWaitListener() = default;
};

class IoListener {
 public:
  virtual void on_io_done(std::uint64_t tag) = 0;

 protected:
  ~IoListener() = default;
};

struct DiskStats {
  std::uint64_t reads = 0;
  std::uint64_t read_bytes = 0;
  double busy_s = 0;           // summed over member drives
  double queue_depth_integral = 0;  // requests (queued + in service) x seconds, summed over drives
  std::uint32_t drives = 1;
  // The block layer's figures (block_queue.h), where a device has one;
  // summed over drives except the maxima.
  std::uint64_t merges = 0;            // bios merged into requests (iostat rrqm)
  double await_sum_s = 0;              // requests' allocation-to-completion times, summed
  std::uint64_t slot_waits = 0;        // sleeps for a request slot (get_request, blk_mq_get_tag)
  double slot_wait_s = 0;              // their time asleep, summed
  std::uint32_t max_outstanding = 0;   // most requests allocated at once (queue + drive)
  std::uint32_t max_sleepers = 0;      // most tasks asleep for a slot at once

  // Adds another device's figures: sums, except the maxima (drives is
  // left alone: an array says how many drives it counts).
  void add(const DiskStats& o) {
    reads += o.reads;
    read_bytes += o.read_bytes;
    busy_s += o.busy_s;
    queue_depth_integral += o.queue_depth_integral;
    merges += o.merges;
    await_sum_s += o.await_sum_s;
    slot_waits += o.slot_waits;
    slot_wait_s += o.slot_wait_s;
    max_outstanding = std::max(max_outstanding, o.max_outstanding);
    max_sleepers = std::max(max_sleepers, o.max_sleepers);
  }
};

class BlockDevice {
 public:
  virtual ~BlockDevice() = default;
  virtual void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                           std::uint64_t tag) = 0;
  virtual std::uint64_t capacity() const = 0;
  // The device's readahead limit (the block layer's ra_pages) in bytes.
  virtual std::uint64_t readahead_bytes() const = 0;
  virtual DiskStats stats() const = 0;

  // The block layer's additions (block_queue.h); a device without a request
  // queue keeps these defaults.
  // blk_start_plug / blk_finish_plug of the submitting task (kNoTask when
  // unknown): reads in between reach the queue together.
  virtual void start_plug(std::uint32_t /*task*/) {}
  virtual void finish_plug() {}
  // submit_read on behalf of `task` (the kernel's `current`) outside a plug,
  // so that a sleep for a request slot is the task's.
  virtual void submit_read_for(std::uint32_t /*task*/, std::uint64_t offset, std::uint64_t length,
                               IoListener* listener, std::uint64_t tag) {
    submit_read(offset, length, listener, tag);
  }
  // Who is told of the request-slot sleeps of every queue under this device.
  virtual void set_slot_wait_listener(SlotWaitListener* /*listener*/) {}
  // bdi_read_congested(): readahead skips its asynchronous windows.
  virtual bool read_congested() const { return false; }
  // The same of the device that holds `offset` (a set of disks, disk_set.h,
  // has one per member); a single device's own.
  virtual bool read_congested_at(std::uint64_t /*offset*/) const { return read_congested(); }
  virtual std::uint64_t readahead_bytes_at(std::uint64_t /*offset*/) const { return readahead_bytes(); }
  // One entry per drive, as iostat -x lists them.
  virtual std::vector<DiskStats> drive_stats() const { return {stats()}; }
  // The maxima in stats() count from now on (a measured window begins).
  virtual void reset_peaks() {}
  // What a front end shows of each drive (drive_view.h), in drive_stats'
  // order; none: a device with no drive to show (NoDisk).
  virtual std::vector<DriveView> drive_views() const { return {}; }
  // The device's own words on drive d of drive_views(); none: the front end's generic words.
  virtual DriveWords drive_words(std::uint32_t /*drive*/) const { return {}; }
};

}  // namespace models
