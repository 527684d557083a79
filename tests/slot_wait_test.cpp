// A request-slot sleep is the submitting task's: the page cache's readahead
// and the path walk pass their caller (the kernel's `current`) down to the
// request queue, which tells TaskStates; top's D then shows the task asleep
// in get_request() until its batch wake-up (block/blk-core.c, 3.13).
#include <catch2/catch.hpp>
#include <vector>

#include "models/hardware/queued_device.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"
#include "models/os/task_states.h"

namespace {

using models::TaskState;
using models::WaitCause;

constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr sim::Time kMs = 1'000'000;

// The drive: records what it is given, finishes when told.
struct FakeDrive : models::BlockDevice {
  struct Read {
    models::IoListener* listener;
    std::uint64_t tag;
  };
  std::vector<Read> reads;
  void submit_read(std::uint64_t, std::uint64_t, models::IoListener* who, std::uint64_t tag) override {
    reads.push_back({who, tag});
  }
  std::uint64_t capacity() const override { return 1ULL << 40; }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  models::DiskStats stats() const override { return {}; }
};

// A task reading a file (a worker's sendfile): goes to D for its page as the worker does.
struct Reader : models::PageWaiter, models::WalkWaiter {
  std::uint32_t task = models::kNoTask;
  void on_page_ready(std::uint64_t) override {}
  void on_walk_done(std::uint64_t) override {}
  std::uint32_t submitter_task() const override { return task; }
};

struct Rig {
  sim::Time now = 0;
  FakeDrive drive;
  models::QueuedDevice queue{drive, models::BlockQueueSpec{}, [this] { return now; }};  // 128 slots, 31 tags
  models::TaskStates tasks{4, 1};
  models::PageCache cache{queue, {1024 * kMiB, 64 * 1024, kMiB}};
  std::vector<Reader> readers;
  std::vector<models::ReadaheadState> ra;

  explicit Rig(std::uint32_t n) : readers(n), ra(n) {
    queue.set_slot_wait_listener(&tasks);
    for (std::uint32_t t = 0; t < n; ++t) {
      readers[t].task = tasks.add_task(0, 0, TaskState::kRunning);
      cache.add_file(t * 64 * kMiB, 4 * kMiB);  // far apart: no two windows merge
    }
  }
  // Task t reads the start of its file: a readahead window (one request), then D for the page.
  void read(std::uint32_t t) {
    const auto r = cache.read(t, 0, 1, ra[t], &readers[t], 0);
    REQUIRE(r == models::PageCache::Result::kWait);
    tasks.set(now, readers[t].task, TaskState::kDiskWait, WaitCause::kDiskData);
  }
  void complete_oldest(std::size_t i) { drive.reads[i].listener->on_io_done(drive.reads[i].tag); }
};

}  // namespace

TEST_CASE("the 129th reader's task is in D for a request slot until its batch wake-up") {
  Rig rig(130);
  for (std::uint32_t t = 0; t < 128; ++t) rig.read(t);
  CHECK(rig.queue.queue().allocated() == 128);
  CHECK(rig.tasks.cause(127) == WaitCause::kDiskData);  // took the last slot (a batcher)

  rig.read(128);  // no slot: asleep in get_request(), then (in the model) waits for its page
  rig.read(129);
  CHECK(rig.queue.queue().sleepers() == 2);
  CHECK(rig.tasks.state(128) == TaskState::kDiskWait);
  CHECK(rig.tasks.cause(128) == WaitCause::kRequestSlot);
  CHECK(rig.tasks.cause(129) == WaitCause::kRequestSlot);

  // 10 ms later the first request completes: a freed slot below nr_requests
  // wakes the first sleeper only (__freed_request); it now waits for its page.
  rig.now = 10 * kMs;
  rig.complete_oldest(0);
  CHECK(rig.tasks.cause(128) == WaitCause::kDiskData);
  CHECK(rig.tasks.cause(129) == WaitCause::kRequestSlot);
  CHECK(rig.tasks.state(0) == TaskState::kDiskWait);  // the model's task 0 is woken by its caller, not here

  // Task 128 took its slot as a batcher, so 128 are allocated again and
  // task 129 sleeps until the next free brings the count below 128.
  rig.now = 20 * kMs;
  rig.complete_oldest(1);
  CHECK(rig.tasks.cause(129) == WaitCause::kDiskData);
  CHECK(rig.queue.queue().sleepers() == 0);

  // Over [0, 20 ms]: task 128 10 ms and task 129 20 ms in request-slot D,
  // a mean of 30 / 20 = 1.5 tasks; 128 tasks in disk-data D all the time,
  // plus 128 from 10 ms and 129 not at all: 128 + 0.5.
  CHECK(rig.tasks.group_cause_mean(0, WaitCause::kRequestSlot, 0, 20 * kMs) == Approx(1.5));
  CHECK(rig.tasks.group_cause_mean(0, WaitCause::kDiskData, 0, 20 * kMs) == Approx(128.5));
  CHECK(rig.tasks.group_mean(0, TaskState::kDiskWait, 0, 20 * kMs) == Approx(130.0));
}

TEST_CASE("a path walk's metadata read sleeps for a slot as its task") {
  Rig rig(129);
  for (std::uint32_t t = 0; t < 128; ++t) rig.read(t);
  models::VfsCache vfs(models::VfsCacheSpec{}, &rig.cache);
  models::Ext4Layout layout({1, 16}, rig.queue.capacity(), 32, sim::RandomStream(3));
  models::PathWalk walk(rig.queue, rig.cache, vfs, layout, 7);
  const std::uint64_t keys[2] = {(1ULL << 56) | 0, (2ULL << 56) | 3};  // "/0/3", both cold
  CHECK_FALSE(walk.open(keys, 2, &rig.readers[128], 0));
  rig.tasks.set(0, 128, TaskState::kDiskWait, WaitCause::kDiskMetadata);
  CHECK(rig.tasks.cause(128) == WaitCause::kRequestSlot);
  rig.now = 5 * kMs;
  rig.complete_oldest(0);
  CHECK(rig.tasks.cause(128) == WaitCause::kDiskMetadata);  // woken, now waits for the block
}

TEST_CASE("a reader the model does not name (kNoTask) sleeps anonymously: no task changes") {
  Rig rig(128);
  for (std::uint32_t t = 0; t < 128; ++t) rig.read(t);
  const std::uint32_t extra = rig.cache.add_file(200 * 64 * kMiB, 4 * kMiB);
  Reader nobody;
  models::ReadaheadState ra;
  CHECK(rig.cache.read(extra, 0, 1, ra, &nobody, 0) == models::PageCache::Result::kWait);
  CHECK(rig.queue.queue().sleepers() == 1);
  for (std::uint32_t t = 0; t < 128; ++t) CHECK(rig.tasks.cause(t) == WaitCause::kDiskData);
}
