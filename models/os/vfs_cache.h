// The dentry cache and the inode cache, and the slab shrinker that reclaims
// them under memory pressure, as Linux 3.13 does it (fs/dcache.c,
// fs/inode.c, fs/super.c, mm/vmscan.c).
//
// Objects. A path component (a directory or a file of the data set) has at
// most one dentry and one inode (no hard links). Keys are the caller's
// (Filesystem::components); key 0 is the tree's root, which the mount pins
// and which is never looked up or evicted.
//
// References (d_lockref.count, i_count). A dentry is referenced by each child
// dentry (d_alloc takes dget(parent)) and by a path walk that holds it
// (pin/unpin: the walk's struct path; open() drops it when the walk ends).
// A dentry holds its inode (i_count), so an inode is unused only when its
// dentry is gone.
//
// LRUs with a second chance. dput() dropping the last reference puts the
// dentry at the tail of the superblock's dentry LRU with DCACHE_REFERENCED
// set (or just sets the flag if it is on the list already); a reference
// taken later does not remove it (the list is lazy). prune_dcache_sb walks
// from the head (oldest): a dentry in use is taken off the list, a
// referenced one loses the flag and goes to the tail (LRU_ROTATE), any other
// is killed: its parent loses a reference (and may go on the LRU in turn)
// and its inode is put: iput_final() sets I_REFERENCED and adds the unused
// inode to the inode LRU. prune_icache_sb (inode_lru_isolate) does the same
// walk: an inode in use (its dentry came back) is taken off, a referenced
// one is rotated, any other is evicted, and with it its page-cache pages
// (3.13 invalidates the mapping's pages and retries; the model evicts at
// once): InodeEvictListener.
//
// The shrinker (shrink_slab_node in 3.13 mm/vmscan.c, one per superblock):
// for every `scanned` pages that reclaim scans on the inactive list, with
// `lru_pages` on the LRU,
//   freeable = (unused dentries + unused inodes) * vfs_cache_pressure / 100
//              (super_cache_count, vfs_pressure_ratio)
//   delta    = (4 * scanned / seeks) * freeable / (lru_pages + 1), seeks =
//              DEFAULT_SEEKS = 2
//   total    = nr_deferred + delta; if delta < freeable / 4, total is at
//              most freeable / 2; and at most 2 * freeable
//   while total >= SHRINK_BATCH (1024): super_cache_scan(1024), which splits
//              the batch between dentries and inodes in proportion to their
//              list sizes; what is left is nr_deferred for the next call.
// The kernel calls this once per kswapd or direct-reclaim pass, thousands of
// pages at a time; the model calls it for every reclaimed unit and carries
// the remainder of the division, so the scan adds up to the same count
// whatever the pass size.
//
// Memory. Dentries and inodes take slab memory (dentry_objsize,
// inode_objsize of the hardware profile's [kernel], from /proc/slabinfo)
// from the page cache's budget (PageCache::set_slab_pages).
#pragma once
#include <cstdint>
#include <vector>

#include "models/os/page_cache.h"
#include "sim/flat_map.h"

namespace models {

struct VfsCacheSpec {
  std::uint32_t vfs_cache_pressure = 100;  // vm.vfs_cache_pressure (default 100)
  std::uint64_t dentry_objsize = 192;      // /proc/slabinfo "dentry" objsize
  std::uint64_t inode_objsize = 1000;      // /proc/slabinfo "ext4_inode_cache" objsize
  static constexpr std::uint64_t kSeeks = 2;          // DEFAULT_SEEKS (include/linux/shrinker.h)
  static constexpr std::uint64_t kBatch = 1024;       // SHRINK_BATCH (mm/vmscan.c, 3.13)
};

struct VfsCacheStats {
  std::uint64_t dentry_lookups = 0, dentry_hits = 0;  // d_lookup in a path walk
  std::uint64_t inode_lookups = 0, inode_hits = 0;    // iget after a dentry miss
  std::uint64_t dentries = 0, inodes = 0;             // present now
  std::uint64_t dentry_lru = 0, inode_lru = 0;        // on the LRUs now (list_lru_count)
  std::uint64_t dentries_scanned = 0, dentries_freed = 0;
  std::uint64_t inodes_scanned = 0, inodes_freed = 0;
  std::uint64_t shrinker_batches = 0;
};

// Told when an inode is evicted: its file's pages go with it.
class InodeEvictListener {
 public:
  virtual void on_inode_evicted(std::uint64_t key) = 0;

 protected:
  ~InodeEvictListener() = default;
};

class VfsCache final : public ReclaimListener {
 public:
  static constexpr std::uint64_t kRoot = 0;

  // `memory`: the page cache whose budget the slab shares (null: none).
  VfsCache(const VfsCacheSpec& spec, PageCache* memory);
  void set_evict_listener(InodeEvictListener* listener) { evict_listener_ = listener; }

  // d_lookup in a walk: true when the dentry is present (counted).
  bool lookup_dentry(std::uint64_t key);
  // The inode cache's hash lookup (iget) after a dentry miss (counted).
  bool lookup_inode(std::uint64_t key);
  // d_add of a looked-up name: the dentry (and the inode, if it was not
  // cached) now exist; the parent's dentry, which must be present, gains a
  // reference. A new dentry starts with no reference (pin it to hold it).
  void instantiate(std::uint64_t key, std::uint64_t parent);
  // A walk's reference to a present dentry, and its dput().
  void pin(std::uint64_t key);
  void unpin(std::uint64_t key);
  // The dentry goes now, by a decision made outside the model (clerk-disk:
  // the real kernel forgot the name, testbed/disk/metadata.h): killed as
  // the shrinker kills one (its inode unused, referenced, onto the inode
  // LRU; its parent put). One in use (a child or a walk holds it), or
  // absent, is left as it is.
  void drop(std::uint64_t key);

  bool has_dentry(std::uint64_t key) const;
  bool has_inode(std::uint64_t key) const;
  bool dentry_referenced(std::uint64_t key) const;

  // shrink_slab_node() for this superblock's shrinker.
  void on_reclaim_scan(std::uint64_t scanned_pages, std::uint64_t lru_pages) override;
  // super_cache_count(): the objects the shrinker may scan.
  std::uint64_t freeable() const;
  // super_cache_scan() of `nr` objects.
  void scan(std::uint64_t nr);
  std::uint64_t deferred() const { return deferred_; }

  VfsCacheStats stats() const;
  std::uint64_t slab_bytes() const;

 private:
  static constexpr std::uint32_t kNil = UINT32_MAX;
  struct Link {
    std::uint32_t prev = kNil, next = kNil;
    bool listed = false;
  };
  struct Obj {
    std::uint64_t key = 0;
    std::uint32_t parent = kNil;  // the parent's object (kNil: the root)
    std::uint32_t refs = 0;       // child dentries and walks holding the dentry
    bool dentry = false, inode = false;
    bool d_referenced = false, i_referenced = false;
    Link d, i;
  };
  struct List {
    std::uint32_t head = kNil, tail = kNil;
    std::uint64_t count = 0;
  };
  using LinkOf = Link Obj::*;

  std::uint32_t find(std::uint64_t key) const { return index_.find(key); }
  std::uint32_t get_or_create(std::uint64_t key);
  void release_if_empty(std::uint32_t o);
  void dput_last(std::uint32_t o);  // the last reference to a dentry went
  void kill_dentry(std::uint32_t o);
  void evict_inode(std::uint32_t o);
  void prune_dentries(std::uint64_t nr);
  void prune_inodes(std::uint64_t nr);
  void list_add_tail(List& list, LinkOf link, std::uint32_t o);
  void list_del(List& list, LinkOf link, std::uint32_t o);
  void charge();

  VfsCacheSpec spec_;
  PageCache* memory_;
  InodeEvictListener* evict_listener_ = nullptr;
  std::vector<Obj> objs_;
  std::vector<std::uint32_t> free_;
  sim::FlatMap index_;
  List dentry_lru_, inode_lru_;
  std::uint64_t dentries_ = 0, inodes_ = 0;
  std::uint64_t deferred_ = 0;   // nr_deferred
  std::uint64_t delta_rest_ = 0; // the division's remainder, carried
  VfsCacheStats stats_;
};

}  // namespace models
