// The disk model against closed-form results and datasheet figures.
#include <catch2/catch.hpp>
#include <cmath>

#include "models/hardware/hdd.h"
#include "sim/random.h"

namespace {

models::HddSpec wd_re4() {
  models::HddSpec s;
  s.capacity_bytes = 1000204886016.0;
  s.rpm = 7200;
  s.seek_average_s = 8.9e-3;
  s.seek_track_s = 2.0e-3;
  s.rate_outer_Bps = 128e6;
  s.rate_inner_Bps = 67.5e6;
  s.ncq_depth = 32;
  s.read_expire_s = 1e9;  // pure reordering unless a test says otherwise
  return s;
}

// Keeps `depth` random reads of `size` bytes outstanding and counts completions.
struct ClosedLoop : models::IoListener {
  sim::Engine engine;
  models::Hdd disk;
  sim::RandomStream rng{7};
  std::uint64_t size;
  std::uint64_t done = 0;
  ClosedLoop(const models::HddSpec& s, std::uint64_t bytes) : disk(engine, s), size(bytes) {}
  void issue() {
    const std::uint64_t slots = disk.capacity() / size - 1;
    disk.submit_read(rng.below(slots) * size, size, this, 0);
  }
  void on_io_done(std::uint64_t) override {
    ++done;
    issue();
  }
  double iops(int depth, double seconds) {
    for (int i = 0; i < depth; ++i) issue();
    engine.run_until(sim::from_seconds_ceil(seconds));
    return static_cast<double>(done) / seconds;
  }
};

}  // namespace

TEST_CASE("seek curve meets the datasheet average over random pairs") {
  sim::Engine e;
  models::Hdd disk(e, wd_re4());
  sim::RandomStream rng(1);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += disk.seek_time(std::fabs(rng.uniform() - rng.uniform()));
  CHECK(sum / n == Approx(8.9e-3).epsilon(0.01));
  CHECK(disk.seek_time(0) == 0);
  CHECK(disk.seek_time(1e-9) == Approx(2.0e-3).epsilon(0.01));
}

TEST_CASE("zoned transfer rate runs from the outer to the inner rate") {
  sim::Engine e;
  models::Hdd disk(e, wd_re4());
  CHECK(disk.transfer_rate(0) == Approx(128e6));
  CHECK(disk.transfer_rate(disk.capacity()) == Approx(67.5e6));
  // Transfer time of a sequential read is its bytes over the local rate.
  const double tracks = disk.tracks_before(1e6) - disk.tracks_before(0);
  CHECK(tracks * disk.rotation_s() == Approx(1e6 / 128e6).epsilon(0.001));
}

TEST_CASE("one random read at a time costs seek + half a rotation + transfer") {
  ClosedLoop loop(wd_re4(), 4096);
  const double iops = loop.iops(1, 200);
  // The mean over random offsets: the average seek (8.9 ms, over pairs of
  // random radii; offsets are denser outside, which shortens it a little),
  // half a turn (4.17 ms) and a 4 KiB transfer (about 0.04 ms).
  const double expected = 1.0 / (8.9e-3 + 60.0 / 7200 / 2 + 4096 / 97e6);
  CHECK(iops == Approx(expected).epsilon(0.08));
}

TEST_CASE("command queueing raises random-read throughput with depth") {
  const double qd1 = ClosedLoop(wd_re4(), 4096).iops(1, 100);
  const double qd4 = ClosedLoop(wd_re4(), 4096).iops(4, 100);
  const double qd32 = ClosedLoop(wd_re4(), 4096).iops(32, 100);
  WARN("4 KiB random read IOPS: QD1 " << qd1 << ", QD4 " << qd4 << ", QD32 " << qd32);
  CHECK(qd4 > qd1 * 1.2);
  CHECK(qd32 > qd4 * 1.2);
}
