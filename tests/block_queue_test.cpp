// The block layer's request queue (models/hardware/block_queue.h) against
// hand-worked traces of block/blk-core.c and block/deadline-iosched.c (3.13).
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "models/hardware/block_queue.h"

namespace {

constexpr std::uint64_t kSector = 512;
constexpr std::uint64_t kKiB = 1024;

// A device that records what it is given and finishes only when told.
struct FakeDevice : models::BlockQueue::Device {
  struct Issued {
    std::uint32_t request;
    std::uint64_t offset;
    std::uint64_t length;
  };
  std::vector<Issued> issued;
  void issue(sim::Time, std::uint32_t request, std::uint64_t offset, std::uint64_t length) override {
    issued.push_back({request, offset, length});
  }
};

struct Done : models::IoListener {
  std::vector<std::uint64_t> tags;
  void on_io_done(std::uint64_t tag) override { tags.push_back(tag); }
};

struct Sleeps : models::SlotWaitListener {
  std::vector<std::pair<std::uint32_t, bool>> events;  // task, asleep
  void slot_wait(sim::Time, std::uint32_t task, bool asleep) override { events.emplace_back(task, asleep); }
};

// Far apart, so that no two merge.
std::uint64_t spread(std::uint64_t i) { return i * 1024 * kKiB; }

// One read of 4 KiB by task `task`, under its own plug (as a task's readahead).
void read_by(models::BlockQueue& q, sim::Time now, std::uint32_t task, std::uint64_t offset, Done& done) {
  q.start_plug(task);
  q.submit(now, offset, 4 * kKiB, &done, task);
  q.finish_plug(now);
}

}  // namespace

TEST_CASE("request slots: the 129th submitter sleeps, sleepers wake in order, a woken task batches") {
  FakeDevice dev;
  models::BlockQueueSpec spec;  // nr_requests 128, BLK_BATCH_REQ 32, deadline, 31 tags
  models::BlockQueue q(spec, dev);
  Sleeps sleeps;
  q.set_slot_wait_listener(&sleeps);
  Done done;
  for (std::uint32_t t = 0; t < 128; ++t) read_by(q, 0, t, spread(t), done);
  CHECK(q.allocated() == 128);
  CHECK(q.sleepers() == 0);
  CHECK(dev.issued.size() == 31);  // the device's tags
  CHECK(sleeps.events.empty());

  // Tasks 128, 129, 130 find the queue full: the 128th allocation made task
  // 127 a batcher and marked it full; they are not batchers.
  for (std::uint32_t t = 128; t < 131; ++t) read_by(q, 0, t, spread(t), done);
  CHECK(q.allocated() == 128);
  CHECK(q.sleepers() == 3);
  REQUIRE(sleeps.events.size() == 3);
  CHECK(sleeps.events[0] == std::make_pair(128u, true));
  CHECK(sleeps.events[2] == std::make_pair(130u, true));

  // Task 128 is asleep: its next bio waits behind the first.
  q.start_plug(128);
  q.submit(0, spread(200), 4 * kKiB, &done, 1000);
  q.submit(0, spread(201), 4 * kKiB, &done, 1001);
  q.finish_plug(0);
  CHECK(q.allocated() == 128);

  // One completion frees a slot: 127 + 1 <= 128 wakes the first sleeper
  // only, which becomes a batcher and takes all three of its slots.
  q.complete(sim::milliseconds(10), dev.issued[0].request);
  CHECK(done.tags == std::vector<std::uint64_t>{0});
  CHECK(q.sleepers() == 2);
  REQUIRE(sleeps.events.size() == 4);
  CHECK(sleeps.events[3] == std::make_pair(128u, false));
  CHECK(q.allocated() == 130);  // over nr_requests: a batcher may go to 3/2 of it

  // Over nr_requests, frees wake nobody until fewer than 128 are allocated.
  q.complete(sim::milliseconds(20), dev.issued[1].request);
  q.complete(sim::milliseconds(30), dev.issued[2].request);
  CHECK(q.sleepers() == 2);
  CHECK(q.allocated() == 128);
  q.complete(sim::milliseconds(40), dev.issued[3].request);
  CHECK(q.sleepers() == 1);
  CHECK(sleeps.events.back() == std::make_pair(129u, false));
  q.complete(sim::milliseconds(50), dev.issued[4].request);
  CHECK(q.sleepers() == 0);
  CHECK(sleeps.events.back() == std::make_pair(130u, false));
  const models::DiskStats s = q.stats(sim::milliseconds(50));
  CHECK(s.slot_waits == 3);
  CHECK(s.max_sleepers == 3);
  CHECK(s.max_outstanding == 130);
  // Task 128 slept 10 ms, 129 for 40 ms, 130 for 50 ms.
  CHECK(s.slot_wait_s == Approx(0.100));
}

TEST_CASE("request slots: congestion at 113 of 128 allocated, cleared below 103") {
  FakeDevice dev;
  models::BlockQueue q(models::BlockQueueSpec{}, dev);
  Done done;
  for (std::uint32_t i = 0; i < 112; ++i) q.submit(0, spread(i), 4 * kKiB, &done, i);
  CHECK_FALSE(q.congested());
  q.submit(0, spread(112), 4 * kKiB, &done, 112);  // count + 1 = 113 >= nr_congestion_on
  CHECK(q.congested());
  // Free down to 103 allocated: still congested; at 102 (< 103) it clears.
  for (std::uint32_t i = 0; i < 10; ++i) q.complete(0, dev.issued[i].request);
  CHECK(q.allocated() == 103);
  CHECK(q.congested());
  q.complete(0, dev.issued[10].request);
  CHECK_FALSE(q.congested());
}

TEST_CASE("blk-mq tags: no batching, no overflow, sleepers woken wake_batch at a time") {
  FakeDevice dev;
  models::BlockQueueSpec spec;
  spec.scheduler = "mq-deadline";
  spec.nr_requests = 16;  // wake_batch = 16 / 8 = 2
  spec.queue_depth = 4;
  models::BlockQueue q(spec, dev);
  Done done;
  for (std::uint32_t i = 0; i < 19; ++i) q.submit(0, spread(i), 4 * kKiB, &done, i);
  CHECK(q.allocated() == 16);
  CHECK(q.sleepers() == 3);
  CHECK_FALSE(q.congested());  // blk-mq never marks the bdi congested
  q.complete(0, dev.issued[0].request);
  CHECK(q.sleepers() == 3);  // one free is not a batch
  q.complete(0, dev.issued[1].request);
  CHECK(q.sleepers() == 1);  // two frees wake two
  CHECK(q.allocated() == 16);
}

TEST_CASE("deadline: a batch of fifo_batch (16) in sector order, an expired read waits for the boundary") {
  FakeDevice dev;
  models::BlockQueueSpec spec;
  spec.queue_depth = 1;  // one request at a time, to see the order
  models::BlockQueue q(spec, dev);
  Done done;
  q.submit(0, 0, 4 * kKiB, &done, 0);  // X, at sector 0: dispatched at once
  REQUIRE(dev.issued.size() == 1);
  q.submit(0, spread(1), 4 * kKiB, &done, 1);      // A: the oldest queued
  q.submit(0, spread(10000), 4 * kKiB, &done, 2);  // E: far out, next oldest
  // 30 more at sectors between, in shuffled order.
  std::vector<std::uint64_t> order;
  for (std::uint64_t k = 0; k < 30; ++k) order.push_back(2 + (k * 7) % 30);
  for (const std::uint64_t k : order) q.submit(0, spread(k), 4 * kKiB, &done, 100 + k);

  // X done at 1 ms: a new batch, no next_rq, so the FIFO head A.
  q.complete(sim::milliseconds(1), dev.issued[0].request);
  CHECK(dev.issued.back().offset == spread(1));
  // E expires at 500 ms. From 600 ms on, the batch goes on regardless to
  // its 16th request (A and sectors 2..16), in sector order.
  sim::Time t = sim::milliseconds(600);
  for (std::uint64_t k = 2; k <= 16; ++k) {
    q.complete(t, dev.issued.back().request);
    CHECK(dev.issued.back().offset == spread(k));
    t += sim::milliseconds(10);
  }
  // The batch boundary: expiry is checked and E, the FIFO head, goes next.
  q.complete(t, dev.issued.back().request);
  CHECK(dev.issued.back().offset == spread(10000));
  // After E there is no next request in sector order: the next batch starts
  // at the FIFO head, which is sector 2 + 0 = the first of the shuffled...
  // the oldest left is the first submitted of those not yet served.
  q.complete(t, dev.issued.back().request);
  std::uint64_t oldest_left = 0;
  for (const std::uint64_t k : order)
    if (k > 16) {
      oldest_left = k;
      break;
    }
  CHECK(dev.issued.back().offset == spread(oldest_left));
}

TEST_CASE("deadline: writes_starved lets reads win twice, then a write batch") {
  FakeDevice dev;
  models::BlockQueueSpec spec;
  spec.queue_depth = 1;
  spec.deadline.fifo_batch = 1;  // one request per batch, to count batches
  models::BlockQueue q(spec, dev);
  Done done;
  q.submit(0, 0, 4 * kKiB, &done, 0);  // occupies the device
  for (std::uint64_t i = 1; i <= 4; ++i) q.submit(0, spread(i), 4 * kKiB, &done, i);              // reads
  for (std::uint64_t i = 11; i <= 12; ++i) q.submit(0, spread(i), 4 * kKiB, &done, i, true);      // writes
  std::vector<bool> wrote;
  for (int n = 0; n < 6; ++n) {
    q.complete(0, dev.issued.back().request);
    wrote.push_back(dev.issued.back().offset >= spread(11));
  }
  // starved counts 0, 1 (reads), then 2 >= writes_starved: a write; again.
  CHECK(wrote == std::vector<bool>{false, false, true, false, false, true});
}

TEST_CASE("plugging: a readahead window becomes one request per max_sectors_kb") {
  models::BlockQueueSpec spec;  // max_sectors_kb 512
  Done done;
  SECTION("plugged: 16 bios of 64 KiB (1 MiB) become 2 requests of 512 KiB") {
    FakeDevice dev;
    models::BlockQueue q(spec, dev);
    q.start_plug(models::kNoTask);
    for (std::uint64_t i = 0; i < 16; ++i) q.submit(0, i * 64 * kKiB, 64 * kKiB, &done, i);
    CHECK(dev.issued.empty());  // held in the plug
    q.finish_plug(0);
    REQUIRE(dev.issued.size() == 2);
    CHECK(dev.issued[0].offset == 0);
    CHECK(dev.issued[0].length == 512 * kKiB);
    CHECK(dev.issued[1].offset == 512 * kKiB);
    CHECK(dev.issued[1].length == 512 * kKiB);
    CHECK(q.stats(0).merges == 14);
    q.complete(0, dev.issued[0].request);
    CHECK(done.tags == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  }
  SECTION("plugged in reverse order: front merges give the same 2 requests") {
    FakeDevice dev;
    models::BlockQueue q(spec, dev);
    q.start_plug(models::kNoTask);
    for (std::uint64_t i = 16; i-- > 0;) q.submit(0, i * 64 * kKiB, 64 * kKiB, &done, i);
    q.finish_plug(0);
    REQUIRE(dev.issued.size() == 2);
    CHECK(dev.issued[0].length == 512 * kKiB);
    CHECK(dev.issued[1].length == 512 * kKiB);
  }
  SECTION("unplugged on an idle device: each bio is dispatched alone, 16 requests") {
    FakeDevice dev;
    models::BlockQueue q(spec, dev);
    for (std::uint64_t i = 0; i < 16; ++i) q.submit(0, i * 64 * kKiB, 64 * kKiB, &done, i);
    CHECK(dev.issued.size() == 16);
    CHECK(q.stats(0).merges == 0);
  }
  SECTION("unplugged behind a busy device: bios merge in the elevator") {
    FakeDevice dev;
    spec.queue_depth = 1;
    models::BlockQueue q(spec, dev);
    q.submit(0, spread(100), 4 * kKiB, &done, 99);  // keeps the device busy
    for (std::uint64_t i = 0; i < 12; ++i) q.submit(0, i * 64 * kKiB, 64 * kKiB, &done, i);
    q.complete(0, dev.issued[0].request);
    REQUIRE(dev.issued.size() == 2);
    CHECK(dev.issued[1].length == 512 * kKiB);
    q.complete(0, dev.issued[1].request);
    CHECK(dev.issued[2].length == 256 * kKiB);
  }
  SECTION("a bio larger than max_sectors_kb is split and completes once") {
    FakeDevice dev;
    models::BlockQueue q(spec, dev);
    q.submit(0, 0, 1280 * kKiB, &done, 7);
    REQUIRE(dev.issued.size() == 3);
    CHECK(dev.issued[2].length == 256 * kKiB);
    for (int i = 0; i < 3; ++i) q.complete(0, dev.issued[i].request);
    CHECK(done.tags == std::vector<std::uint64_t>{7});
  }
}

TEST_CASE("iostat figures: await from allocation to completion, in-flight time, utilisation") {
  FakeDevice dev;
  models::BlockQueueSpec spec;
  spec.queue_depth = 1;
  models::BlockQueue q(spec, dev);
  Done done;
  q.submit(0, 0, 4 * kKiB, &done, 0);
  q.submit(0, spread(1), 4 * kKiB, &done, 1);
  q.complete(sim::milliseconds(10), dev.issued[0].request);
  q.complete(sim::milliseconds(30), dev.issued[1].request);
  const models::DiskStats s = q.stats(sim::milliseconds(40));
  CHECK(s.reads == 2);
  CHECK(s.await_sum_s == Approx(0.040));            // 10 ms + 30 ms
  CHECK(s.queue_depth_integral == Approx(0.040));  // 2 for 10 ms, 1 for 20 ms
  CHECK(s.busy_s == Approx(0.030));
  CHECK(s.max_outstanding == 2);
  (void)kSector;
}
