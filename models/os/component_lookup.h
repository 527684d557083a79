// lookup_slow() of one path component whose dentry is missing, as ext4
// answers it (fs/namei.c lookup_slow -> ext4_lookup, 3.13): the name is
// found in the parent directory's block(s) (ext4_find_entry; which blocks:
// Ext4Layout::lookup_blocks), then the inode is got by number (ext4_iget:
// an inode-cache hit, or __ext4_get_inode_loc: its inode-table block, with
// inode_readahead_blks of readahead: Ext4Layout::inode_read). Each block goes
// through the buffer cache (PageCache::read_block): a hit costs nothing, a
// miss is read from the device and waited for, one block after another.
//
// Clock-free: it asks the cache and says what to wait for; the waiting, and
// the dentry cache in front of it, are the caller's. The model's path walk
// (path_walk.h) and clerk-disk's FUSE lookup (testbed/disk/metadata.h) both
// use it, so they read the same blocks, at the same places, in the same
// order.
#pragma once
#include <cstdint>

#include "models/os/ext4_layout.h"
#include "models/os/page_cache.h"

namespace models {

// The inode cache's hash lookup (iget), asked once the directory blocks are
// read (ext4_lookup reads the entry first, then gets the inode it names).
class InodeCacheQuery {
 public:
  virtual bool inode_cached(std::uint64_t key) = 0;

 protected:
  ~InodeCacheQuery() = default;
};

// The kind of block a lookup waits for.
enum class MetadataBlock : std::uint8_t { kNone, kDirectory, kInodeTable };

class ComponentLookup {
 public:
  // A lookup of the component `key` (Filesystem::components' keys).
  void start(std::uint64_t key, const Ext4Layout& layout);
  // Reads on until a block is missing: returns its kind, and `waiter` is
  // called with `tag` when it is ready (call resume(), then run() again);
  // kNone: the lookup is complete (the name found, the inode in memory).
  MetadataBlock run(const Ext4Layout& layout, PageCache& cache, InodeCacheQuery& inodes, PageWaiter* waiter,
                    std::uint64_t tag);
  // After the wait: the block waited for is accessed (mark_page_accessed).
  void resume(PageCache& cache) const { cache.access_block_after_wait(waiting_block_); }
  std::uint64_t key() const { return key_; }

 private:
  enum class Stage : std::uint8_t { kDirBlocks, kInode, kDone };
  std::uint64_t key_ = 0;
  std::uint64_t dir_blocks_[2] = {0, 0};
  std::uint32_t dir_count_ = 0, dir_next_ = 0;
  std::uint64_t waiting_block_ = 0;
  Stage stage_ = Stage::kDone;
};

}  // namespace models
