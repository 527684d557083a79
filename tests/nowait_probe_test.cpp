// The RWF_NOWAIT probe (nginx.aio_nowait) and io_uring (aio = "io_uring"):
// models/server/nowait_probe.h. Hand-made page caches for what the probe
// sees, whole runs for where the chunks go, and the loader's refusals.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/os/page_cache.h"
#include "models/server/nowait_probe.h"
#include "tests/fake_disk.h"
#include "tests/load_error.h"
#include "tests/whole_run.h"

namespace {

const std::string kData = CLERK_TEST_DATA;
const std::string kHot = kData + "/stages-one-hot.toml";

// A device that records reads and completes them when told, with a 64 KiB readahead limit.
struct FakeDevice : tests::FakeDisk {
  FakeDevice() : FakeDisk(64 * 1024) {}
};

struct NoWaiter : models::PageWaiter {
  void on_page_ready(std::uint64_t) override {}
};

void fails(const std::vector<std::string>& overrides, const std::string& key, const std::string& text) {
  tests::check_refused(kHot, overrides, key, text);
}

}  // namespace

TEST_CASE("RWF_NOWAIT probe: it copies up to the first unit not uptodate, and nothing of a missing first unit") {
  FakeDevice dev;
  const std::uint64_t unit = 64 * 1024;
  models::PageCache cache(dev, {64 * unit, unit, 1 << 20});
  const std::uint32_t file = cache.add_file(0, 8 * unit + 100);  // 8 units and a short ninth
  NoWaiter w;
  CHECK(models::resident_prefix(cache, file, 0, 8 * unit) == 0);  // cold: EAGAIN
  // Read units 1 to 3 in, as random reads (no readahead: not at the file's
  // start, not after the previous read); unit 0 stays out.
  for (std::uint64_t u = 1; u <= 3; ++u) {
    models::ReadaheadState ra;
    ra.prev_page = 1 << 30;
    cache.read(file, u, 1, ra, &w, 0);
  }
  // Submitted but not completed: under I/O is not uptodate (EAGAIN).
  CHECK(models::resident_prefix(cache, file, unit, 3 * unit) == 0);
  dev.complete_all();
  CHECK(models::resident_prefix(cache, file, unit, 3 * unit) == 3 * unit);
  // Unit 0 is missing: EAGAIN from offset 0, whatever follows.
  CHECK(models::resident_prefix(cache, file, 0, 4 * unit) == 0);
  // A short read: from mid-unit 1 it stops at the first unit not cached
  // (units 1 to 3 and what the misses' readahead windows added, not the whole file).
  std::uint64_t gap = 1;
  while (gap < 8 && cache.cached(file, gap)) ++gap;
  REQUIRE(gap >= 4);
  REQUIRE(gap < 8);
  CHECK(models::resident_prefix(cache, file, unit + 100, 7 * unit) == (gap - 1) * unit - 100);
  CHECK(models::resident_prefix(cache, file, unit + 100, unit) == unit);  // all of a shorter chunk
  // A chunk past the end of the file asks only for what is left.
  CHECK(models::chunk_bytes(cache, file, 8 * unit, unit) == 100);
  CHECK(models::chunk_bytes(cache, file, 9 * unit, unit) == 0);
  CHECK(models::resident_prefix(cache, file, 9 * unit, unit) == 0);
}

TEST_CASE("io_uring: inline when resident, else page callbacks from Linux 5.9, io-wq before, io-wq's bounded workers") {
  using models::UringPath;
  CHECK(models::uring_read_path(true, true) == UringPath::kInline);
  CHECK(models::uring_read_path(true, false) == UringPath::kInline);
  CHECK(models::uring_read_path(false, true) == UringPath::kPageCallback);
  CHECK(models::uring_read_path(false, false) == UringPath::kIoWq);
  CHECK(models::has_async_buffered_reads("5.9"));
  CHECK(models::has_async_buffered_reads("6.1.0-18-amd64"));
  CHECK(models::has_async_buffered_reads(""));  // not named: a current kernel
  CHECK_FALSE(models::has_async_buffered_reads("5.8.18"));
  CHECK_FALSE(models::has_async_buffered_reads("5.4.0-42-generic"));
  CHECK_FALSE(models::has_async_buffered_reads("nonsense"));
  // min(entries, 4 x CPUs) (io_init_wq_offload), lowered by max_workers.
  CHECK(models::uring_pool_threads(UringPath::kIoWq, 256, 24, 0) == 96);
  CHECK(models::uring_pool_threads(UringPath::kIoWq, 64, 24, 0) == 64);
  CHECK(models::uring_pool_threads(UringPath::kIoWq, 256, 24, 8) == 8);
  CHECK(models::uring_pool_threads(UringPath::kIoWq, 256, 24, 500) == 96);
  CHECK(models::uring_pool_threads(UringPath::kPageCallback, 256, 24, 8) == 256);
  REQUIRE(models::parse_linux_release("3.13.0-32-generic"));
  CHECK(models::parse_linux_release("3.13.0-32-generic")->minor == 13);
  CHECK_FALSE(models::parse_linux_release("3"));
  CHECK_FALSE(models::parse_linux_release("4.14x"));
}

TEST_CASE("aio_nowait: a file all in the page cache is sent by the loop, no chunk goes to the pool") {
  const models::RunResult r =
      tests::run_file(kHot, {"nginx.aio=\"threads\"", "nginx.aio_nowait=true", "preload=[\"/1/1\"]"}, 2);
  REQUIRE(r.server_responses > 100);
  CHECK(r.aio_nowait);
  CHECK(r.pool_tasks == 0);
  CHECK(r.read_paths.misses == 0);
  CHECK(r.read_paths.races == 0);
  CHECK(r.read_paths.probes >= r.server_responses);  // one 64 KiB chunk a response at least
  CHECK(r.workers_disk_wait == 0);
  // The same without the probe: every chunk goes to the pool.
  const models::RunResult threads = tests::run_file(kHot, {"nginx.aio=\"threads\"", "preload=[\"/1/1\"]"}, 2);
  CHECK(threads.pool_tasks >= threads.server_responses);
  CHECK(threads.read_paths.probes == 0);
}

TEST_CASE("aio_nowait: a cold file is probed once, found missing, and read by the pool, then it is hot") {
  // A cold start: the first request's chunk (the whole 64 KiB file) is
  // probed, EAGAIN, and goes to the pool; every later probe finds it
  // resident. The loop never waits for the file's data.
  const models::RunResult r = tests::run_file(kHot, {"nginx.aio=\"threads\"", "nginx.aio_nowait=true", "warmup=\"0s\""}, 2);
  REQUIRE(r.server_responses > 100);
  CHECK(r.read_paths.misses == 1);
  CHECK(r.pool_tasks == 1);
  CHECK(r.read_paths.probes >= r.server_responses);
  CHECK(r.read_paths.races == 0);
  // Over a longer run of random files: every miss is a pool task and only misses are.
  const models::RunResult random = tests::run_file(
      kHot, {"nginx.aio=\"threads\"", "nginx.aio_nowait=true", "clients.hot.path=\"random\"", "warmup=\"0s\""}, 2);
  REQUIRE(random.read_paths.misses > 0);
  CHECK(random.pool_tasks == random.read_paths.misses);
  CHECK(random.read_paths.probes > random.read_paths.misses);  // files read before are found resident
}

TEST_CASE("aio_nowait: pages evicted between the probe and the sendfile() block the loop (the race)") {
  // A page cache of 1 MiB, files of 512 KiB sent 64 KiB a chunk, and four
  // connections reading random files: a file's later chunks are often found
  // resident (readahead brought them in), and the others' reads evict them
  // before the sendfile() reads them when the probe takes 5 ms. open() runs
  // in the pool (aio_open), so the only way the loop can wait for a disk read
  // of data is a chunk the probe found resident: the race.
  const std::vector<std::string> base = {"nginx.aio=\"threads\"", "nginx.aio_open=true", "nginx.sendfile_max_chunk=\"64k\"",
                                         "memory.page_cache=\"1m\"", "dataset.file_size=\"512k\"", "warmup=\"0s\"",
                                         "clients.bg={threads=1, connections=4, path=\"random\"}"};
  const auto data_wait = [](const models::RunResult& r) {
    return r.workers_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kDiskData)];
  };
  auto slow = base;
  slow.insert(slow.end(), {"nginx.aio_nowait=true", "cpu.nowait_probe=\"5ms\""});
  const models::RunResult raced = tests::run_file(kHot, slow, 3);
  REQUIRE(raced.read_paths.probes > raced.read_paths.misses);
  CHECK(raced.read_paths.races > 0);
  CHECK(data_wait(raced) > 0);  // the loop blocked on the disk, as with aio off
  // The same load without the probe: every chunk in the pool, the loop never waits for data.
  const models::RunResult pool = tests::run_file(kHot, base, 3);
  CHECK(pool.read_paths.races == 0);
  CHECK(data_wait(pool) == 0);
}

TEST_CASE("io_uring: resident reads complete inline, the rest go to the ring's pool") {
  const models::RunResult hot = tests::run_file(kHot, {"nginx.aio=\"io_uring\"", "preload=[\"/1/1\"]"}, 2);
  REQUIRE(hot.server_responses > 100);
  CHECK(hot.io_uring);
  CHECK(hot.read_paths.uring_reads >= hot.server_responses);
  CHECK(hot.read_paths.uring_async == 0);
  CHECK(hot.pool_tasks == 0);
  const models::RunResult cold = tests::run_file(kHot, {"nginx.aio=\"io_uring\"", "clients.hot.path=\"random\""}, 2);
  REQUIRE(cold.read_paths.uring_async > 0);
  CHECK(cold.pool_tasks == cold.read_paths.uring_async);
  // The loop never waits for a missing page itself (open()'s path walk still blocks it).
  CHECK(cold.workers_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kDiskData)] == 0);
  // No release named: 5.9+, one wait entry per SQ entry (256); Linux 5.4: io-wq, min(256, 4 x 4 CPUs).
  CHECK(cold.pool_threads == 256);
  const models::Scenario old = models::load_scenario(kHot, {"nginx.aio=\"io_uring\"", "kernel.release=\"5.4.0-42-generic\""});
  CHECK_FALSE(old.nginx.io_uring.async_buffered);
  CHECK(old.nginx.io_uring.pool_threads == 16);
  const models::Scenario capped = models::load_scenario(
      kHot, {"nginx.aio=\"io_uring\"", "kernel.release=\"5.15.0\"", "nginx.io_uring={max_workers=4, entries=64}"});
  CHECK(capped.nginx.io_uring.async_buffered);
  CHECK(capped.nginx.io_uring.pool_threads == 64);
}

TEST_CASE("aio_nowait and io_uring: the loader refuses what the kernel or the mode lacks, naming the key") {
  fails({"nginx.aio_nowait=true"}, "nginx.aio_nowait", "needs aio = \"threads\"");
  fails({"nginx.aio=\"threads\"", "nginx.aio_nowait=true", "kernel.release=\"4.9.0\""}, "nginx.aio_nowait",
        "needs Linux 4.14 or later");
  fails({"nginx.aio=\"threads\"", "nginx.aio_nowait=true", "nginx.directio=\"1m\""}, "nginx.aio_nowait", "O_DIRECT");
  fails({"nginx.aio=\"io_uring\"", "kernel.release=\"3.13.0-32-generic\""}, "nginx.aio", "needs Linux 5.1 or later");
  fails({"nginx.io_uring={entries=64}"}, "nginx.io_uring", "applies only with a ring (aio = \"io_uring\")");
  fails({"nginx.aio=\"io_uring\"", "nginx.io_uring={entries=100}"}, "nginx.io_uring.entries", "power of two");
  fails({"nginx.aio=\"io_uring\"", "nginx.io_uring={entries=65536}"}, "nginx.io_uring.entries", "32768");
  fails({"nginx.aio=\"io_uring\"", "kernel.release=\"5.10.0\"", "nginx.io_uring={max_workers=4}"},
        "nginx.io_uring.max_workers", "5.15");
  fails({"nginx.aio=\"io_uring\"", "nginx.aio_open=true"}, "nginx.aio_open", "needs");
  // Combinations of features merged separately that the model does not run.
  fails({"nginx.aio=\"io_uring\"", "nginx.os=\"freebsd\""}, "nginx.aio", "freebsd");
}
