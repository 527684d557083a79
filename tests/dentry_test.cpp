// open()'s path walk over the dentry cache, and inode eviction dropping pages.
#include <catch2/catch.hpp>
#include <vector>

#include "models/os/dentry_cache.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"

namespace {
struct Device : models::BlockDevice {
  std::vector<std::pair<models::IoListener*, std::uint64_t>> pending;
  int reads = 0;
  void submit_read(std::uint64_t, std::uint64_t, models::IoListener* l, std::uint64_t tag) override {
    ++reads;
    pending.emplace_back(l, tag);
  }
  void complete_all() {
    while (!pending.empty()) {
      auto [l, t] = pending.front();
      pending.erase(pending.begin());
      l->on_io_done(t);
    }
  }
  std::uint64_t capacity() const override { return 1ULL << 40; }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  models::DiskStats stats() const override { return {}; }
};
struct Waiter : models::WalkWaiter {
  int done = 0;
  void on_walk_done(std::uint64_t) override { ++done; }
};
}  // namespace

TEST_CASE("a cold path costs one read per level and a warm one none") {
  Device dev;
  models::DentryCache cache(100);
  models::PathWalk walk(dev, cache, 7);
  Waiter w;
  const std::uint64_t path[] = {1, 2, 3, 4, 5, 6};  // /cache/prefix/dir/EF/BE/CAFEBEEF
  CHECK_FALSE(walk.open(path, 6, &w, 0));
  dev.complete_all();
  CHECK(w.done == 1);
  CHECK(dev.reads == 6);  // "up to 6 disk reads"
  CHECK(walk.open(path, 6, &w, 0));  // all cached now: no wait
  CHECK(dev.reads == 6);
  const std::uint64_t sibling[] = {1, 2, 3, 4, 5, 7};  // another file in the same directory
  CHECK_FALSE(walk.open(sibling, 6, &w, 0));
  dev.complete_all();
  CHECK(dev.reads == 7);  // only its inode
  CHECK(cache.hits() == 6 + 5);
}

TEST_CASE("the dentry cache is an LRU that reports evictions") {
  models::DentryCache cache(2);
  std::vector<std::uint64_t> evicted;
  cache.on_evict([&](std::uint64_t k) { evicted.push_back(k); });
  cache.insert(1);
  cache.insert(2);
  CHECK(cache.lookup(1));  // 1 is now the most recent
  cache.insert(3);         // evicts 2
  CHECK(evicted == std::vector<std::uint64_t>{2});
  CHECK_FALSE(cache.lookup(2));
  CHECK(cache.lookup(1));
  CHECK(cache.lookup(3));
}

TEST_CASE("dropping a file's pages leaves other files cached") {
  Device dev;
  models::PageCache pc(dev, {1 << 30, 4096, 1 << 20});
  const auto a = pc.add_file(0, 16384);
  const auto b = pc.add_file(1 << 20, 16384);
  pc.preload(a);
  pc.preload(b);
  pc.drop_file(a);
  CHECK_FALSE(pc.cached(a, 0));
  CHECK(pc.cached(b, 3));
  CHECK(pc.stats().resident_units == 4);
}
