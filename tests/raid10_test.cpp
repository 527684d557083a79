// md RAID10 near-2 layout and read balancing.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "models/hardware/md_array.h"
#include "models/hardware/md_layer.h"

namespace {
models::Raid10Spec four_disks() {
  models::Raid10Spec s;
  s.layout.devices = 4;
  s.layout.near_copies = 2;
  s.layout.chunk_bytes = 512 * 1024;
  models::HddSpec m;
  m.capacity_bytes = 1e12;
  m.rpm = 7200;
  m.seek_average_s = 8.9e-3;
  m.seek_track_s = 2e-3;
  m.rate_outer_Bps = 128e6;
  m.rate_inner_Bps = 67.5e6;
  s.member = m;
  return s;
}
// The array on the event heap, its drives without request queues.
struct Array {
  explicit Array(sim::Engine& e, const models::MdArraySpec& spec = four_disks())
      : raid(spec, models::native_md_members(e, spec.member, nullptr, [](std::uint32_t i) { return sim::RandomStreams(1).stream(5, i); })) {}
  models::MdArray raid;
};
struct Count : models::IoListener {
  int done = 0;
  void on_io_done(std::uint64_t) override { ++done; }
};
}  // namespace

TEST_CASE("near-2 layout: chunk k on pair k mod 2 and a 4 MiB file is 2 MiB per pair") {
  sim::Engine e;
  Array a(e);
  models::MdArray& raid = a.raid;
  const std::uint64_t chunk = 512 * 1024;
  CHECK(raid.locate(0, 0).device == 0);
  CHECK(raid.locate(0, 1).device == 1);
  CHECK(raid.locate(chunk, 0).device == 2);
  CHECK(raid.locate(chunk, 1).device == 3);
  CHECK(raid.locate(2 * chunk, 0).device == 0);
  CHECK(raid.locate(2 * chunk, 0).device_offset == chunk);
  // Pair 0 holds chunks 0, 2, 4, 6 of a 4 MiB file back to back.
  for (std::uint64_t k = 0; k < 8; k += 2) CHECK(raid.locate(k * chunk, 0).device_offset == k / 2 * chunk);
  CHECK(raid.capacity() == 2 * (static_cast<std::uint64_t>(1e12) / chunk) * chunk);
  // md raises readahead to two stripes: 2 x (4 x 512 KiB / 2) = 2 MiB.
  CHECK(raid.readahead_bytes() == 2 * 1024 * 1024);
}

TEST_CASE("a read spanning chunks completes once and after all its pieces") {
  sim::Engine e;
  Array a(e);
  models::MdArray& raid = a.raid;
  Count c;
  raid.submit_read(256 * 1024, 1024 * 1024, &c, 0);  // pieces on pairs 0, 1, 0
  e.run_until(sim::seconds(1));
  CHECK(c.done == 1);
  CHECK(raid.stats().reads == 3);
  CHECK(raid.stats().read_bytes == 1024 * 1024);
}

TEST_CASE("read balancing sends a second read to the idle mirror") {
  sim::Engine e;
  Array a(e);
  models::MdArray& raid = a.raid;
  Count c;
  raid.submit_read(0, 4096, &c, 0);
  raid.submit_read(4096, 4096, &c, 1);  // same chunk, disk 0 busy: disk 1 is idle
  e.run_until(sim::seconds(1));
  CHECK(c.done == 2);
  CHECK(raid.member(0).stats().reads == 1);
  CHECK(raid.member(1).stats().reads == 1);
}

namespace {
// Member drives that record what they are given and finish when told.
struct Member : models::BlockDevice {
  std::vector<std::pair<models::IoListener*, std::uint64_t>> open;
  std::uint64_t last_offset = 0;
  void submit_read(std::uint64_t offset, std::uint64_t, models::IoListener* l, std::uint64_t tag) override {
    open.emplace_back(l, tag);
    last_offset = offset;
  }
  std::uint64_t capacity() const override { return static_cast<std::uint64_t>(1e12); }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  models::DiskStats stats() const override { return {}; }
  void finish_oldest() {
    const auto [l, tag] = open.front();
    open.erase(open.begin());
    l->on_io_done(tag);
  }
};

// Which member each read of the hand-made sequence goes to.
std::vector<std::uint32_t> balance_trace(const std::string& version, std::vector<models::ReadBalanceCounts>* why = nullptr) {
  models::Raid10Spec spec = four_disks();
  spec.layout.read_balance = version;
  std::vector<Member> m(4);
  models::MdLayer layer(spec.layout, models::md_members(spec.member), {&m[0], &m[1], &m[2], &m[3]});
  Count done;
  std::vector<std::uint32_t> chose;
  auto read = [&](std::uint64_t offset) {
    std::vector<std::size_t> before;
    for (auto& d : m) before.push_back(d.open.size());
    layer.submit_read(offset, 4096, &done, 0);
    for (std::uint32_t i = 0; i < 4; ++i)
      if (m[i].open.size() > before[i]) chose.push_back(i);
  };
  const std::uint64_t chunk = 512 * 1024;
  // Logical chunks 0, 2, 4 are device offsets 0, 512 KiB, 1 MiB on pair (0, 1).
  read(0);          // R1: both idle
  read(2 * chunk);  // R2: member 0 busy, member 1 idle
  read(4 * chunk);  // R3: both busy, heads both at 0: equal distances
  m[0].finish_oldest();  // R1 done: head 0 at 4 KiB
  m[1].finish_oldest();  // R2 done: head 1 at 516 KiB; member 1 idle
  read(4096);       // R4: member 0 busy with its head exactly there; member 1 idle
  read(2 * chunk + 8192);  // R5: both busy (3.x) or 0 busy twice (4.10+)
  if (why)
    for (std::uint32_t i = 0; i < 4; ++i) why->push_back(layer.balance_counts(i));
  return chose;
}
}  // namespace

// Hand-worked through raid10.c read_balance() (near 2: slots 0 and 1 of
// chunk k are devices 2k mod 4 and 2k+1 mod 4):
//   R1: slot 0 idle. 3.x: break, member 0. 4.10+: distance 0 < MaxSector,
//       slot 1 idle too but 0 < 0 is false: member 0.
//   R2: slot 0 pending 1, |512K - 0| = 512K; slot 1 idle: member 1 either way.
//   R3: both pending, both heads at 0, 1M = 1M: the first, member 0.
//   R4 at device offset 4K: slot 0 pending 1 (R3), head 4K: distance 0.
//       3.x: slot 1 idle, break: member 1. 4.10+: slot 1 idle is distance
//       0, not < 0: member 0.
//   R5 at device offset 520K. 3.x: member 0 (R3) head 4K: 516K; member 1
//       (R4) head 516K: 4K: member 1. 4.10+: member 0 (R3, R4) head 4K:
//       516K; member 1 idle: 0: member 1.
TEST_CASE("md read_balance: 3.x and 4.10+ against a hand-worked trace of raid10.c") {
  CHECK(balance_trace("3.x") == std::vector<std::uint32_t>{0, 1, 0, 1, 1});
  CHECK(balance_trace("4.10+") == std::vector<std::uint32_t>{0, 1, 0, 0, 1});
  // 5.3+ differs only with a non-rotational member.
  CHECK(balance_trace("5.3+") == balance_trace("4.10+"));
  CHECK(models::find_read_balance("4.x+") == nullptr);
}

// Why each member got its pieces, from the same trace (the visualizer's
// drive tooltip shows these):
//   3.x:   member 0: R1 idle, R3 closer (1M = 1M, the first); member 1: R2
//          idle, R4 idle, R5 closer (4K against 516K).
//   4.10+: member 0: R1 idle, R3 closer, R4 its head right there (distance 0,
//          an idle member 1 is not nearer); member 1: R2 idle, R5 idle.
TEST_CASE("md read_balance counts why each member got its pieces") {
  const auto counts = [](const std::string& version) {
    std::vector<models::ReadBalanceCounts> why;
    balance_trace(version, &why);
    std::vector<std::uint64_t> flat;
    for (const auto& w : why) flat.insert(flat.end(), {w.idle, w.head_at, w.closer});
    return flat;
  };
  CHECK(counts("3.x") == std::vector<std::uint64_t>{1, 0, 1, 2, 0, 1, 0, 0, 0, 0, 0, 0});
  CHECK(counts("4.10+") == std::vector<std::uint64_t>{1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0});
}
