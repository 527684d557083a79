// What a FUSE lookup costs on the emulated disk: the metadata reads the
// model's path walk makes for a component whose dentry is missing
// (models/os/path_walk.h), issued to the same disk model at the same block
// addresses and sizes, through the same code (models/os/component_lookup.h:
// ext4_find_entry's directory block(s), then, unless the inode is in
// memory, __ext4_get_inode_loc's inode-table block with
// inode_readahead_blks of readahead, each through a buffer cache).
//
// Who decides what, against the model:
//  - the dentry cache: the real kernel's. The kernel sends FUSE_LOOKUP
//    only for a name its dcache does not hold (entries and attributes never
//    expire: disk_fs.h), so a dentry the kernel still caches costs nothing,
//    as the model's d_lookup hit, and one its shrinker reclaimed under the
//    server's memory cgroup is looked up again, and charged;
//  - the inode cache: the kernel's FUSE inodes (KernelInodes), and behind
//    them ext4's (Ext4Inodes). FUSE drops an inode as soon as its last
//    dentry goes (fuse_super_operations' drop_inode is generic_delete_inode,
//    and the kernel then sends FUSE_FORGET), so the kernel holds an inode
//    exactly while it holds one of its dentries. ext4 keeps an unused inode
//    on the inode LRU until the shrinker takes it (vfs_cache.h), so the
//    model finds some inodes after a dentry miss, and reads no inode-table
//    block for them. That is modelled: the model's VfsCache (clerk-disk's
//    own, whose shrinker runs on the reclaim of clerk-disk's view of the page
//    cache, cache_pressure.h) holds a dentry for each name the kernel holds,
//    pinned while it holds it; the kernel's forget kills it as the model's
//    shrinker would have (VfsCache::drop: its inode onto the inode LRU), and
//    the inode stays until the model's shrinker takes it. An inode is cached
//    when the kernel holds it or the model's inode LRU still does. The
//    dentries' and inodes' slab is charged to clerk-disk's view of memory
//    as in the model;
//  - the buffer cache: the model's PageCache::read_block (the same code and
//    readahead), over clerk-disk's own PageCache, the page_cache size of the
//    scenario. The real page cache holds no such blocks (FUSE has no block
//    device), so whether one is still cached is modelled, here: the blocks
//    share that PageCache's LRU with the data the kernel reads through FUSE
//    and the files it opens (cache_pressure.h), and reclaim takes a block no
//    lookup has used for a while, which a later lookup reads again, as in
//    the model. The daemon's report gives the block reads and evictions, to
//    set beside the model's ("metadata blocks ... read");
//  - names that do not exist: answered at once, without a read (ENOENT; the
//    model never looks up a name the data set lacks), as are names longer
//    than ext4's 255 bytes (ENAMETOOLONG, as ext4_lookup answers).
//
// MetadataReads and Ext4Inodes run on the disk model's thread
// (realtime_disk.h: a job, a note), KernelInodes is updated from libfuse's
// threads and read from it.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "emulated_machine.h"
#include "models/os/component_lookup.h"
#include "models/os/ext4_layout.h"
#include "models/os/page_cache.h"
#include "models/os/vfs_cache.h"
#include "sim/slot_pool.h"

namespace testbed::disk {

// Told when a lookup that had to read is complete.
class LookupListener {
 public:
  virtual void lookup_done(std::uint64_t tag) = 0;

 protected:
  ~LookupListener() = default;
};

struct MetadataStats {
  std::uint64_t lookups = 0;      // lookups issued to the model
  std::uint64_t waits = 0;        // metadata block reads a lookup waited for
  std::uint64_t dir_reads = 0;    // of them, directory blocks
  std::uint64_t inode_reads = 0;  // of them, inode-table blocks
};

class MetadataReads final : private models::PageWaiter {
 public:
  MetadataReads(models::PageCache& cache, const models::Ext4Layout& layout, models::InodeCacheQuery& inodes,
                LookupListener& listener)
      : cache_(cache), layout_(layout), inodes_(inodes), listener_(listener) {}

  // The lookup of the component `key` (Filesystem::components' keys): true
  // when nothing had to be read; otherwise listener.lookup_done(tag) once the
  // blocks it waits for are read.
  bool lookup(std::uint64_t key, std::uint64_t tag);
  MetadataStats stats() const { return stats_; }

 private:
  struct Pending {
    models::ComponentLookup lookup;
    std::uint64_t tag = 0;
  };
  bool advance(std::uint32_t slot);
  void on_page_ready(std::uint64_t slot) override;

  models::PageCache& cache_;
  const models::Ext4Layout& layout_;
  models::InodeCacheQuery& inodes_;
  LookupListener& listener_;
  sim::SlotPool<Pending> pending_;
  MetadataStats stats_;
};

// The FUSE inodes the kernel holds: each inode's lookups replied, less those
// it forgot (FUSE_FORGET, FUSE_BATCH_FORGET). Thread-safe.
class KernelInodes final : public models::InodeCacheQuery {
 public:
  explicit KernelInodes(const EmulatedMachine& machine);
  void looked_up(std::uint64_t ino);
  void forget(std::uint64_t ino, std::uint64_t lookups);
  bool held(std::uint64_t ino) const;
  // By the model's key (MetadataReads asks).
  bool inode_cached(std::uint64_t key) override { return held(machine_.ino_of_key(key)); }

 private:
  const EmulatedMachine& machine_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> lookups_;  // by inode number
};

// ext4's dentries and inodes behind the kernel's (the inode cache, above):
// the model's VfsCache kept in step with KernelInodes.
class Ext4Inodes final : public models::InodeCacheQuery {
 public:
  Ext4Inodes(const EmulatedMachine& machine, const KernelInodes& kernel, models::VfsCache& vfs);
  // After the kernel's count of `ino` changed (a lookup replied, a forget),
  // in any order: the model's dentry follows what the kernel holds now.
  // Anything but an inode of the tree is ignored.
  void sync(std::uint64_t ino);
  // Held by the kernel, or still on the model's inode LRU.
  bool inode_cached(std::uint64_t key) override;
  // Inodes found on the model's inode LRU only (the kernel had forgotten them).
  std::uint64_t ext4_only_hits() const { return ext4_only_hits_; }

 private:
  void hold(std::uint64_t ino);
  void release(std::uint64_t ino);
  void ensure_dentry(std::uint64_t ino);
  std::uint64_t key(std::uint64_t ino) const { return machine_.node(ino)->model_key; }
  std::uint64_t parent(std::uint64_t ino) const { return machine_.node(ino)->parent; }

  const EmulatedMachine& machine_;
  const KernelInodes& kernel_;
  models::VfsCache& vfs_;
  std::vector<bool> pinned_;  // by inode number: the model's dentry held for the kernel
  std::uint64_t ext4_only_hits_ = 0;
};

}  // namespace testbed::disk
