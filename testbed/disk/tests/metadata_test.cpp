// clerk-disk's metadata reads (metadata.h): a FUSE lookup of a name the
// kernel does not cache issues the model's path-walk reads to the disk, a
// lookup whose blocks are cached issues none, and hostile names get clean
// errors. The disk is a fake (one read at a time, completed by the test),
// except in the last case, where the scenario's own model answers in real
// time (nothing there asserts a duration).
#include <catch2/catch.hpp>

#include <cerrno>
#include <future>
#include <string>
#include <vector>

#include "testbed/disk/tests/fake_disk.h"
#include "disk_fs.h"
#include "emulated_machine.h"
#include "metadata.h"
#include "models/os/filesystem.h"
#include "models/os/path_walk.h"
#include "models/os/vfs_cache.h"
#include "models/scenario/config_loader.h"
#include "realtime_disk.h"

using namespace testbed::disk;

namespace {
using disk_tests::FakeDisk;
using disk_tests::Read;

struct NoInodes final : models::InodeCacheQuery {
  std::vector<std::uint64_t> asked;
  bool held = false;
  bool inode_cached(std::uint64_t key) override {
    asked.push_back(key);
    return held;
  }
};

struct Done final : LookupListener {
  std::vector<std::uint64_t> tags;
  void lookup_done(std::uint64_t tag) override { tags.push_back(tag); }
};

struct WalkDone final : models::WalkWaiter {
  int done = 0;
  void on_walk_done(std::uint64_t) override { ++done; }
};

// A two-level tree whose second level is an htree directory (400 names: two
// blocks), so that a lookup there reads the htree root and a leaf.
const std::vector<std::uint32_t> kTree = {4, 400};

models::FilesystemSpec spec() {
  models::FilesystemSpec s;
  s.files = 1600;
  s.tree = kTree;
  return s;
}

// The fake disk under an empty page cache, and the file system `layout`
// places on it.
struct ColdDisk {
  explicit ColdDisk(const models::Ext4Layout& layout)
      : cache(disk, {1 << 30, 64 * 1024, 1 << 20}),
        files(spec(), cache, disk.capacity(), sim::RandomStream(1), sim::RandomStream(2), &layout) {}
  FakeDisk disk;
  models::PageCache cache;
  const models::Filesystem files;
};

// The model's cold path walk of `file`: the reads, in order.
std::vector<Read> model_walk(const models::Ext4Layout& layout, std::uint32_t file) {
  ColdDisk cold(layout);
  models::VfsCache vfs(models::VfsCacheSpec{}, &cold.cache);
  models::PathWalk walk(cold.disk, cold.cache, vfs, layout, 7);
  std::uint64_t keys[8];
  const std::uint32_t n = cold.files.components(file, keys);
  WalkDone w;
  REQUIRE_FALSE(walk.open(keys, n, &w, 0));
  for (int i = 0; i < 16 && w.done == 0; ++i) cold.disk.complete_all();
  REQUIRE(w.done == 1);
  return cold.disk.reads;
}

// The layout the first cases look up in (a base of ColdLookup, so that it is
// built before the disk whose files it places).
struct Layout {
  const models::Ext4Layout layout{kTree, 1ULL << 41, 32, sim::RandomStream(3)};
};

// What the first cases share: clerk-disk's metadata reads over a cold disk,
// the kernel holding no inode (unless a case says so).
struct ColdLookup : Layout, ColdDisk {
  ColdLookup() : ColdDisk(layout), metadata(cache, layout, inodes, done) {}
  NoInodes inodes;
  Done done;
  MetadataReads metadata;
};
}  // namespace

TEST_CASE_METHOD(ColdLookup, "a lookup of each component of an uncached path reads what the model's walk reads, in order", "[disk]") {
  const std::uint32_t file = 1234;  // /4/35: in the htree's second half
  std::uint64_t keys[8];
  REQUIRE(files.components(file, keys) == 2);
  // The kernel looks up "4" in the root, then "35" in it, each after the
  // previous reply.
  for (std::uint32_t level = 0; level < 2; ++level) {
    CHECK_FALSE(metadata.lookup(keys[level], 100 + level));
    for (int i = 0; i < 8 && done.tags.size() == level; ++i) disk.complete_all();
    REQUIRE(done.tags.size() == level + 1);
    CHECK(done.tags.back() == 100 + level);
  }
  const std::vector<Read> expected = model_walk(layout, file);
  // The root's block, the directory's inode-table block (its readahead
  // window holds the flex group's 401 inodes, the file's among them), the
  // htree's root and the leaf with the name; the file's inode is cached.
  CHECK(expected.size() == 4);
  CHECK(disk.reads == expected);
  CHECK(inodes.asked == std::vector<std::uint64_t>{keys[0], keys[1]});
  const MetadataStats s = metadata.stats();
  CHECK(s.lookups == 2);
  CHECK(s.waits == 4);
  CHECK(s.dir_reads == 3);
  CHECK(s.inode_reads == 1);
  // The blocks at the places ext4 keeps them: the inode-table read is the
  // readahead window the layout gives, in one request.
  const models::InodeRead r = layout.inode_read(keys[0]);
  CHECK(disk.reads[1] == Read{r.ra_first * 4096, r.ra_count * 4096});
  std::uint64_t root[2];
  REQUIRE(layout.lookup_blocks(keys[0], root) == 1);
  CHECK(disk.reads[0] == Read{root[0] * 4096, 4096});
}

TEST_CASE_METHOD(ColdLookup, "a lookup whose blocks are cached reads nothing, and an inode the kernel holds is not read", "[disk]") {
  std::uint64_t keys[8];
  files.components(0, keys);
  SECTION("looked up again after the kernel forgot it: the buffer cache holds both blocks") {
    CHECK_FALSE(metadata.lookup(keys[0], 1));
    for (int i = 0; i < 8 && done.tags.empty(); ++i) disk.complete_all();
    const std::size_t reads = disk.reads.size();
    CHECK(reads == 2);
    CHECK(metadata.lookup(keys[0], 2));  // at once
    CHECK(disk.reads.size() == reads);
    CHECK(done.tags == std::vector<std::uint64_t>{1});  // no call for a lookup done at once
    CHECK(metadata.stats().waits == 2);
  }
  SECTION("the inode in the kernel's cache: only the directory block is read") {
    inodes.held = true;
    CHECK_FALSE(metadata.lookup(keys[0], 1));
    disk.complete_all();
    CHECK(done.tags == std::vector<std::uint64_t>{1});
    std::uint64_t root[2];
    layout.lookup_blocks(keys[0], root);
    CHECK(disk.reads == std::vector<Read>{{root[0] * 4096, 4096}});
    CHECK(metadata.stats().inode_reads == 0);
  }
}

namespace {
models::Scenario tiny_hdd() { return models::load_scenario(CLERK_DISK_TEST_DIR "/tiny-hdd.toml", {}); }
}  // namespace

TEST_CASE("hostile lookups: too long, missing, under a file, or no parent give an errno, never a read", "[disk]") {
  const models::Scenario sc = tiny_hdd();  // tree [8, 8]
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  const LookupAnswer dir = resolve_lookup(machine, 1, "3");
  REQUIRE(dir.error == 0);
  const LookupAnswer file = resolve_lookup(machine, dir.ino, "8");
  REQUIRE(file.error == 0);
  CHECK(machine.node(file.ino)->model_key == ((2ULL << 56) | (2 * 8 + 7)));
  CHECK(machine.ino_of_key(machine.node(file.ino)->model_key) == file.ino);
  CHECK(resolve_lookup(machine, 1, std::string(256, '1').c_str()).error == ENAMETOOLONG);
  CHECK(resolve_lookup(machine, 1, std::string(255, '1').c_str()).error == ENOENT);  // a legal name, not there
  CHECK(resolve_lookup(machine, 1, "9").error == ENOENT);
  CHECK(resolve_lookup(machine, 1, "").error == ENOENT);
  CHECK(resolve_lookup(machine, 1, nullptr).error == ENOENT);
  CHECK(resolve_lookup(machine, file.ino, "1").error == ENOTDIR);
  CHECK(resolve_lookup(machine, 0, "1").error == ENOENT);
  CHECK(resolve_lookup(machine, machine.nodes() + 1, "1").error == ENOENT);
  CHECK(machine.cache().block_stats().lookups == 0);
}

TEST_CASE("the kernel's inodes: held while lookups outnumber forgets, a forget never wraps", "[disk]") {
  const models::Scenario sc = tiny_hdd();
  sim::Engine engine;
  const EmulatedMachine machine(sc, engine);
  KernelInodes inodes(machine);
  const std::uint64_t ino = resolve_lookup(machine, 1, "2").ino;
  const std::uint64_t key = machine.node(ino)->model_key;
  CHECK_FALSE(inodes.inode_cached(key));
  inodes.looked_up(ino);
  inodes.looked_up(ino);
  CHECK(inodes.inode_cached(key));
  inodes.forget(ino, 1);
  CHECK(inodes.held(ino));
  inodes.forget(ino, 5);
  CHECK_FALSE(inodes.held(ino));
  inodes.looked_up(ino);
  CHECK(inodes.held(ino));  // counted from 0, not from a wrapped count
  CHECK(inodes.held(1));    // the root
  inodes.looked_up(machine.nodes() + 7);  // not an inode: ignored
  inodes.forget(0, 1);
  CHECK_FALSE(inodes.held(machine.nodes() + 7));
}

TEST_CASE("through the real-time disk: a cold lookup waits for the model's reads, a warm one for none", "[disk]") {
  const models::Scenario sc = tiny_hdd();
  sim::Engine engine;
  EmulatedMachine machine(sc, engine);
  const std::uint64_t ino = resolve_lookup(machine, 1, "5").ino;
  const std::uint64_t key = machine.node(ino)->model_key;
  for (const bool null_delay : {false, true}) {
    RealtimeDisk disk(engine, machine.device(), null_delay);
    KernelInodes inodes(machine);
    DiskJobs jobs(disk);
    MetadataReads metadata(machine.cache(), machine.layout(), inodes, jobs);
    auto look_up = [&] {
      std::promise<bool> answered;
      disk.submit_job([&](std::uint64_t tag) { return metadata.lookup(key, tag); },
                      [&](bool ok) { answered.set_value(ok); });
      return answered.get_future().get();
    };
    const std::uint64_t device_reads = machine.device().stats().reads;
    CHECK(look_up());
    CHECK(look_up());
    disk.stop();
    CHECK(disk.report().jobs == 2);
    CHECK(disk.report().reads == 0);
    if (null_delay) {
      CHECK(metadata.stats().lookups == 0);  // nothing asked of the model
      CHECK(machine.device().stats().reads == device_reads);
    } else {
      CHECK(metadata.stats().lookups == 2);
      CHECK(metadata.stats().waits == 2);  // the root's block, then the inode-table block; the second: none
      CHECK(machine.device().stats().reads == device_reads + 2);
    }
  }
}

TEST_CASE("ext4's inodes behind the kernel's: a forgotten inode stays cached until the model's shrinker takes it",
          "[disk]") {
  const models::Scenario sc = tiny_hdd();  // tree [8, 8]
  sim::Engine engine;
  const EmulatedMachine machine(sc, engine);
  KernelInodes kernel(machine);
  models::VfsCache vfs(models::VfsCacheSpec{}, nullptr);
  Ext4Inodes ext4(machine, kernel, vfs);
  const std::uint64_t dir = resolve_lookup(machine, 1, "3").ino;
  const std::uint64_t file = resolve_lookup(machine, dir, "8").ino;
  const std::uint64_t dir_key = machine.node(dir)->model_key, file_key = machine.node(file)->model_key;
  CHECK_FALSE(ext4.inode_cached(file_key));
  kernel.looked_up(dir);
  ext4.sync(dir);
  kernel.looked_up(file);
  ext4.sync(file);
  CHECK(vfs.has_dentry(dir_key));
  CHECK(vfs.has_dentry(file_key));
  CHECK(ext4.inode_cached(file_key));
  CHECK(ext4.ext4_only_hits() == 0);

  SECTION("the file forgotten: its dentry goes, its inode waits on the inode LRU for the shrinker's second pass") {
    kernel.forget(file, 1);
    ext4.sync(file);
    CHECK_FALSE(vfs.has_dentry(file_key));
    CHECK(vfs.has_dentry(dir_key));  // the kernel holds it
    CHECK(ext4.inode_cached(file_key));
    CHECK(ext4.ext4_only_hits() == 1);
    // The LRUs: the directory's dentry (listed when it was made, in use) and
    // the file's inode (I_REFERENCED). A scan of 3 is split 1 and 1: the
    // dentry leaves the list, the inode loses its second chance.
    vfs.scan(3);
    CHECK(ext4.inode_cached(file_key));
    vfs.scan(2);  // the inode LRU alone: 2 * 1 / 2 = 1, evicted
    CHECK_FALSE(ext4.inode_cached(file_key));
    CHECK(vfs.stats().inodes_freed == 1);
    CHECK(ext4.inode_cached(dir_key));  // held by the kernel
  }
  SECTION("forgets out of order: the directory's first stays (the file's dentry holds it), both go with the file's") {
    kernel.forget(dir, 1);
    ext4.sync(dir);
    CHECK(vfs.has_dentry(dir_key));
    kernel.forget(file, 1);
    ext4.sync(file);
    CHECK_FALSE(vfs.has_dentry(file_key));
    CHECK_FALSE(vfs.has_dentry(dir_key));
    CHECK(vfs.has_inode(dir_key));
    CHECK(vfs.has_inode(file_key));
  }
  SECTION("looked up again before the shrinker: the dentry is back, the inode in use") {
    kernel.forget(file, 1);
    ext4.sync(file);
    kernel.looked_up(file);
    ext4.sync(file);
    CHECK(vfs.has_dentry(file_key));
    for (int i = 0; i < 4; ++i) vfs.scan(1024);
    CHECK(vfs.has_inode(file_key));
    CHECK(vfs.stats().inodes_freed == 0);
  }
  SECTION("a file's sync before its directory's: the directory's dentry is made with it") {
    const std::uint64_t dir4 = resolve_lookup(machine, 1, "4").ino;
    const std::uint64_t file41 = resolve_lookup(machine, dir4, "1").ino;
    kernel.looked_up(dir4);
    kernel.looked_up(file41);
    ext4.sync(file41);
    CHECK(vfs.has_dentry(machine.node(dir4)->model_key));
    ext4.sync(dir4);
    kernel.forget(file41, 1);
    ext4.sync(file41);
    CHECK(vfs.has_dentry(machine.node(dir4)->model_key));  // the kernel holds it
    CHECK_FALSE(vfs.has_dentry(machine.node(file41)->model_key));
  }
  SECTION("hostile: syncs of no inode of the tree, and unknown keys, change nothing") {
    const models::VfsCacheStats before = vfs.stats();
    for (const std::uint64_t ino : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{machine.nodes() + 1}, UINT64_MAX})
      ext4.sync(ino);
    ext4.sync(file);  // held: nothing new
    CHECK(vfs.stats().dentries == before.dentries);
    CHECK(vfs.stats().inodes == before.inodes);
    CHECK_FALSE(ext4.inode_cached(12345));
    CHECK(ext4.inode_cached(0));  // the root's key: the mount holds it
  }
}
