// The SSD model: its access-time sampler against its parameters, its queue,
// its rates by depth (on the engine, and on the clockless drive).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <vector>

#include "models/hardware/ssd.h"
#include "models/hardware/ssd_drive.h"

namespace {
std::vector<double> draw(models::SsdSpec spec, int n) {
  sim::Engine e;
  models::Ssd ssd(e, spec, sim::RandomStream(17));
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(ssd.sample_access_s());
  std::sort(v.begin(), v.end());
  return v;
}
double pct(const std::vector<double>& v, double p) { return v[static_cast<std::size_t>(p / 100 * (v.size() - 1))]; }
}  // namespace

TEST_CASE("the lognormal body has the median and spread it is given") {
  models::SsdSpec s;
  s.read_median_s = 50e-6;
  s.read_sigma = 0.3;
  const auto v = draw(s, 400000);
  CHECK(pct(v, 50) == Approx(50e-6).epsilon(0.01));
  // 99th percentile of a lognormal: median * exp(2.3263 sigma)
  CHECK(pct(v, 99) == Approx(50e-6 * std::exp(2.3263 * 0.3)).epsilon(0.02));
}

TEST_CASE("slow reads and stalls come at their rates and sizes") {
  models::SsdSpec s;
  s.read_median_s = 50e-6;
  s.read_sigma = 0.3;
  s.slow_probability = 0.001;
  s.slow_median_s = 2e-3;
  s.slow_sigma = 1.0;
  s.stall_probability = 0.0001;
  s.stall_min_s = 0.1;
  s.stall_max_s = 1.0;
  const int n = 4000000;
  const auto v = draw(s, n);
  const auto above = [&](double t) { return static_cast<double>(v.end() - std::upper_bound(v.begin(), v.end(), t)) / n; };
  // Nothing from the body reaches 0.5 ms (7.7 sigma); slow reads are over it
  // with probability P(lognormal(2 ms, 1) > 0.5 ms) = 0.917.
  CHECK(above(0.5e-3) == Approx(0.001 * 0.917 + 0.0001).epsilon(0.05));
  // Only stalls pass 100 ms (a slow read would need 3.9 sigma), uniformly to 1 s.
  // 400 stalls expected: three standard deviations is 15%.
  CHECK(above(0.1) == Approx(0.0001).epsilon(0.15));
  CHECK(above(0.55) == Approx(0.00005).epsilon(0.22));
  CHECK(v.back() <= 1.0);
}

TEST_CASE("a measured latency CDF is reproduced by inverse sampling") {
  models::SsdSpec s;
  s.latency_cdf = {{20e-6, 0.5}, {80e-6, 0.99}, {5e-3, 0.999}, {0.5, 1.0}};
  const auto v = draw(s, 500000);
  // Linear between the points: p98 = 20 + (0.98-0.5)/0.49 * 60 us, and
  // p99.5 = 80 us + (0.005/0.009) * 4920 us. (Exactly at a point the steep
  // segment after it makes the sample percentile jumpy.)
  CHECK(pct(v, 50) == Approx(20e-6).epsilon(0.02));
  CHECK(pct(v, 98) == Approx(78.78e-6).epsilon(0.01));
  CHECK(pct(v, 99.5) == Approx(2813e-6).epsilon(0.02));
  CHECK(v.back() <= 0.5);
}

namespace {
struct Done : models::IoListener {
  std::vector<double> at;
  sim::Engine* e;
  void on_io_done(std::uint64_t) override { at.push_back(sim::to_seconds(e->now())); }
};

// Two parallel units, every access exactly 100 us, transfer at bandwidth_Bps.
models::SsdSpec two_units_100us(double bandwidth_Bps) {
  models::SsdSpec s;
  s.latency_cdf = {{100e-6, 0.0}, {100e-6, 1.0}};
  s.bandwidth_Bps = bandwidth_Bps;
  s.parallelism = 2;
  return s;
}
}  // namespace

TEST_CASE("reads beyond the drive's parallel units queue") {
  const models::SsdSpec s = two_units_100us(1e12);  // transfer negligible
  sim::Engine e;
  models::Ssd ssd(e, s, sim::RandomStream(1));
  Done d;
  d.e = &e;
  for (int i = 0; i < 4; ++i) ssd.submit_read(0, 4096, &d, 0);
  e.run_until(sim::seconds(1));
  REQUIRE(d.at.size() == 4);
  CHECK(d.at[1] == Approx(100e-6).epsilon(0.01));
  CHECK(d.at[3] == Approx(200e-6).epsilon(0.01));
}

TEST_CASE("a drive whose throughput grows with depth transfers at the bandwidth of its depth") {
  // 1 MiB reads, no access time: at depth 1 a read takes 1 MiB / 1 GB/s;
  // with 4 outstanding, each of the first four (depths 1..4 as they arrive,
  // one unit) takes the interpolated rate; beyond the last point, the last rate.
  models::SsdSpec s;
  s.latency_cdf = {{0.0, 0.0}, {0.0, 1.0}};
  s.parallelism = 1;
  s.depth_bandwidth = {{1, 1e9}, {3, 2e9}};
  sim::Engine e;
  models::Ssd ssd(e, s, sim::RandomStream(1));
  CHECK(ssd.bandwidth_at(1) == 1e9);
  CHECK(ssd.bandwidth_at(2) == Approx(1.5e9));
  CHECK(ssd.bandwidth_at(8) == 2e9);
  Done d;
  d.e = &e;
  const double mib = 1 << 20;
  ssd.submit_read(0, 1 << 20, &d, 0);  // alone: depth 1
  e.run_until(sim::seconds(1));
  REQUIRE(d.at.size() == 1);
  CHECK(d.at[0] == Approx(mib / 1e9).epsilon(1e-6));
  for (int i = 0; i < 4; ++i) ssd.submit_read(0, 1 << 20, &d, 0);
  e.run_until(sim::seconds(2));
  REQUIRE(d.at.size() == 5);
  // The first of the four starts alone (depth 1); the next starts with 3
  // outstanding (itself and two queued), then 2, then 1.
  const double t0 = d.at[0];
  CHECK(d.at[1] - t0 >= 0);
  CHECK(d.at[2] - d.at[1] == Approx(mib / 2e9).epsilon(1e-6));
  CHECK(d.at[3] - d.at[2] == Approx(mib / 1.5e9).epsilon(1e-6));
  CHECK(d.at[4] - d.at[3] == Approx(mib / 1e9).epsilon(1e-6));
}

TEST_CASE("the drive keeps iostat's await and the most reads outstanding") {
  // Four 100 us reads on two units, submitted together: two complete at
  // 100 us, two wait for a unit and complete at 200 us. await (submission to
  // completion) sums to 100 + 100 + 200 + 200 = 600 us; four were outstanding.
  const models::SsdSpec s = two_units_100us(1e15);  // transfer negligible (4096 B: 4 ps)
  sim::Engine e;
  models::Ssd ssd(e, s, sim::RandomStream(1));
  Done d;
  d.e = &e;
  for (int i = 0; i < 4; ++i) ssd.submit_read(0, 4096, &d, 0);
  e.run_until(sim::seconds(1));
  REQUIRE(d.at.size() == 4);
  const models::DiskStats x = ssd.stats();
  CHECK(x.reads == 4);
  CHECK(x.await_sum_s == Approx(600e-6).epsilon(1e-3));
  CHECK(x.max_outstanding == 4);
  // A reset counts from what is outstanding now (nothing); one read alone
  // then peaks at one.
  ssd.reset_peaks();
  CHECK(ssd.stats().max_outstanding == 0);
  ssd.submit_read(0, 4096, &d, 0);
  e.run_until(sim::seconds(2));
  CHECK(ssd.stats().max_outstanding == 1);
  CHECK(ssd.stats().await_sum_s == Approx(700e-6).epsilon(1e-3));
}

TEST_CASE("a read that starts where a recent read ended is served as a stream's next piece") {
  // Two units, 100 us access, 1 GB/s random bandwidth (0.5 GB/s a unit) and
  // 4 GB/s sequential (2 GB/s a unit). Reads one at a time, so that
  // completion times are the service times.
  models::SsdSpec s = two_units_100us(1e9);
  s.sequential_bandwidth_Bps = 4e9;
  s.capacity_bytes = 64e9;
  sim::Engine e;
  models::Ssd ssd(e, s, sim::RandomStream(1));
  Done d;
  d.e = &e;
  const std::uint64_t mib = 1 << 20, a = 1ULL << 30, b = 8ULL << 30;
  double last = 0;
  std::int64_t horizon = 0;
  const auto serve = [&](std::uint64_t offset) {
    ssd.submit_read(offset, mib, &d, 0);
    horizon += 1;
    e.run_until(sim::seconds(horizon));
    const double took = d.at.back() - last;
    last = sim::to_seconds(e.now());
    return took;
  };
  const double random = 100e-6 + mib / 0.5e9, sequential = mib / 2e9;
  CHECK(serve(a) == Approx(random).epsilon(1e-6));
  CHECK(serve(a + mib) == Approx(sequential).epsilon(1e-6));
  // Another stream starts; both go on, interleaved.
  CHECK(serve(b) == Approx(random).epsilon(1e-6));
  CHECK(serve(a + 2 * mib) == Approx(sequential).epsilon(1e-6));
  CHECK(serve(b + mib) == Approx(sequential).epsilon(1e-6));
  // A gap, or a read back, is random.
  CHECK(serve(a + 4 * mib) == Approx(random).epsilon(1e-6));
  CHECK(serve(b) == Approx(random).epsilon(1e-6));
  CHECK(ssd.sequential_reads() == 3);
  // An end older than the last kRememberedEnds reads is forgotten.
  for (std::size_t i = 0; i < models::Ssd::kRememberedEnds; ++i) serve((16 + 2 * i) * mib);
  CHECK(serve(a + 5 * mib) == Approx(random).epsilon(1e-6));

  // Without sequential_bandwidth the same continuation is a random read.
  models::Ssd plain(e, two_units_100us(1e9), sim::RandomStream(1));
  plain.submit_read(a, mib, &d, 0);
  e.run_until(sim::seconds(++horizon));
  last = sim::to_seconds(e.now());
  plain.submit_read(a + mib, mib, &d, 0);
  e.run_until(sim::seconds(++horizon));
  CHECK(d.at.back() - last == Approx(random).epsilon(1e-6));
  CHECK(plain.sequential_reads() == 0);
}

namespace {
// The drive without a clock (ssd_drive.h), no access time, 64 GB; streams
// begin at 1 GiB apart. Service times come back as durations: no engine.
struct ClocklessStreams {
  static constexpr std::uint64_t kMib = 1 << 20;
  struct Unused : models::IoListener {
    void on_io_done(std::uint64_t) override {}  // the owner tells it; here the test is the owner
  } listener;
  models::SsdDrive drive;
  explicit ClocklessStreams(models::SsdSpec s) : drive(with_streams(s), sim::RandomStream(1)) {}
  static models::SsdSpec with_streams(models::SsdSpec s) {
    s.latency_cdf = {{0.0, 0.0}, {0.0, 1.0}};
    s.capacity_bytes = 64e9;
    return s;
  }
  static std::uint64_t start_of(int stream) { return (static_cast<std::uint64_t>(stream) + 1) << 30; }
  sim::Time now = 0;  // the drive's clock, kept by the test
  // Stream `n`'s first read, alone, served and done: the drive remembers where it ended.
  void begin(int stream) {
    const auto started = drive.submit(now, start_of(stream), kMib, &listener, 0);
    REQUIRE(started);
    now += started->service;
    std::optional<models::SsdDrive::Started> next;
    drive.complete(now, started->slot, next);
    REQUIRE(!next);
  }
  // Stream `n`'s next read, submitted now.
  std::optional<models::SsdDrive::Started> next_of(int stream) {
    return drive.submit(now, start_of(stream) + kMib, kMib, &listener, 0);
  }
};
// A read of `bytes` at `drive_rate` over `units`, as the drive rounds it (up to the nanosecond).
sim::Time transfer(double bytes, double drive_rate, double units) { return sim::from_seconds_ceil(bytes / (drive_rate / units)); }
}  // namespace

TEST_CASE("a lone stream's next read transfers at the depth-1 point of sequential_depth_bandwidth over the units") {
  // Two units; alone, a read has one of them at 1 GB/s / 2 (what an O_DIRECT
  // read at queue depth 1 measures); sequential_bandwidth (3 GB/s, the
  // busy-time rate at readahead's depth) is then used at no depth.
  models::SsdSpec s;
  s.parallelism = 2;
  s.sequential_bandwidth_Bps = 3e9;
  s.sequential_depth_bandwidth = {{1, 1e9}, {7, 3e9}};
  ClocklessStreams c(s);
  c.begin(0);
  const auto lone = c.next_of(0);
  REQUIRE(lone);
  CHECK(lone->service == transfer(ClocklessStreams::kMib, 1e9, 2));
  CHECK(c.drive.sequential_reads() == 1);
  // Unset, sequential_bandwidth at any depth: the same read at 3 GB/s / 2.
  s.sequential_depth_bandwidth.clear();
  ClocklessStreams flat(s);
  flat.begin(0);
  CHECK(flat.next_of(0)->service == transfer(ClocklessStreams::kMib, 3e9, 2));
}

TEST_CASE("a stream's next read starting at depth k gets the k-point, linear between points, flat beyond the ends") {
  // Eight units, so that every read starts at once: the k-th submitted
  // starts with k outstanding (itself included). The rates fall past depth
  // 4, as a measured virtio table may: kept as given.
  models::SsdSpec s;
  s.parallelism = 8;
  s.sequential_bandwidth_Bps = 9e9;  // never used: the table covers every depth
  s.sequential_depth_bandwidth = {{1, 1e9}, {2, 1.6e9}, {4, 2.4e9}, {6, 2.0e9}};
  const double expected[8] = {1e9, 1.6e9, 2.0e9, 2.4e9, 2.2e9, 2.0e9, 2.0e9, 2.0e9};
  ClocklessStreams c(s);
  for (int k = 0; k < 8; ++k) c.begin(k);
  for (int k = 0; k < 8; ++k) {
    const auto started = c.next_of(k);
    REQUIRE(started);
    INFO("depth " << k + 1);
    CHECK(c.drive.sequential_bandwidth_at(k + 1) == Approx(expected[k]));
    CHECK(started->service == transfer(ClocklessStreams::kMib, expected[k], 8));
  }
  CHECK(c.drive.sequential_bandwidth_at(0.5) == 1e9);  // below the first point: its rate
  CHECK(c.drive.sequential_reads() == 8);
}

TEST_CASE("a queued stream's read takes the rate of the depth when a unit takes it, not when it arrived") {
  // One unit, three streams' next reads at once: the first starts alone
  // (depth 1); the second when the first is done, with the third still
  // queued (depth 2: 1.5 GB/s, halfway to the depth-3 point); the third alone.
  models::SsdSpec s;
  s.parallelism = 1;
  s.sequential_bandwidth_Bps = 3e9;
  s.sequential_depth_bandwidth = {{1, 1e9}, {3, 2e9}};
  ClocklessStreams c(s);
  for (int k = 0; k < 3; ++k) c.begin(k);
  const auto first = c.next_of(0);
  REQUIRE(first);
  CHECK(!c.next_of(1));
  CHECK(!c.next_of(2));
  sim::Time now = c.now;
  CHECK(first->service == transfer(ClocklessStreams::kMib, 1e9, 1));
  std::optional<models::SsdDrive::Started> second, third;
  now += first->service;
  c.drive.complete(now, first->slot, second);
  REQUIRE(second);
  CHECK(second->service == transfer(ClocklessStreams::kMib, 1.5e9, 1));
  now += second->service;
  c.drive.complete(now, second->slot, third);
  REQUIRE(third);
  CHECK(third->service == transfer(ClocklessStreams::kMib, 1e9, 1));
}
