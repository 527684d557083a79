// open() of a file: resolve each directory level and then the file's inode.
// A component missing from the dentry/inode cache costs one metadata read
// from the device (the reference counts "up to 6 disk reads" for a 6-level
// path), at the place where that directory or inode lives, and the caller
// waits for it: open() has no non-blocking form.
#pragma once
#include <cstdint>
#include <vector>

#include "models/hardware/block_device.h"
#include "models/os/dentry_cache.h"
#include "sim/slot_pool.h"

namespace models {

class WalkWaiter {
 public:
  virtual void on_walk_done(std::uint64_t tag) = 0;
  // The task that walks (the kernel's `current`): a request-slot sleep of
  // its metadata reads is its (kNoTask: nobody known).
  virtual std::uint32_t submitter_task() const { return kNoTask; }

 protected:
  ~WalkWaiter() = default;
};

class PathWalk final : public IoListener {
 public:
  static constexpr std::uint64_t kMetadataRead = 4096;

  PathWalk(BlockDevice& device, DentryCache& cache, std::uint64_t metadata_seed)
      : device_(device), cache_(cache), seed_(metadata_seed) {}

  // `components` are the cache keys of each level, outermost first.
  // Returns true when every component was cached (no wait); otherwise the
  // waiter is called with `tag` when the walk is complete.
  bool open(const std::uint64_t* components, std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag);

  // `count` metadata I/Os one after another (creating and renaming a file
  // updates its directory and inode): true when count is 0, otherwise the
  // waiter is called when they are done.
  bool metadata_writes(std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag);

  std::uint64_t metadata_reads() const { return reads_; }
  std::uint64_t metadata_writes_done() const { return writes_; }
  void on_io_done(std::uint64_t tag) override;

 private:
  struct Walk {
    std::uint64_t components[8];
    std::uint32_t count;
    std::uint32_t next;
    WalkWaiter* waiter;
    std::uint64_t tag;
    bool writes;
  };
  // Takes a walk slot and issues the I/O for component `first`.
  void start(const std::uint64_t* components, std::uint32_t count, std::uint32_t first, bool writes,
             WalkWaiter* waiter, std::uint64_t tag);
  std::uint64_t location(std::uint64_t key) const;

  BlockDevice& device_;
  DentryCache& cache_;
  std::uint64_t seed_;
  sim::SlotPool<Walk> walks_;
  std::uint64_t reads_ = 0;
  std::uint64_t writes_ = 0;
  std::uint64_t write_serial_ = 0;
};

}  // namespace models
