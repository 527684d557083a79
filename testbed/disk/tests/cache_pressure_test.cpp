// clerk-disk's view of the page cache (cache_pressure.h): the data the
// kernel reads through FUSE reclaims a lookup's metadata blocks in the
// model's LRU order, so a lookup repeated after enough data reads the
// blocks reclaim took, and only those, and one repeated without that
// pressure reads nothing. The disk is a fake (one read at a time, completed
// by the test); the cache counts 4 KiB units, so each data read of a page
// is one page of memory and the LRU is counted by hand.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "testbed/disk/tests/fake_disk.h"
#include "cache_pressure.h"
#include "metadata.h"
#include "models/os/filesystem.h"

using namespace testbed::disk;

namespace {
constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kPages = 256;  // memory: 1 MiB

using disk_tests::FakeDisk;
using disk_tests::Read;

struct Forgotten final : models::InodeCacheQuery {  // the kernel holds no inode
  bool inode_cached(std::uint64_t) override { return false; }
};

struct Done final : LookupListener {
  int done = 0;
  void lookup_done(std::uint64_t) override { ++done; }
};

const std::vector<std::uint32_t> kTree = {4, 400};

models::FilesystemSpec spec() {
  models::FilesystemSpec s;
  s.files = 1600;  // 4 KiB each: one unit
  s.tree = kTree;
  return s;
}

struct Rig {
  const models::Ext4Layout layout{kTree, 1ULL << 41, 32, sim::RandomStream(3)};
  FakeDisk disk;
  models::PageCache cache{disk, {kPages * kPage, kPage, 1 << 20}};
  const models::Filesystem files{spec(), cache, disk.capacity(), sim::RandomStream(1), sim::RandomStream(2), &layout};
  Forgotten inodes;
  Done done;
  MetadataReads metadata{cache, layout, inodes, done};
  CachePressure pressure{cache};
  std::uint32_t next_file = 100;  // the data read: files 100, 101, ... (none on the looked-up path)

  // The lookup of `key`, its reads completed: the reads it made.
  std::vector<Read> look_up(std::uint64_t key) {
    const std::size_t before = disk.reads.size();
    const int finished = done.done;
    if (!metadata.lookup(key, 0))
      for (int i = 0; i < 8 && done.done == finished; ++i) disk.complete_all();
    return {disk.reads.begin() + static_cast<std::ptrdiff_t>(before), disk.reads.end()};
  }
  // The kernel reads `pages` more pages of data through FUSE, a file each.
  void read_data(std::uint64_t pages) {
    for (std::uint64_t i = 0; i < pages; ++i) pressure.data_read(next_file++, 0, kPage);
  }
};
}  // namespace

TEST_CASE("data read through FUSE reclaims a lookup's metadata blocks oldest first, as the model's LRU does", "[disk]") {
  Rig r;
  std::uint64_t keys[8];
  REQUIRE(r.files.components(0, keys) == 2);
  const std::uint64_t dir = keys[0];  // "/1", in the root
  std::uint64_t root[2];
  REQUIRE(r.layout.lookup_blocks(dir, root) == 1);
  const models::InodeRead inode = r.layout.inode_read(dir);
  REQUIRE(inode.block >= inode.ra_first);
  REQUIRE(inode.block < inode.ra_first + inode.ra_count);
  REQUIRE(inode.ra_count >= 2);
  REQUIRE((root[0] < inode.ra_first || root[0] >= inode.ra_first + inode.ra_count));
  // Cold: the root's directory block, then the inode-table window. Each
  // block enters the inactive list's head when its read ends, so the list
  // runs, oldest first: the root's block, then the window in block order.
  const std::vector<Read> cold = r.look_up(dir);
  REQUIRE(cold == std::vector<Read>{{root[0] * kPage, kPage}, {inode.ra_first * kPage, inode.ra_count * kPage}});
  const std::uint64_t metadata = 1 + inode.ra_count;
  REQUIRE(r.cache.resident_pages() == metadata);
  const std::uint64_t room = kPages - metadata;

  SECTION("without pressure: data that fills the rest of memory evicts nothing, and the lookup reads nothing") {
    r.read_data(room);
    CHECK(r.cache.resident_pages() == kPages);
    CHECK(r.cache.block_stats().blocks_evicted == 0);
    CHECK(r.look_up(dir).empty());
    CHECK(r.metadata.stats().waits == 2);
  }
  // Memory is full from here on, so each block a lookup reads again takes
  // the oldest page in turn: first the window's blocks still cached, in
  // order. Once the window's read starts with a missing block, every block
  // after it has been taken by the time it is considered: the whole window
  // is read again, as one request.
  const std::vector<Read> window = {{inode.ra_first * kPage, inode.ra_count * kPage}};
  const std::uint64_t j = inode.block - inode.ra_first;  // the inode's block in the window
  SECTION("one page more: reclaim takes the oldest page, the root's block, which the lookup reads again") {
    r.read_data(room + 1);
    CHECK(r.cache.block_stats().blocks_evicted == 1);
    CHECK_FALSE(r.cache.block_cached(root[0]));
    CHECK(r.cache.block_cached(inode.ra_first));
    // Reading it back takes the window's first block: the inode's own
    // block only when it is the window's first (j == 0).
    std::vector<Read> expected = {{root[0] * kPage, kPage}};
    if (j == 0) expected.push_back(window[0]);
    CHECK(r.look_up(dir) == expected);
    CHECK(r.metadata.stats().dir_reads == 2);
    CHECK(r.metadata.stats().inode_reads == (j == 0 ? 2 : 1));
  }
  SECTION("through the inode's block: the root's block and the window are read again") {
    r.read_data(room + 1 + j + 1);  // the root's block, then the window's blocks up to the inode's
    CHECK(r.cache.block_stats().blocks_evicted == 2 + j);
    CHECK_FALSE(r.cache.block_cached(inode.block));
    CHECK(r.look_up(dir) == std::vector<Read>{{root[0] * kPage, kPage}, window[0]});
    CHECK(r.metadata.stats().inode_reads == 2);
  }
  SECTION("data alone fills memory: the lookup reads what the cold lookup read") {
    r.read_data(kPages);
    CHECK(r.cache.block_stats().blocks_evicted == metadata);
    CHECK(r.look_up(dir) == cold);
  }
  SECTION("a block the lookups use again is on the active list and outlives data read after it") {
    CHECK(r.look_up(dir).empty());  // the second access: the root's block and the inode's go active
    r.read_data(room + 1);
    CHECK(r.cache.block_cached(root[0]));
    CHECK(r.cache.block_cached(inode.block));
    CHECK_FALSE(r.cache.block_cached(inode.ra_first == inode.block ? inode.ra_first + 1 : inode.ra_first));
    CHECK(r.look_up(dir).empty());
  }
}

TEST_CASE("an open accesses the file's cached units: a file read then opened again is on the active list", "[disk]") {
  Rig r;
  const std::uint32_t file = 7;
  r.pressure.data_read(file, 0, kPage);
  CHECK(r.cache.stats().active_units == 0);  // read once: inactive, accessed
  r.pressure.file_opened(file);
  CHECK(r.cache.stats().active_units == 1);  // the request's hit: promoted
  r.pressure.file_opened(8);                 // nothing of it cached: nothing entered
  CHECK(r.cache.resident_pages() == 1);
  // Without the open, the read page is the oldest and reclaim takes it first.
  r.read_data(kPages);
  CHECK(r.cache.cached(file, 0));
  CHECK(r.cache.stats().evicted_units == 1);  // one of the data, not the file opened
  CHECK(r.pressure.stats().opens == 2);
}

TEST_CASE("hostile data reads and opens: a file or range outside the data set enters nothing", "[disk]") {
  Rig r;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  r.pressure.data_read(1600, 0, kPage);            // no such file
  r.pressure.data_read(UINT32_MAX, 0, kPage);
  r.pressure.data_read(3, kPage, kPage);           // past the end of a one-page file
  r.pressure.data_read(3, 0, 0);                   // nothing
  r.pressure.file_opened(1600);
  r.pressure.file_opened(UINT32_MAX);
  CHECK(r.cache.resident_pages() == 0);
  r.pressure.data_read(3, 0, kMax);                // offset + length overflows: clamped to the file
  r.pressure.data_read(4, kMax - 1, kMax);
  CHECK(r.cache.resident_pages() == 1);
  CHECK(r.cache.cached(3, 0));
  CHECK(r.disk.reads.empty());                     // never a device read
}
