// open() of a file: the path walk of fs/namei.c (link_path_walk,
// walk_component, lookup_slow) over the dentry cache, the inode cache and
// the buffer cache, reading from the device exactly what is missing, in
// order, with the caller waiting: open() has no non-blocking form, and in
// upstream NGINX it runs in the worker's event loop.
//
// For each component, outermost first:
//   dentry present (d_lookup)                 -> next component
//   else lookup_slow (component_lookup.h, shared with clerk-disk):
//   the name is looked up in the parent directory's block(s)
//     (ext4_find_entry: a buffer-cache hit, or a read the caller waits for),
//   then the inode by number (iget: an inode-cache hit, or
//     __ext4_get_inode_loc: its inode-table block, a buffer-cache hit, or a
//     read with inode_readahead_blks of readahead the caller waits for),
//   then d_add: the dentry exists again.
// The walk holds each resolved dentry until it ends (its struct path), so
// the shrinker cannot take a directory from under it; the file's dentry is
// put when the walk ends (NGINX closes the file after the response; the
// model does not hold it that long).
//
// Where the blocks are: ext4_layout.h. What is cached: vfs_cache.h and
// page_cache.h (read_block).
#pragma once
#include <cstdint>

#include "models/hardware/block_device.h"
#include "models/os/component_lookup.h"
#include "models/os/ext4_layout.h"
#include "models/os/page_cache.h"
#include "models/os/vfs_cache.h"
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

struct PathWalkStats {
  std::uint64_t walks = 0;
  std::uint64_t waits = 0;          // metadata block reads a walk waited for
  std::uint64_t dir_reads = 0;      // of them, directory blocks
  std::uint64_t inode_reads = 0;    // of them, inode-table blocks
};

class PathWalk final : public IoListener, public PageWaiter, private InodeCacheQuery {
 public:
  static constexpr std::uint64_t kMetadataWrite = 4096;

  PathWalk(BlockDevice& device, PageCache& cache, VfsCache& vfs, const Ext4Layout& layout,
           std::uint64_t write_seed)
      : device_(device), cache_(cache), vfs_(vfs), layout_(layout), seed_(write_seed) {}

  // `components` are the keys of each level, outermost first (at most 8).
  // Returns true when nothing had to be read (no wait); otherwise the
  // waiter is called with `tag` when the walk is complete.
  bool open(const std::uint64_t* components, std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag);

  // `count` metadata I/Os one after another (creating and renaming a file
  // updates its directory and inode): true when count is 0, otherwise the
  // waiter is called when they are done.
  bool metadata_writes(std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag);

  std::uint64_t metadata_reads() const { return stats_.waits; }
  PathWalkStats stats() const { return stats_; }
  std::uint64_t metadata_writes_done() const { return writes_; }
  void on_io_done(std::uint64_t tag) override;     // metadata writes
  void on_page_ready(std::uint64_t tag) override;  // metadata block reads
  // The task whose walk is reading a block now (PageCache::read_block asks).
  std::uint32_t submitter_task() const override { return reading_task_; }

 private:
  std::uint32_t reading_task_ = kNoTask;
  struct Walk {
    std::uint64_t components[8];
    std::uint32_t count = 0;
    std::uint32_t next = 0;
    bool slow = false;  // components[next]'s dentry missed: `lookup` runs
    ComponentLookup lookup;
    WalkWaiter* waiter = nullptr;
    std::uint64_t tag = 0;
    // metadata writes
    bool writes = false;
    std::uint32_t writes_left = 0;
  };
  // The inode cache's lookup in a walk (counted).
  bool inode_cached(std::uint64_t key) override { return vfs_.lookup_inode(key); }
  // Runs walk `w` until it waits (false) or ends (true; its dentries put).
  bool advance(std::uint32_t w);
  void finish(std::uint32_t w);
  std::uint64_t write_location(std::uint64_t serial) const;

  BlockDevice& device_;
  PageCache& cache_;
  VfsCache& vfs_;
  const Ext4Layout& layout_;
  std::uint64_t seed_;
  sim::SlotPool<Walk> walks_;
  PathWalkStats stats_;
  std::uint64_t writes_ = 0;
  std::uint64_t write_serial_ = 0;
};

}  // namespace models
