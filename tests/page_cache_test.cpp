// The page cache: LRU hit ratio, readahead windows as Linux sizes them.
#include <catch2/catch.hpp>
#include <vector>

#include "models/os/page_cache.h"
#include "sim/engine.h"
#include "sim/random.h"
#include "tests/fake_disk.h"

namespace {

// A device that records reads and completes them when told, with a 2 MiB readahead limit.
struct FakeDevice : tests::FakeDisk {
  FakeDevice() : FakeDisk(2 * 1024 * 1024) {}
};

struct NoWaiter : models::PageWaiter {
  int woken = 0;
  void on_page_ready(std::uint64_t) override { ++woken; }
};

}  // namespace

TEST_CASE("uniform random access gives hit ratio C/N") {
  FakeDevice dev;
  const std::uint64_t unit = 64 * 1024, n_units = 1000, capacity_units = 250;
  models::PageCache cache(dev, {capacity_units * unit, unit, 1 << 20});
  const auto file = cache.add_file(0, n_units * unit);
  sim::RandomStream rng(9);
  NoWaiter w;
  std::uint64_t hits = 0, total = 0;
  for (int i = 0; i < 200000; ++i) {
    models::ReadaheadState ra;
    ra.prev_page = 1 << 30;  // a random read: no readahead
    const auto u = 1 + rng.below(n_units - 1);  // unit 0 would start a readahead window
    const bool hit = cache.read(file, u, 1, ra, &w, 0) == models::PageCache::Result::kReady;
    dev.complete_all();
    if (i >= 20000) {
      ++total;
      hits += hit;
    }
  }
  CHECK(static_cast<double>(hits) / total == Approx(250.0 / 999).epsilon(0.03));
  CHECK(cache.stats().resident_units == capacity_units);
}

TEST_CASE("a hot page survives a scan that would flush a plain LRU") {
  FakeDevice dev;
  const std::uint64_t unit = 64 * 1024;
  models::PageCache cache(dev, {100 * unit, unit, 1 << 20});
  const auto hot = cache.add_file(0, unit);
  const auto big = cache.add_file(1 << 30, 1000 * unit);
  NoWaiter w;
  models::ReadaheadState ra;
  cache.read(hot, 0, 1, ra, &w, 0);
  dev.complete_all();
  cache.access_after_wait(hot, 0);
  cache.read(hot, 0, 1, ra, &w, 0);  // second access: promoted to the active list
  for (std::uint64_t u = 1; u < 1000; ++u) {  // a one-pass scan of 10x the cache
    models::ReadaheadState r;
    r.prev_page = 1 << 30;
    cache.read(big, u, 1, r, &w, 0);
    dev.complete_all();
  }
  CHECK(cache.cached(hot, 0));
}

TEST_CASE("sequential reads grow readahead windows as Linux does") {
  // 2 MiB device readahead (md RAID10, 4 disks, 512 KiB chunks): a sendfile
  // reading 64 KiB at a time sees windows of 256K, 512K, 1M, 2M, then the tail.
  FakeDevice dev;
  const std::uint64_t unit = 64 * 1024;
  models::PageCache cache(dev, {1ULL << 30, unit, 1 << 20});
  const auto f = cache.add_file(0, 4 << 20);
  NoWaiter w;
  models::ReadaheadState ra;
  for (std::uint64_t u = 0; u < cache.units_of(f); ++u) {
    if (cache.read(f, u, 1, ra, &w, 0) == models::PageCache::Result::kWait) {
      dev.complete_all();
      cache.access_after_wait(f, u);
    }
  }
  std::vector<std::uint64_t> sizes;
  for (const auto& r : dev.reads) sizes.push_back(r.length);
  // 2 MiB window is two 1 MiB bios (BIO_MAX_PAGES); the last window is clipped at 4 MiB.
  const std::vector<std::uint64_t> expected = {256 << 10, 512 << 10, 1 << 20, 1 << 20, 1 << 20, 256 << 10};
  CHECK(sizes == expected);
  CHECK(cache.stats().readahead_windows == 5);
  // Every read followed the previous one on the device.
  for (std::size_t i = 1; i < dev.reads.size(); ++i)
    CHECK(dev.reads[i].offset == dev.reads[i - 1].offset + dev.reads[i - 1].length);
}

TEST_CASE("a waiter is woken when its page arrives") {
  FakeDevice dev;
  models::PageCache cache(dev, {1 << 30, 64 * 1024, 1 << 20});
  const auto f = cache.add_file(0, 1 << 20);
  NoWaiter w;
  models::ReadaheadState ra;
  CHECK(cache.read(f, 0, 1, ra, &w, 0) == models::PageCache::Result::kWait);
  CHECK(w.woken == 0);
  dev.complete_all();
  CHECK(w.woken == 1);
  CHECK(cache.cached(f, 0));
}

namespace {
// When woken, looks up unit 1 of `other` (a random read, no readahead).
struct ReadsOtherOnWake : models::PageWaiter {
  models::PageCache* cache = nullptr;
  std::uint32_t other = 0;
  int woken = 0;
  models::PageCache::Result seen = models::PageCache::Result::kReady;
  NoWaiter then;  // told when a read it had to wait for ends
  void on_page_ready(std::uint64_t) override {
    ++woken;
    models::ReadaheadState ra;
    ra.prev_page = 1 << 30;
    seen = cache->read(other, 1, 1, ra, &then, 0);
  }
};

// Two reads, of files f and g, end at the same instant, f's first; f's
// reader then looks up g's page.
models::PageCache::Result look_up_after_simultaneous_reads(bool defer) {
  FakeDevice dev;
  sim::Engine engine;
  models::PageCache cache(dev, {1 << 30, 64 * 1024, 1 << 20});
  if (defer) cache.defer_wakeups(engine);
  const auto f = cache.add_file(0, 1 << 20);
  const auto g = cache.add_file(1 << 20, 1 << 20);
  ReadsOtherOnWake reader;
  reader.cache = &cache;
  reader.other = g;
  NoWaiter g_reader;
  models::ReadaheadState ra_f, ra_g;
  ra_f.prev_page = ra_g.prev_page = 1 << 30;
  REQUIRE(cache.read(f, 1, 1, ra_f, &reader, 0) == models::PageCache::Result::kWait);
  REQUIRE(cache.read(g, 1, 1, ra_g, &g_reader, 0) == models::PageCache::Result::kWait);
  dev.complete_all();  // both end now, f's first
  engine.run_until(0);
  REQUIRE(reader.woken == 1);
  return reader.seen;
}
}  // namespace

TEST_CASE("a reader woken by one read finds the pages of another read that ended at the same instant") {
  // On the event heap the waiters are told after the instant's other
  // completions, as SimGrid does; told at once, the reader would count a
  // miss that waits zero seconds.
  CHECK(look_up_after_simultaneous_reads(true) == models::PageCache::Result::kReady);
  CHECK(look_up_after_simultaneous_reads(false) == models::PageCache::Result::kWait);
}

TEST_CASE("a unit read ahead and evicted before use is read again on its own (thrashing)") {
  // Two sequential readers under a cache of 8 units: the second reader's
  // readahead evicts what the first read ahead but has not used yet. The
  // first reader's next read must still find its page (Linux falls back to
  // reading the one missing page), not run past it.
  FakeDevice dev;
  dev.ra = 4 * 64 * 1024;  // 4 units per window at most
  const std::uint64_t unit = 64 * 1024;
  models::PageCache cache(dev, {8 * unit, unit, 1 << 20});
  const auto a = cache.add_file(0, 64 * unit);
  const auto b = cache.add_file(64 * unit, 64 * unit);
  NoWaiter w;
  models::ReadaheadState ra_a, ra_b;
  for (std::uint64_t u = 0; u < 3; ++u) {  // a: windows up to unit ~7
    cache.read(a, u, 1, ra_a, &w, 0);
    dev.complete_all();
  }
  for (std::uint64_t u = 0; u < 12; ++u) {  // b evicts a's unread units
    cache.read(b, u, 1, ra_b, &w, 0);
    dev.complete_all();
  }
  // a's windows were units 0-1, 2-5 and 6-9, the last marked at unit 6: a
  // read of unit 6 is the expected next step, so readahead moves on to
  // units 10-13, and unit 6 itself must be read on its own.
  CHECK(cache.stats().thrashed_units == 0);
  NoWaiter reader;
  CHECK(cache.read(a, 6, 1, ra_a, &reader, 0) == models::PageCache::Result::kWait);
  CHECK(cache.stats().thrashed_units == 1);
  dev.complete_all();
  CHECK(reader.woken == 1);
  models::ReadaheadState probe;
  probe.prev_page = 1 << 30;
  CHECK(cache.read(a, 6, 1, probe, &w, 0) == models::PageCache::Result::kReady);
}

// reserve_units only makes room: the same preload and reads give the same
// residency and the same hits with it or without it.
TEST_CASE("reserving room for a preload changes nothing the cache does") {
  const std::uint64_t unit = 64 * 1024, n_units = 400, capacity_units = 250;
  auto run = [&](bool reserve) {
    FakeDevice dev;
    models::PageCache cache(dev, {capacity_units * unit, unit, 1 << 20});
    const auto a = cache.add_file(0, 100 * unit);
    const auto b = cache.add_file(1 << 30, n_units * unit);
    if (reserve) cache.reserve_units(cache.units_of(a));
    cache.preload(a);
    sim::RandomStream rng(3);
    NoWaiter w;
    std::vector<bool> hits;
    for (int i = 0; i < 5000; ++i) {
      models::ReadaheadState ra;
      ra.prev_page = 1 << 30;
      const bool second = rng.below(2) == 1;
      const auto u = 1 + rng.below((second ? n_units : 100) - 1);
      hits.push_back(cache.read(second ? b : a, u, 1, ra, &w, 0) == models::PageCache::Result::kReady);
      dev.complete_all();
    }
    return std::pair(hits, cache.stats().resident_units);
  };
  const auto plain = run(false), reserved = run(true);
  CHECK(plain.first == reserved.first);
  CHECK(plain.second == reserved.second);
  CHECK(reserved.second == capacity_units);
}
