// The sequential (readahead) read: a real fio job and the disk's stat lines
// around it, and the fit against the random model's closed form.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "testbed/calibrate/seq_read.h"

using namespace testbed::calibrate;

namespace {
std::string data(const std::string& name) {
  std::ifstream in(std::string(CALIBRATE_TEST_DATA) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// /sys/block/vda/stat around that job on the project's machine (2026-11-26).
const char* kBefore = "   29967     6176  2390290     8690    24633    14180  6522480    82277        0     5724    91528     5401       32  1162008      518     1376       42\n";
const char* kAfter = "   30499     6176  6584818    12999    24637    14180  6524344    82278        0     6384    95843     5408       32  1174824      522     1376       42\n";
}  // namespace

TEST_CASE("a sequential buffered fio job and the device's stat lines around it") {
  const SeqRead r = seq_read_from(data("fio-read-buffered-1m.json"), kBefore, kAfter);
  CHECK(r.fio_bandwidth_Bps == Approx(1529546757));
  CHECK(r.fio_bytes == 2048ULL << 20);
  CHECK(r.requests == 532);
  CHECK(r.bytes == (6584818ULL - 2390290ULL) * 512);
  CHECK(r.read_ticks_s == Approx(4.309));
  CHECK(r.io_ticks_s == Approx(0.660));
  CHECK(r.time_in_queue_s == Approx(4.315));
  CHECK_THROWS(seq_read_from(data("fio-read-buffered-1m.json"), "garbage", kAfter));
}

TEST_CASE("the sequential fit is bytes over busy time, beside the random model at that size and depth") {
  SeqRead r;
  r.requests = 500;
  r.bytes = 500ULL * (4 << 20);  // 4 MiB requests
  r.io_ticks_s = 0.625;
  r.time_in_queue_s = 2.5;       // 4 outstanding while busy
  r.read_ticks_s = 2.5;
  SsdFit random;
  random.access_mean_s = 100e-6;
  random.bandwidth_Bps = 2e9;
  random.parallelism = 2;
  random.depth_bandwidth = {{1, 1e9}, {8, 2e9}};  // at depth 4: 1e9 + 3/7 x 1e9
  const SeqFit f = fit_sequential(r, random);
  const double req = 4 << 20;
  CHECK(f.sequential_bandwidth_Bps == Approx(500 * req / 0.625));
  CHECK(f.mean_request_bytes == Approx(req));
  CHECK(f.mean_depth == Approx(4));
  CHECK(f.await_s == Approx(5e-3));
  CHECK(f.sequential_service_s == Approx(0.625 / 500));
  const double unit = (1e9 + 3.0 / 7 * 1e9) / 2;
  CHECK(f.random_service_s == Approx(100e-6 + req / unit));
  CHECK(f.random_bandwidth_Bps == Approx(2 * req / (100e-6 + req / unit)));

  SeqRead none;
  CHECK_THROWS(fit_sequential(none, random));
}

TEST_CASE("the sequential job reads the file once through the page cache, its pages dropped first") {
  const auto args = fio_seq_args("/data/t.dat", 1ULL << 30, "/tmp/o.json");
  const auto has = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); };
  CHECK(has("--rw=read"));
  CHECK(has("--direct=0"));
  CHECK(has("--invalidate=1"));
  CHECK(has("--size=1073741824"));
  CHECK_FALSE(has("--time_based"));
}

TEST_CASE("the median sequential run is the middle one by busy-time rate") {
  std::vector<SeqRead> runs(3);
  runs[0].bytes = 3000;  // 3000 B/s
  runs[0].io_ticks_s = 1;
  runs[1].bytes = 1000;  // 1000 B/s
  runs[1].io_ticks_s = 1;
  runs[2].bytes = 4000;  // 2000 B/s
  runs[2].io_ticks_s = 2;
  CHECK(median_seq_run(runs) == 2);
  runs.pop_back();
  CHECK(median_seq_run(runs) == 1);  // of two, the lower
  CHECK_THROWS(median_seq_run({}));
}

TEST_CASE("the QD1 job reads the file sequentially with O_DIRECT, one read at a time, in the buffered reads' size") {
  SeqFit buffered;
  buffered.mean_request_bytes = 3939.4 * 1024;  // the buffered job's mean request
  CHECK(qd1_block_bytes(buffered) == 3936 * 1024);  // down to 4 KiB
  buffered.mean_request_bytes = 100;
  CHECK(qd1_block_bytes(buffered) == 4096);
  const auto args = fio_seq_qd1_args("/data/t.dat", 1ULL << 30, 3936 * 1024, 2, "/tmp/o.json");
  const auto has = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); };
  CHECK(has("--rw=read"));
  CHECK(has("--direct=1"));
  CHECK(has("--ioengine=psync"));  // synchronous: queue depth 1
  CHECK(has("--bs=3936k"));
  CHECK(has("--runtime=2000ms"));
  // A real job on the project's machine (2026-11-26): 650 reads of 3936 KiB.
  const SeqQd1 q = seq_qd1_from(data("fio-read-direct-3936k-qd1.json"));
  CHECK(q.block_bytes == 3936 * 1024);
  CHECK(q.ios == 650);
  CHECK(q.clat_mean_s == Approx(3075.897652308e-6));
  CHECK(q.bandwidth_Bps == Approx(1308592207));
}

TEST_CASE("sequential_depth_bandwidth: one read's rate alone at depth 1, the busy-time rate at the buffered depth") {
  // 4 MiB alone in 2.5 ms; readahead kept 6.86 outstanding at 3420 MB/s.
  SeqQd1 q{4 << 20, 100, 2.5e-3, 0};
  SeqFit b;
  b.mean_depth = 6.86;
  b.sequential_bandwidth_Bps = 3420e6;
  const double alone = (4 << 20) / 2.5e-3;  // 1677.7216 MB/s
  auto p = sequential_depth_points(q, b, 1);
  REQUIRE(p.size() == 2);
  CHECK(p[0].first == 1);
  CHECK(p[0].second == Approx(alone));
  CHECK(p[1].first == 6.86);
  CHECK(p[1].second == Approx(3420e6));  // one unit, busy throughout
  // Eight units: a lone read has one of them (the drive's rate is 8 x it);
  // at 6.86 outstanding, 6.86 of them were busy.
  p = sequential_depth_points(q, b, 8);
  CHECK(p[0].second == Approx(8 * alone));
  CHECK(p[1].second == Approx(3420e6 * 8 / 6.86));
  // Two units, both busy at 6.86: the drive's rate is the busy-time rate.
  CHECK(sequential_depth_points(q, b, 2)[1].second == Approx(3420e6));
  // The buffered job never had two outstanding: the depth-1 point only.
  b.mean_depth = 1.004;
  CHECK(sequential_depth_points(q, b, 1).size() == 1);
  CHECK_THROWS(sequential_depth_points(SeqQd1{}, b, 1));
}

TEST_CASE("the median QD1 run is the middle one by mean latency") {
  std::vector<SeqQd1> runs{{4096, 1, 3e-3, 0}, {4096, 1, 1e-3, 0}, {4096, 1, 2e-3, 0}};
  CHECK(median_qd1_run(runs) == 2);
  runs.pop_back();
  CHECK(median_qd1_run(runs) == 1);  // of two, the lower
  CHECK_THROWS(median_qd1_run({}));
}
