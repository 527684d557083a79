// The dentry and inode caches, their shrinker, ext4's metadata layout and
// open()'s path walk over them: closed forms of 3.13's shrink_slab and
// hand-made cases.
#include <catch2/catch.hpp>
#include <vector>

#include "models/os/ext4_layout.h"
#include "models/os/filesystem.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"
#include "models/os/vfs_cache.h"
#include "models/scenario/world_files.h"
#include "tests/fake_disk.h"

namespace {
constexpr std::uint64_t kKiB = 1024;

// Reads recorded and completed when told; 2 TiB: 1024 flex groups.
struct Device : tests::FakeDisk {
  Device() : FakeDisk(128 * kKiB, 1ULL << 41) {}
};
struct Waiter : models::WalkWaiter {
  int done = 0;
  void on_walk_done(std::uint64_t) override { ++done; }
};
struct Evictions : models::InodeEvictListener {
  std::vector<std::uint64_t> keys;
  void on_inode_evicted(std::uint64_t key) override { keys.push_back(key); }
};

std::uint64_t top(std::uint64_t i) { return (1ULL << 56) | i; }  // a name in the root directory

// `n` unused dentries (and their inodes) directly under the root.
models::VfsCache filled(std::uint32_t pressure, std::uint64_t n) {
  models::VfsCache vfs(models::VfsCacheSpec{pressure, 192, 1000}, nullptr);
  for (std::uint64_t i = 0; i < n; ++i) vfs.instantiate(top(i), models::VfsCache::kRoot);
  return vfs;
}
}  // namespace

TEST_CASE("shrink_slab: delta = (4 x scanned / seeks) x freeable / (lru_pages + 1), scaled by vfs_cache_pressure") {
  // 10,000 unused dentries; 1,000 pages scanned of 99,999 on the LRU.
  // pressure 100: freeable 10,000, delta = 2,000 x 10,000 / 100,000 = 200.
  auto p100 = filled(100, 10000);
  auto p200 = filled(200, 10000);
  auto p0 = filled(0, 10000);
  CHECK(p100.freeable() == 10000);
  CHECK(p200.freeable() == 20000);
  CHECK(p0.freeable() == 0);
  p100.on_reclaim_scan(1000, 99999);
  p200.on_reclaim_scan(1000, 99999);
  p0.on_reclaim_scan(1000, 99999);
  CHECK(p100.deferred() == 200);  // below SHRINK_BATCH: carried (nr_deferred)
  CHECK(p200.deferred() == 400);
  CHECK(p0.deferred() == 0);
  CHECK(p100.stats().dentries_scanned == 0);
  // Five more passes: 1,200 and 2,400 in all; batches of 1,024, split over
  // the two LRUs in proportion (1,024 x 10,000 / 10,001 = 1,023 dentries).
  for (int i = 0; i < 5; ++i) {
    p100.on_reclaim_scan(1000, 99999);
    p200.on_reclaim_scan(1000, 99999);
    p0.on_reclaim_scan(1000, 99999);
  }
  CHECK(p100.stats().shrinker_batches == 1);
  CHECK(p100.deferred() == 1200 - 1024);
  CHECK(p100.stats().dentries_scanned == 1023);
  CHECK(p200.stats().shrinker_batches == 2);
  CHECK(p200.deferred() == 2400 - 2048);
  CHECK(p200.stats().dentries_scanned == 2 * 1023);
  CHECK(p0.stats().dentries_scanned == 0);
  // Every dentry was referenced when it was put: the scan rotated them all.
  CHECK(p100.stats().dentries_freed == 0);
  CHECK(p100.stats().dentries == 10000);
}

TEST_CASE("shrink_slab: the division's remainder is carried, so many small passes add up to one large one") {
  auto small = filled(100, 10000);
  auto large = filled(100, 10000);
  for (int i = 0; i < 600; ++i) small.on_reclaim_scan(10, 99999);  // delta 2 each: 1,200
  large.on_reclaim_scan(6000, 99999);                               // delta 1,200 at once
  CHECK(small.stats().dentries_scanned == 1023);
  CHECK(large.stats().dentries_scanned == 1023);
  CHECK(small.deferred() == large.deferred());
}

TEST_CASE("the referenced bit gives a dentry a second chance") {
  auto vfs = filled(100, 3);  // a, b, c: all referenced by their dput
  // scan(4): 4 x 3 / (3 + 0 + 1) = 3 dentries: all rotated, flags cleared.
  vfs.scan(4);
  CHECK(vfs.stats().dentries == 3);
  CHECK_FALSE(vfs.dentry_referenced(top(1)));
  vfs.pin(top(1));  // b is used again (a walk's reference, then dput)
  vfs.unpin(top(1));
  CHECK(vfs.dentry_referenced(top(1)));
  vfs.scan(4);
  CHECK_FALSE(vfs.has_dentry(top(0)));
  CHECK(vfs.has_dentry(top(1)));
  CHECK_FALSE(vfs.has_dentry(top(2)));
  // The killed dentries' inodes stay in the inode cache, unused.
  CHECK(vfs.has_inode(top(0)));
  CHECK(vfs.stats().inode_lru == 2);
}

TEST_CASE("an inode with a live dentry is not evicted, an unused one is, after its second chance") {
  auto vfs = filled(100, 2);
  Evictions ev;
  vfs.set_evict_listener(&ev);
  vfs.scan(3);  // 3 x 2 / 3 = 2 dentries: rotated
  vfs.scan(3);  // killed: both inodes go on the inode LRU, referenced
  REQUIRE(vfs.stats().dentries == 0);
  REQUIRE(vfs.stats().inode_lru == 2);
  CHECK(vfs.lookup_inode(top(0)));  // iget finds it: the dentry comes back
  vfs.instantiate(top(0), models::VfsCache::kRoot);
  // scan(3): 3 x 2 / (1 + 2 + 1) = 1 dentry (a, rotated), 1 inode (a: in use, off the list).
  vfs.scan(3);
  CHECK(vfs.stats().inode_lru == 1);
  vfs.scan(2);  // 2 x 1 / 3 = 0 dentries... and 0 inodes
  vfs.scan(4);  // 4 x 1 / 3 = 1 dentry, 1 inode: b rotated
  vfs.scan(4);  // b evicted
  CHECK(ev.keys == std::vector<std::uint64_t>{top(1)});
  CHECK(vfs.has_inode(top(0)));
  CHECK_FALSE(vfs.has_inode(top(1)));
}

TEST_CASE("a directory's dentry is pinned by its children's") {
  models::VfsCache vfs(models::VfsCacheSpec{}, nullptr);
  const std::uint64_t dir = top(0), file = (2ULL << 56) | 0;
  vfs.instantiate(dir, models::VfsCache::kRoot);
  vfs.instantiate(file, dir);
  for (int i = 0; i < 3; ++i) vfs.scan(3);
  // The file went in the second scan; the directory, in use until then, was
  // taken off the list, put back by the child's death, and survives.
  CHECK_FALSE(vfs.has_dentry(file));
  CHECK(vfs.has_dentry(dir));
  REQUIRE_THROWS(vfs.instantiate((2ULL << 56) | 1, top(5)));  // a parent must be present
}

TEST_CASE("evicting an inode drops its file's pages") {
  Device dev;
  models::PageCache pc(dev, {1 << 30, 4096, 1 << 20});
  models::FilesystemSpec spec;
  spec.files = 4;
  spec.file_size = 16384;
  spec.tree = {4};
  spec.placement = models::Placement::kPacked;
  models::Filesystem files(spec, pc, dev.capacity(), sim::RandomStream(1));
  models::VfsCache vfs(models::VfsCacheSpec{}, &pc);
  models::InodePages pages(files, pc);
  vfs.set_evict_listener(&pages);
  pc.preload(2);
  pc.preload(3);
  vfs.instantiate(top(2), models::VfsCache::kRoot);
  vfs.instantiate(top(3), models::VfsCache::kRoot);
  vfs.pin(top(3));  // file 3 is held open
  for (int i = 0; i < 4; ++i) vfs.scan(8);
  CHECK_FALSE(vfs.has_inode(top(2)));
  CHECK_FALSE(pc.cached(2, 0));
  CHECK(pc.cached(3, 3));
  CHECK(pc.stats().resident_units == 4);
}

TEST_CASE("page reclaim reports the pages it scans, and the slab shares the budget") {
  struct Count : models::ReclaimListener {
    std::uint64_t scanned = 0, last_lru = 0;
    void on_reclaim_scan(std::uint64_t s, std::uint64_t lru) override {
      scanned += s;
      last_lru = lru;
    }
  } count;
  Device dev;
  models::PageCache pc(dev, {256 * kKiB, 64 * kKiB, 1 << 20});  // 4 units of 16 pages
  pc.set_reclaim_listener(&count);
  const auto f = pc.add_file(0, 384 * kKiB);  // 6 units
  pc.preload(f);
  CHECK(count.scanned == 2 * 16);
  CHECK(count.last_lru == 3 * 16);
  pc.set_slab_pages(16);  // a unit's worth of dentries and inodes
  const auto g = pc.add_file(1 << 20, 64 * kKiB);
  pc.preload(g);
  CHECK(count.scanned == 4 * 16);  // two more units went: one for g, one for the slab
  CHECK(pc.resident_pages() == 3 * 16);
}

TEST_CASE("ext4 layout: directory sizes and the flex groups' inode tables") {
  using models::Ext4Layout;
  CHECK(Ext4Layout::dir_blocks_for(64) == 1);   // 24 + 9 x 12 + 55 x 12 = 792 bytes
  CHECK(Ext4Layout::dir_blocks_for(339) == 1);  // names of up to 4 digits take 12 bytes: 24 + 339 x 12 = 4,092
  CHECK(Ext4Layout::dir_blocks_for(340) == 2);  // 4,104
  CHECK(Ext4Layout::dir_blocks_for(2048) == 7);  // 24,600 bytes
  models::Ext4Layout layout({64, 32, 32}, 1ULL << 41, 32, sim::RandomStream(3));
  CHECK(layout.flex_groups() == 1024);
  // A file's inode is in its top-level directory's flex group, after the
  // directory's own and those created before it, depth first.
  const std::uint64_t dir = top(5), sub = (2ULL << 56) | (5 * 32 + 0), file = (3ULL << 56) | (5 * 1024 + 3);
  const std::uint64_t d = layout.inode_number(dir);
  CHECK(layout.inode_number(sub) == d + 1);
  CHECK(layout.inode_number(file) == d + 5);  // dir, sub, then the sub's files 0..3
  CHECK((d - 1) % (16 * 8192) == 0);           // the first inode of its flex group
  CHECK(layout.parent_key(file) == sub);
  CHECK(layout.parent_key(dir) == 0);
}

TEST_CASE("inode readahead reads the aligned window of inode_readahead_blks, both ends included") {
  // One directory of 2,048 files: 2,049 inodes, 128 inode-table blocks used.
  models::Ext4Layout layout({1, 2048}, 1ULL << 41, 32, sim::RandomStream(3));
  const std::uint64_t dir_ino = layout.inode_number(top(0));
  const std::uint64_t table = layout.inode_block(dir_ino);
  CHECK(table % 32768 == 32);  // after the flex group's 16 + 16 bitmap blocks
  const auto r = layout.inode_read((2ULL << 56) | 1000);  // inode index 1,001: block 62
  CHECK(r.block == table + 62);
  CHECK(r.ra_first == table + 32);
  CHECK(r.ra_count == 33);  // b..b+32: while (b <= end) sb_breadahead(sb, b++)
  // At the table's used end the window stops at its last block (+1).
  models::Ext4Layout small({1, 20}, 1ULL << 41, 32, sim::RandomStream(3));
  const auto s = small.inode_read((2ULL << 56) | 19);
  CHECK(s.ra_count == 2);  // 21 inodes: table + 21/16 = table + 1, inclusive
}

TEST_CASE("a cold path walk reads exactly what is missing, in order, where ext4 keeps it") {
  Device dev;
  models::PageCache pc(dev, {1 << 30, 64 * kKiB, 1 << 20});
  models::VfsCache vfs(models::VfsCacheSpec{}, &pc);
  pc.set_reclaim_listener(&vfs);
  models::Ext4Layout layout({1, 2048}, dev.capacity(), 32, sim::RandomStream(3));
  models::PathWalk walk(dev, pc, vfs, layout, 7);
  Waiter w;
  const std::uint64_t dir = top(0), file = (2ULL << 56) | 1000;
  const std::uint64_t path[] = {dir, file};
  CHECK_FALSE(walk.open(path, 2, &w, 0));
  // One read at a time: the walk waits for each before the next.
  for (int i = 0; i < 6 && !dev.all_done(); ++i) dev.complete_all();
  CHECK(w.done == 1);
  const std::uint64_t table = layout.inode_block(layout.inode_number(dir));
  const std::uint64_t dir_block = table - 32 + 32 + 16 * 512;  // the flex group's first block after its tables
  std::uint64_t root_block[2];
  REQUIRE(layout.lookup_blocks(dir, root_block) == 1);
  std::uint64_t leaf[2];
  REQUIRE(layout.lookup_blocks(file, leaf) == 2);
  CHECK(leaf[0] == dir_block);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected = {
      {root_block[0] * 4096, 4096},        // the root directory's block: "1"
      {table * 4096, 33 * 4096},           // the directory's inode, with readahead
      {dir_block * 4096, 4096},            // its htree root
      {leaf[1] * 4096, 4096},              // the leaf with the file's name
      {(table + 33) * 4096, 32 * 4096}};   // the file's inode: table + 62, window from table + 32 (cached)
  REQUIRE(dev.reads.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(dev.reads[i].offset == expected[i].first);
    CHECK(dev.reads[i].length == expected[i].second);
  }
  CHECK(walk.stats().waits == 5);
  // Warm: no read, no wait.
  CHECK(walk.open(path, 2, &w, 0));
  // A sibling whose inode the readahead brought in: its name's block and its
  // inode-table block are cached, so nothing is read.
  const std::uint64_t sibling[] = {dir, (2ULL << 56) | 1001};
  CHECK(walk.open(sibling, 2, &w, 0));
  CHECK(dev.reads.size() == expected.size());
  CHECK(vfs.stats().inode_lookups == 3);
  CHECK(vfs.stats().inode_hits == 0);
  CHECK(pc.block_stats().hits == 3);  // the sibling's htree root and leaf, and its inode's block
}
