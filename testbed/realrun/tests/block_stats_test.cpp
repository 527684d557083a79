// /sys/block/<dev>/stat and inflight: the parsers, the data device's disks,
// and iostat -x's figures from two readings, against hand-worked numbers.
#include <catch2/catch.hpp>

#include "common/tests/fake_tree.h"
#include "testbed/realrun/block_stats.h"

using namespace testbed::realrun;
using common::test::FakeTree;

namespace {
// As block/genhd.c prints it: 11 fields of %8lu (4.18+ appends discards, 5.5+ flushes).
const char* kStat0 = "    1000       10    80000     5000        0        0        0        0        3     9000    20000\n";
const char* kStat1 =
    "    2000       60   284800    30000        0        0        0        0        5    17000    55000"
    "        0        0        0        0        0        0\n";
constexpr std::uint64_t kSecond = 1'000'000'000;
}  // namespace

TEST_CASE("a /sys/block stat line: the 11 fields, later kernels' extra ones ignored", "[block_stats]") {
  const BlockStat a = parse_block_stat(kStat0);
  REQUIRE(a.ok);
  CHECK(a.reads == 1000);
  CHECK(a.read_merges == 10);
  CHECK(a.read_sectors == 80000);
  CHECK(a.read_ticks_ms == 5000);
  CHECK(a.in_flight == 3);
  CHECK(a.io_ticks_ms == 9000);
  CHECK(a.time_in_queue_ms == 20000);
  CHECK(parse_block_stat(kStat1).ok);
  CHECK_FALSE(parse_block_stat("1 2 3 4 5 6 7 8 9 10\n").ok);  // 10 fields
  CHECK_FALSE(parse_block_stat("").ok);
  const Inflight f = parse_inflight("       7        1\n");
  REQUIRE(f.ok);
  CHECK(f.reads == 7);
  CHECK(f.writes == 1);
  CHECK_FALSE(parse_inflight("7\n").ok);
}

TEST_CASE("iostat -x between two readings 10 s apart", "[block_stats]") {
  const DriveIostat x = iostat_between(parse_block_stat(kStat0), parse_block_stat(kStat1), 10.0);
  CHECK(x.r_s == Approx(100.0));                 // 1,000 reads / 10 s
  CHECK(x.rkb_s == Approx(10240.0));             // 204,800 sectors x 512 B = 102,400 KiB / 10 s
  CHECK(x.rrqm_s == Approx(5.0));                // 50 merges / 10 s
  CHECK(x.avgrq_kb == Approx(102.4));            // 102,400 KiB / 1,000 reads
  CHECK(x.avgqu_sz == Approx(3.5));              // 35,000 ms in queue / 10,000 ms
  CHECK(x.await_ms == Approx(25.0));             // 25,000 ms of read ticks / 1,000 reads
  CHECK(x.util == Approx(0.8));                  // 8,000 ms busy / 10,000 ms
  CHECK(iostat_between(parse_block_stat(kStat0), parse_block_stat(kStat1), 0).r_s == 0);
}

TEST_CASE("the data device: a partition's disk, an md array's members", "[block_stats]") {
  FakeTree tree;
  tree.write("/sys/block/sda/stat", kStat0);
  tree.write("/sys/block/sda/sda1/stat", kStat0);
  tree.write("/sys/block/sdb/stat", kStat0);
  tree.write("/sys/block/sdb/sdb1/stat", kStat0);
  tree.write("/sys/block/md0/stat", kStat0);
  tree.write("/sys/block/md0/slaves/sdb1", "");
  tree.write("/sys/block/md0/slaves/sda1", "");
  const auto files = common::files_under(tree.root());
  CHECK(data_block_devices(*files, "sda1") == std::vector<std::string>{"sda"});
  CHECK(data_block_devices(*files, "sdb") == std::vector<std::string>{"sdb"});
  CHECK(data_block_devices(*files, "md0") == std::vector<std::string>{"md0", "sda", "sdb"});
  CHECK(data_block_devices(*files, "nvme0n1").empty());
}

TEST_CASE("the sampler: figures from the first sample to the last, inflight's maximum and mean", "[block_stats]") {
  FakeTree tree;
  tree.write("/sys/block/sda/stat", kStat0);
  tree.write("/sys/block/sda/inflight", "       3        0\n");
  const auto files = common::files_under(tree.root());
  BlockSampler sampler(*files, {"sda", "gone"});
  sampler.sample(5 * kSecond);
  tree.write("/sys/block/sda/inflight", "       7        1\n");
  sampler.sample(10 * kSecond);
  tree.write("/sys/block/sda/stat", kStat1);
  tree.write("/sys/block/sda/inflight", "       2        0\n");
  sampler.sample(15 * kSecond);
  const auto figures = sampler.figures();
  REQUIRE(figures.size() == 2);
  const DriveIostat& x = figures[0];
  CHECK(x.device == "sda");
  CHECK(x.samples == 3);
  CHECK(x.r_s == Approx(100.0));  // 5 s to 15 s
  CHECK(x.avgqu_sz == Approx(3.5));
  CHECK(x.max_inflight == 8);             // 7 reads + 1 write
  CHECK(x.mean_inflight == Approx(13.0 / 3));  // (3 + 8 + 2) / 3
  CHECK(figures[1].device == "gone");
  CHECK(figures[1].samples == 0);
  CHECK(figures[1].r_s == 0);
}
