// md arrays as disk kinds (issue 25): RAID1's read balancing (raid1.c
// read_balance()), RAID0's striping (raid0.c map_sector()), RAID10 of SSD
// members, and the loader's [disk] of type raid0/raid1/raid10.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/hardware/md_array.h"
#include "models/hardware/md_layer.h"
#include "models/hardware/ssd.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"
#include "sim/engine.h"
#include "tests/load_error.h"

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB;

struct Count : models::IoListener {
  int done = 0;
  void on_io_done(std::uint64_t) override { ++done; }
};

// Member drives that record what they are given and finish when told.
struct Member : models::BlockDevice {
  struct Open {
    models::IoListener* listener;
    std::uint64_t tag, offset, length;
  };
  std::vector<Open> open;
  std::vector<Open> all;
  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* l, std::uint64_t tag) override {
    open.push_back({l, tag, offset, length});
    all.push_back({l, tag, offset, length});
  }
  std::uint64_t capacity() const override { return 1000 * kMiB * kKiB; }
  std::uint64_t readahead_bytes() const override { return 128 * kKiB; }
  models::DiskStats stats() const override { return {}; }
  void finish_oldest() {
    const Open o = open.front();
    open.erase(open.begin());
    o.listener->on_io_done(o.tag);
  }
};

models::MdLayout raid1_of(std::uint32_t devices) {
  models::MdLayout l;
  l.level = models::MdLevel::kRaid1;
  l.devices = devices;
  l.near_copies = devices;
  return l;
}

models::MdMembers members(bool nonrot) { return models::MdMembers{1000 * kMiB * kKiB, 128 * kKiB, nonrot}; }

// The member each read went to, in submission order.
struct Trace {
  std::vector<Member> m;
  models::MdLayer layer;
  Count done;
  std::vector<std::uint32_t> chose;
  Trace(const models::MdLayout& layout, bool nonrot)
      : m(layout.devices), layer(layout, members(nonrot), drives(m)) {}
  static std::vector<models::BlockDevice*> drives(std::vector<Member>& m) {
    std::vector<models::BlockDevice*> out;
    for (Member& d : m) out.push_back(&d);
    return out;
  }
  void read(std::uint64_t offset, std::uint64_t length = 4 * kKiB) {
    std::vector<std::size_t> before;
    for (const Member& d : m) before.push_back(d.all.size());
    layer.submit_read(offset, length, &done, 0);
    for (std::uint32_t i = 0; i < m.size(); ++i)
      for (std::size_t k = before[i]; k < m[i].all.size(); ++k) chose.push_back(i);
  }
};

}  // namespace

// raid1.c read_balance(): md starts every head at 0 and every next_seq_sect
// at 0 (setup_conf), so nothing is sequential to a read elsewhere; both
// members idle: min_pending 0, the first of equals: member 0. Then one read
// pending on member 0: member 1 has fewer; then one each: member 0 again.
TEST_CASE("md RAID1 of two idle SSDs: a lone read goes to member 0, a stream of concurrent reads alternates") {
  Trace t(raid1_of(2), true);
  t.read(7 * kMiB);
  CHECK(t.chose == std::vector<std::uint32_t>{0});
  for (std::uint64_t i = 1; i < 100; ++i) t.read((7 + 3 * i) * kMiB);  // none continues another, none at a head
  std::uint32_t on1 = 0;
  for (std::size_t i = 0; i < t.chose.size(); ++i) {
    CHECK(t.chose[i] == i % 2);
    on1 += t.chose[i];
  }
  CHECK(on1 == 50);
  CHECK(t.layer.pending(0) == 50);
  CHECK(t.layer.pending(1) == 50);
  CHECK(t.layer.balance_counts(0).idle == 1);     // the lone read
  CHECK(t.layer.balance_counts(1).idle == 1);     // the second
  CHECK(t.layer.balance_counts(0).fewest == 49);  // the rest: fewest pending
  CHECK(t.layer.balance_counts(1).fewest == 49);
}

// The same hand-made sequence on spinning members and on SSDs, worked
// through raid1.c read_balance() (4 KiB reads, offsets in MiB):
//   R1 at 10: both idle: member 0 (min_pending 0, the first).
//   R2 at 10 + 4K continues R1 (next_seq_sect of member 0): member 0 at
//      once, although member 1 is idle; the same for SSDs.
//   R3 at 500: member 0 has 2 pending, member 1 none: member 1.
//   R1 and R3 complete: heads at 10 + 4K and 500 + 4K; member 1 idle.
//   R4 at 600: member 1 idle: member 1 (both kinds).
//   R5 at 400: one pending each. HDDs: the closest head, member 1 (100 MiB
//      against 390). SSDs: the fewest pending, the first of equals: member 0.
//   R6 at 20. HDDs: one pending each again, the closest head: member 0
//      (10 MiB). SSDs: member 0 has 2, member 1 one: member 1.
TEST_CASE("md RAID1: a sequential continuation stays on its member, HDDs then go by head distance, SSDs by pending") {
  const auto trace = [](bool nonrot) {
    Trace t(raid1_of(2), nonrot);
    t.read(10 * kMiB);
    t.read(10 * kMiB + 4 * kKiB);
    t.read(500 * kMiB);
    t.m[0].finish_oldest();
    t.m[1].finish_oldest();
    CHECK(t.layer.head_position(0) == 10 * kMiB + 4 * kKiB);
    CHECK(t.layer.head_position(1) == 500 * kMiB + 4 * kKiB);
    t.read(600 * kMiB);
    t.read(400 * kMiB);
    t.read(20 * kMiB);
    return t.chose;
  };
  CHECK(trace(false) == std::vector<std::uint32_t>{0, 0, 1, 1, 1, 0});
  CHECK(trace(true) == std::vector<std::uint32_t>{0, 0, 1, 1, 0, 1});
}

TEST_CASE("md RAID1: the array is a member's size, reads are split only at 64 MiB barrier units") {
  Trace t(raid1_of(2), false);
  CHECK(t.layer.capacity() == 1000 * kMiB * kKiB);
  CHECK(t.layer.readahead_bytes() == 128 * kKiB);  // raid1 sets no io_opt
  t.read(64 * kMiB - 8 * kKiB, 16 * kKiB);         // crosses the unit at 64 MiB: two pieces
  // The second piece continues the first on member 0 (next_seq_sect).
  CHECK(t.chose == std::vector<std::uint32_t>{0, 0});
  CHECK(t.m[0].all[0].length == 8 * kKiB);
  CHECK(t.m[0].all[1].offset == 64 * kMiB);
  CHECK(t.m[0].all[1].length == 8 * kKiB);
  t.m[0].finish_oldest();
  CHECK(t.done.done == 0);
  t.m[0].finish_oldest();
  CHECK(t.done.done == 1);
}

// raid0.c map_sector() with equal members (one strip zone): chunk k is on
// member k mod devices at device offset (k / devices) * chunk.
TEST_CASE("md RAID0: offset to member and chunk, and a read across a chunk boundary") {
  models::MdLayout l;
  l.level = models::MdLevel::kRaid0;
  l.devices = 3;
  l.near_copies = 1;
  l.chunk_bytes = 64 * kKiB;
  Trace t(l, false);
  const std::uint64_t c = 64 * kKiB;
  CHECK(t.layer.locate(c - 4 * kKiB, 0).device == 0);
  CHECK(t.layer.locate(c - 4 * kKiB, 0).device_offset == c - 4 * kKiB);
  CHECK(t.layer.locate(c, 0).device == 1);
  CHECK(t.layer.locate(c, 0).device_offset == 0);
  CHECK(t.layer.locate(2 * c + 5, 0).device == 2);
  CHECK(t.layer.locate(3 * c, 0).device == 0);
  CHECK(t.layer.locate(3 * c, 0).device_offset == c);
  CHECK(t.layer.locate(7 * c + 100, 0).device == 1);
  CHECK(t.layer.locate(7 * c + 100, 0).device_offset == 2 * c + 100);
  // 8 KiB from 60 KiB: 4 KiB at the end of chunk 0 (member 0), 4 KiB at the start of chunk 1 (member 1).
  t.read(c - 4 * kKiB, 8 * kKiB);
  CHECK(t.chose == std::vector<std::uint32_t>{0, 1});
  CHECK(t.m[0].all[0].offset == c - 4 * kKiB);
  CHECK(t.m[0].all[0].length == 4 * kKiB);
  CHECK(t.m[1].all[0].offset == 0);
  CHECK(t.m[1].all[0].length == 4 * kKiB);
  t.m[1].finish_oldest();
  CHECK(t.done.done == 0);
  t.m[0].finish_oldest();
  CHECK(t.done.done == 1);
  // Each member rounded down to whole chunks; readahead two stripes of 3 x 64 KiB.
  CHECK(t.layer.capacity() == (1000 * kMiB * kKiB / c) * 3 * c);
  CHECK(t.layer.readahead_bytes() == 2 * 3 * c);
}

namespace {

// Readers that each read 4 KiB of their own chunk again as soon as the last
// read is done (a closed loop at depth `depth`).
struct Readers : models::IoListener {
  models::BlockDevice& disk;
  std::vector<std::uint64_t> offsets;
  std::uint64_t done = 0;
  Readers(models::BlockDevice& d, std::uint32_t depth, std::uint64_t chunk) : disk(d) {
    for (std::uint32_t k = 0; k < depth; ++k) offsets.push_back(k * chunk);
    for (std::uint32_t k = 0; k < depth; ++k) disk.submit_read(offsets[k], 4 * kKiB, this, k);
  }
  void on_io_done(std::uint64_t tag) override {
    ++done;
    disk.submit_read(offsets[tag], 4 * kKiB, this, tag);
  }
};

// An SSD of fixed service time S: 50 us of access plus 4 KiB at 400 MB/s / 8
// units (81.92 us), 131.92 us in all, 8 reads at once.
models::SsdSpec fixed_ssd() {
  models::SsdSpec s;
  s.capacity_bytes = 100e9;
  s.read_median_s = 50e-6;
  s.read_sigma = 0;
  s.bandwidth_Bps = 400e6;
  s.parallelism = 8;
  return s;
}

std::uint64_t reads_in(models::BlockDevice& disk, sim::Engine& e, std::uint32_t depth, double seconds) {
  Readers r(disk, depth, 512 * kKiB);
  e.run_until(sim::from_seconds_ceil(seconds));
  return r.done;
}

}  // namespace

// RAID10 near 2 over 4 SSDs (md.read_balance 5.3+: the copy with the fewest
// pending): reader k reads chunk k, so chunks alternate between the pairs
// and each pair splits its readers between its two members. A member serves
// min(depth / 4, 8) at once, one SSD min(depth, 8); each read takes S.
// Over 100.5 S: one SSD completes 100 x min(depth, 8), the array
// 100 x min(depth, 32).
TEST_CASE("md RAID10 of SSDs: throughput at depth N against one SSD follows from the layout") {
  const double s = 50e-6 + 4096.0 / (400e6 / 8);
  for (std::uint32_t depth : {4u, 8u, 32u, 64u}) {
    INFO("depth " << depth);
    sim::Engine e1;
    models::Ssd one(e1, fixed_ssd(), sim::RandomStreams(1).stream(5));
    const std::uint64_t single = reads_in(one, e1, depth, 100.5 * s);
    CHECK(single == 100 * std::min<std::uint64_t>(depth, 8));

    sim::Engine e2;
    models::Raid10Spec spec;
    spec.layout.devices = 4;
    spec.layout.near_copies = 2;
    spec.layout.read_balance = "5.3+";
    spec.member = fixed_ssd();
    models::MdArray raid(spec, models::native_md_members(e2, spec.member, nullptr, [](std::uint32_t i) {
                           return sim::RandomStreams(1).stream(5, i);
                         }));
    const std::uint64_t array = reads_in(raid, e2, depth, 100.5 * s);
    CHECK(array == 100 * std::min<std::uint64_t>(depth, 32));
    for (std::uint32_t m = 0; m < 4; ++m) CHECK(raid.member(m).stats().reads == array / 4);  // completed, evenly
  }
}

namespace {
const std::string kData = CLERK_TEST_DATA;

models::ConfigError md_error(const std::vector<std::string>& overrides) {
  return tests::load_error(kData + "/raid1-ssd.toml", overrides);
}
}  // namespace

TEST_CASE("md arrays load as registry rows: raid1 of SSDs, raid0 and raid10 of either drive") {
  const std::uint64_t kMember = 500ULL << 30;  // "500g"
  const models::Scenario sc = models::load_scenario(kData + "/raid1-ssd.toml");
  CHECK(std::string(models::disk_kind(sc.hardware.disk).name) == "raid1");
  CHECK(models::disk_kind(sc.hardware.disk).capacity(sc.hardware.disk) == kMember);
  const models::Scenario r0 = models::load_scenario(kData + "/raid1-ssd.toml", {"disk.type=\"raid0\"", "disk.chunk=\"64k\""});
  CHECK(models::disk_kind(r0.hardware.disk).capacity(r0.hardware.disk) == kMember / (64 * kKiB) * 2 * 64 * kKiB);
  const models::Scenario r10 = models::load_scenario(kData + "/raid1-ssd.toml", {"disk.type=\"raid10\"", "disk.devices=4"});
  CHECK(models::disk_kind(r10.hardware.disk).capacity(r10.hardware.disk) == kMember / (512 * kKiB) * 2 * 512 * kKiB);
  CHECK(models::disk_kind(r10.hardware.disk).drive(r10.hardware.disk) == nullptr);  // no spinning drive to offer clerk-ui
}

TEST_CASE("md arrays: a bad devices or chunk is a ConfigError naming file, line and key") {
  const models::ConfigError none = md_error({"disk.devices=0"});
  CHECK(none.key() == "disk.devices");
  CHECK(none.file() == "--set");
  const models::ConfigError many = md_error({"disk.devices=300"});
  CHECK(many.key() == "disk.devices");
  const models::ConfigError odd = md_error({"disk.type=\"raid10\"", "disk.devices=4", "disk.chunk=\"48k\""});
  CHECK(odd.key() == "disk.chunk");
  CHECK(std::string(odd.what()).find("power of two") != std::string::npos);
  const models::ConfigError ragged = md_error({"disk.type=\"raid0\"", "disk.chunk=6000"});
  CHECK(ragged.key() == "disk.chunk");
  CHECK(std::string(ragged.what()).find("multiple of 4 KiB") != std::string::npos);
  const models::ConfigError r1chunk = md_error({"disk.chunk=\"64k\""});  // RAID1 has no chunk (mdadm --chunk)
  CHECK(r1chunk.key() == "disk.chunk");
  const models::ConfigError member = md_error({"disk.member.type=\"simple\""});
  CHECK(member.key() == "disk.member.type");
  const models::ConfigError copies = md_error({"disk.type=\"raid10\"", "disk.near_copies=3"});
  CHECK(copies.key() == "disk.near_copies");
}
