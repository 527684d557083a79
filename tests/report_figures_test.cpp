// The report's figures as they are defined (README, "Glossary"): merged
// percentiles are those of the pooled samples, the censored tail counts the
// requests in flight at their age, and %util is iostat's io_ticks (time with
// at least one request in flight), not summed service time.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "models/clients/wrk_group.h"
#include "models/hardware/disk_activity.h"
#include "models/hardware/ssd.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"
#include "sim/latency_stats.h"

namespace {

const std::string kData = CLERK_TEST_DATA;

// The exact p-th percentile of samples: the sample of rank ceil(p/100 n).
double exact_percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100 * static_cast<double>(v.size()))));
  return v[rank - 1];
}

struct Recorder : models::IoListener {
  void on_io_done(std::uint64_t) override {}
};

}  // namespace

TEST_CASE("percentiles merged by counts are those of the pooled samples, not the mean of the groups'") {
  // Two groups of very different sizes and latencies: a fast one with many
  // responses and a slow one with few.
  std::vector<double> fast, slow;
  for (int i = 1; i <= 2000; ++i) fast.push_back(1e-3 * (1 + (i * 37 % 1000) / 100.0));  // 1 ms .. 11 ms
  for (int i = 1; i <= 50; ++i) slow.push_back(0.5 + 0.02 * i);                            // 0.52 s .. 1.5 s
  sim::LatencyStats a, b, pooled;
  for (double x : fast) {
    a.record(x);
    pooled.record(x);
  }
  for (double x : slow) {
    b.record(x);
    pooled.record(x);
  }
  sim::LatencyStats merged = a;
  merged.merge(b);
  std::vector<double> all = fast;
  all.insert(all.end(), slow.begin(), slow.end());
  REQUIRE(merged.count() == all.size());
  for (double p : {50.0, 90.0, 99.0, 99.9}) {
    INFO("p" << p);
    CHECK(merged.percentile(p) == pooled.percentile(p));
    // The histogram's answer is the upper edge of the sample's bin (under 1% wide).
    const double exact = exact_percentile(all, p);
    CHECK(merged.percentile(p) >= exact);
    CHECK(merged.percentile(p) <= exact * 1.0097);
  }
  CHECK(merged.max() == 1.5);
  // Averaging the groups' percentiles gives another figure: p99 of the pool is
  // a slow response (50 of 2050 are slow, 2.4%), the mean of the p99s is not.
  CHECK(merged.percentile(99) > 0.5);
  CHECK((a.percentile(99) + b.percentile(99)) / 2 < merged.percentile(99) * 0.8);
}

TEST_CASE("the censored tail counts the requests in flight at their age, as lower bounds") {
  models::WrkGroupSpec spec;
  spec.name = "g";
  spec.threads = 1;
  spec.connections = 11;
  spec.timeout_s = 10;
  models::WrkGroup g(spec);
  // Nine responses of 10, 20, ... 90 ms; two requests unanswered at the end,
  // written 1 s and 2 s before it.
  for (int i = 1; i <= 9; ++i) g.record_response(sim::seconds(1) * i, sim::milliseconds(10) * i, 1000);
  sim::LatencyStats unanswered;
  unanswered.record(1.0);
  unanswered.record(2.0);
  const models::WrkResult r = g.result(sim::seconds(10), unanswered);
  CHECK(r.complete == 9);
  CHECK(r.in_flight == 2);
  CHECK(r.in_flight_age.count() == 2);
  CHECK(r.in_flight_age.max() == 2.0);
  const sim::LatencyStats all = r.with_in_flight();
  REQUIRE(all.count() == 11);
  // Completed only: p50 is rank 5 of 9 (50 ms), p90 rank 9 (90 ms), p99 rank 9.
  CHECK(r.raw.percentile(50) == Approx(0.050).epsilon(0.01));
  CHECK(r.raw.percentile(90) == Approx(0.090).epsilon(0.01));
  CHECK(r.raw.percentile(99) == Approx(0.090).epsilon(0.01));
  // With the two at their age: p50 is rank 6 of 11 (60 ms), p90 rank 10
  // (1 s), p99 rank 11 (2 s, the oldest).
  CHECK(all.percentile(50) == Approx(0.060).epsilon(0.01));
  CHECK(all.percentile(90) == Approx(1.0).epsilon(0.01));
  CHECK(all.percentile(99) == 2.0);
  // The completed responses' mean and max are untouched.
  CHECK(r.raw.max() == Approx(0.090));
  CHECK(r.raw.count() == 9);
}

TEST_CASE("a run reports the censored tail and the merged groups in its JSON, adding up") {
  // Overloaded: 2 s with many connections on one slow disk, so requests are
  // still in flight at the end.
  const models::Scenario sc = models::load_scenario(kData + "/small-hdd.toml", {"clients.random.connections=64"});
  models::World w(sc, 3, 2);
  w.run();
  const models::RunResult r = w.result(0);
  const nlohmann::ordered_json j = models::to_json(r, false);
  std::uint64_t in_flight = 0, completed = 0;
  sim::LatencyStats pooled;
  for (const models::WrkResult& c : r.clients) {
    INFO("group " << c.spec.name);
    const auto& g = j["clients"][c.spec.name];
    CHECK(g["latency_censored_s"]["in_flight"] == g["accounting"]["in_flight_at_end"]);
    CHECK(g["latency_censored_s"]["count"].get<std::uint64_t>() == c.complete + c.in_flight);
    CHECK(g["latency_censored_s"]["p99"].get<double>() >= g["latency_raw_s"]["p99"].get<double>());
    in_flight += c.in_flight;
    completed += c.complete;
    pooled.merge(c.raw);
  }
  CHECK(in_flight > 0);
  const auto& m = j["clients_merged"];
  CHECK(m["groups"] == r.clients.size());
  CHECK(m["latency_raw_s"]["count"].get<std::uint64_t>() == completed);
  CHECK(m["latency_censored_s"]["in_flight"].get<std::uint64_t>() == in_flight);
  for (const auto& [key, p] : {std::pair{"p50", 50.0}, std::pair{"p90", 90.0}, std::pair{"p99", 99.0},
                               std::pair{"p999", 99.9}})
    CHECK(m["latency_raw_s"][key].get<double>() == pooled.percentile(p));
}

TEST_CASE("%util is the time with at least one request in flight (iostat's io_ticks), not summed service time") {
  // A hand-made trace: reads over [0, 10] and [5, 20] ms overlap; one more
  // over [30, 35] ms; the window ends at 50 ms. In flight at least one:
  // 0-20 and 30-35 ms = 25 ms (50%); summed service: 10 + 15 + 5 = 30 ms;
  // the queue-depth integral (avgqu-sz x elapsed) is that same 30 ms.
  models::DiskActivity d;
  d.submitted(sim::milliseconds(0));
  d.submitted(sim::milliseconds(5));
  d.done(sim::milliseconds(10), 4096);
  d.done(sim::milliseconds(20), 4096);
  d.submitted(sim::milliseconds(30));
  d.done(sim::milliseconds(35), 4096);
  const models::DiskStats s = d.stats(sim::milliseconds(50));
  CHECK(s.busy_s == Approx(0.025));
  CHECK(s.queue_depth_integral == Approx(0.030));
  CHECK(s.reads == 3);
}

TEST_CASE("an SSD serving reads in parallel is busy while any is outstanding, as iostat counts it") {
  // Four internal units, 1 ms a read (no spread, transfer negligible): reads
  // at 0 and 0.5 ms overlap, one at 3 ms is alone; the window ends at 5 ms.
  // io_ticks: [0, 1.5] and [3, 4] ms = 2.5 ms. Busy unit-time over the units
  // would say (1 + 1 + 1) / 4 = 0.75 ms.
  models::SsdSpec spec;
  spec.read_median_s = 1e-3;
  spec.read_sigma = 0;
  spec.bandwidth_Bps = 1e12;
  spec.parallelism = 4;
  sim::Engine e;
  models::Ssd ssd(e, spec, sim::RandomStream(1));
  Recorder rec;
  ssd.submit_read(0, 4096, &rec, 0);
  e.run_until(sim::microseconds(500));
  ssd.submit_read(1 << 20, 4096, &rec, 1);
  e.run_until(sim::milliseconds(3));
  ssd.submit_read(2 << 20, 4096, &rec, 2);
  e.run_until(sim::milliseconds(5));
  const models::DiskStats s = ssd.stats();
  CHECK(s.reads == 3);
  CHECK(s.busy_s == Approx(0.0025).epsilon(1e-4));
  CHECK(s.queue_depth_integral == Approx(0.003).epsilon(1e-4));
}
