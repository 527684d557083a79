// The engine, random streams and queues against closed-form results.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/engine.h"
#include "sim/fairness.h"
#include "sim/fair_share.h"
#include "sim/fifo_queue.h"
#include "sim/latency_stats.h"
#include "sim/random.h"

namespace {

struct Recorder : sim::EventTarget {
  sim::Engine* engine;
  std::vector<std::pair<sim::Time, std::uint64_t>> seen;
  void on_event(std::uint64_t arg) override { seen.emplace_back(engine->now(), arg); }
};

}  // namespace

TEST_CASE("events run in time order and ties in scheduling order") {
  sim::Engine e;
  Recorder r;
  r.engine = &e;
  e.schedule_at(30, &r, 1);
  e.schedule_at(10, &r, 2);
  e.schedule_at(30, &r, 3);
  e.schedule_at(10, &r, 4);
  e.run_until(100);
  REQUIRE(r.seen.size() == 4);
  CHECK(r.seen[0] == std::make_pair(sim::Time{10}, std::uint64_t{2}));
  CHECK(r.seen[1] == std::make_pair(sim::Time{10}, std::uint64_t{4}));
  CHECK(r.seen[2] == std::make_pair(sim::Time{30}, std::uint64_t{1}));
  CHECK(r.seen[3] == std::make_pair(sim::Time{30}, std::uint64_t{3}));
  CHECK(e.now() == 100);
  CHECK_THROWS(e.schedule_at(50, &r, 5));
}

TEST_CASE("random streams are reproducible and independent") {
  sim::RandomStreams a(42), b(42), c(43);
  auto s1 = a.stream(1, 0), s2 = b.stream(1, 0), s3 = a.stream(1, 1), s4 = c.stream(1, 0);
  const auto x = s1.next_u64();
  CHECK(x == s2.next_u64());
  CHECK(x != s3.next_u64());
  CHECK(x != s4.next_u64());
  sim::RandomStream u(5);
  double sum = 0, sum_exp = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    sum += u.uniform();
    sum_exp += u.exponential(2.0);
    CHECK(u.below(7) < 7);
  }
  CHECK(sum / n == Approx(0.5).epsilon(0.01));
  CHECK(sum_exp / n == Approx(2.0).epsilon(0.02));
}

namespace {

// M/M/1 with a FIFO queue: Poisson arrivals (rate lambda), exponential
// service (rate mu). Mean wait in queue Wq = rho / (mu - lambda).
struct MM1 : sim::EventTarget {
  sim::Engine engine;
  sim::RandomStream rng{11};
  sim::FifoQueue<sim::Time> queue;
  double lambda, mu;
  bool busy = false;
  double wait_sum = 0;
  std::uint64_t served = 0;
  MM1(double l, double m) : lambda(l), mu(m) {}
  void start_service() {
    const sim::Time arrived = queue.pop(engine.now());
    wait_sum += sim::to_seconds(engine.now() - arrived);
    ++served;
    busy = true;
    engine.schedule_in(sim::from_seconds_ceil(rng.exponential(1 / mu)), this, 1);
  }
  void on_event(std::uint64_t kind) override {
    if (kind == 0) {  // arrival
      queue.push(engine.now(), engine.now());
      engine.schedule_in(sim::from_seconds_ceil(rng.exponential(1 / lambda)), this, 0);
      if (!busy) start_service();
    } else {  // departure
      busy = false;
      if (!queue.empty()) start_service();
    }
  }
};

}  // namespace

TEST_CASE("M/M/1 FIFO mean wait matches rho/(mu-lambda)") {
  MM1 q(0.8, 1.0);
  q.engine.schedule_at(0, &q, 0);
  q.engine.run_until(sim::seconds(400000));
  const double wq = q.wait_sum / static_cast<double>(q.served);
  CHECK(wq == Approx(0.8 / (1.0 - 0.8)).epsilon(0.05));
  // Little's law on the queue: L = lambda * Wq.
  CHECK(q.queue.length().mean(0, q.engine.now()) == Approx(0.8 * wq).epsilon(0.03));
}

namespace {

struct Done : sim::FairShareListener {
  sim::Engine* engine;
  std::vector<std::pair<std::uint64_t, double>> finished;  // tag, seconds
  std::vector<std::pair<std::uint64_t, double>> thresholds;
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double remaining) override {
    (remaining > 0 ? thresholds : finished).emplace_back(tag, sim::to_seconds(engine->now()));
  }
};

}  // namespace

TEST_CASE("processor sharing splits capacity equally") {
  sim::Engine e;
  Done d;
  d.engine = &e;
  sim::FairShare ps(e, 100.0);  // 100 units/s
  ps.add(100, &d, 1);           // alone it would take 1 s
  ps.add(300, &d, 2);
  e.run_until(sim::seconds(10));
  REQUIRE(d.finished.size() == 2);
  // Both at 50/s until job 1 ends at 2 s; job 2 then has 200 left at 100/s.
  CHECK(d.finished[0].first == 1);
  CHECK(d.finished[0].second == Approx(2.0).epsilon(1e-9));
  CHECK(d.finished[1].second == Approx(4.0).epsilon(1e-9));
  CHECK(ps.served() == Approx(400).epsilon(1e-9));
}

TEST_CASE("a per-job cap makes processor sharing a multi-server") {
  sim::Engine e;
  Done d;
  d.engine = &e;
  sim::FairShare cpu(e, 2.0, 1.0);  // two cores
  cpu.add(1.0, &d, 1);
  cpu.add(1.0, &d, 2);
  cpu.add(1.0, &d, 3);
  e.run_until(sim::seconds(10));
  // Three jobs on two cores: each at 2/3 until all end at 1.5 s.
  REQUIRE(d.finished.size() == 3);
  for (auto& f : d.finished) CHECK(f.second == Approx(1.5).epsilon(1e-9));
}

TEST_CASE("extending a job and thresholds fire at the right moments") {
  sim::Engine e;
  Done d;
  d.engine = &e;
  sim::FairShare nic(e, 1000.0);
  const auto j = nic.add(1000, &d, 7);
  nic.set_threshold(j, 400);
  e.run_until(sim::milliseconds(500));
  nic.extend(j, 500);  // 1000 left at 0.5 s
  e.run_until(sim::seconds(5));
  REQUIRE(d.thresholds.size() == 1);
  CHECK(d.thresholds[0].second == Approx(1.1).epsilon(1e-9));  // 600 more units after 0.5 s
  REQUIRE(d.finished.size() == 1);
  CHECK(d.finished[0].second == Approx(1.5).epsilon(1e-9));
}

namespace {

// M/M/1-PS: mean sojourn 1/(mu - lambda), whatever the service distribution's shape.
struct MM1PS : sim::EventTarget, sim::FairShareListener {
  sim::Engine engine;
  sim::FairShare ps{engine, 1.0};
  sim::RandomStream rng{3};
  std::vector<sim::Time> arrival;
  double sojourn_sum = 0;
  std::uint64_t done = 0;
  void on_event(std::uint64_t) override {
    arrival.push_back(engine.now());
    ps.add(rng.exponential(1.0), this, arrival.size() - 1);
    engine.schedule_in(sim::from_seconds_ceil(rng.exponential(1 / 0.7)), this, 0);
  }
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    sojourn_sum += sim::to_seconds(engine.now() - arrival[tag]);
    ++done;
  }
};

}  // namespace

TEST_CASE("M/M/1 processor sharing mean sojourn matches 1/(mu-lambda)") {
  MM1PS q;
  q.engine.schedule_at(0, &q, 0);
  q.engine.run_until(sim::seconds(200000));
  CHECK(q.sojourn_sum / static_cast<double>(q.done) == Approx(1.0 / (1.0 - 0.7)).epsilon(0.05));
}

TEST_CASE("latency statistics: exact moments and percentiles within a bin") {
  sim::LatencyStats s;
  for (int i = 1; i <= 1000; ++i) s.record(i * 1e-3);  // 1 ms .. 1 s
  CHECK(s.count() == 1000);
  CHECK(s.mean() == Approx(0.5005));
  CHECK(s.stdev() == Approx(0.28880).epsilon(1e-4));  // sample stdev of 1..1000 ms
  CHECK(s.max() == Approx(1.0));
  CHECK(s.percentile(50) == Approx(0.500).epsilon(0.01));
  CHECK(s.percentile(99) == Approx(0.990).epsilon(0.01));
  CHECK(s.percentile(100) == Approx(1.0));
}

TEST_CASE("Jain's fairness index on closed-form allocations") {
  CHECK(sim::jain_index({5, 5, 5, 5}) == Approx(1.0));
  CHECK(sim::jain_index({1, 0, 0, 0}) == Approx(0.25));
  CHECK(sim::jain_index({1, 1, 0, 0}) == Approx(0.5));
  CHECK(sim::jain_index({3, 1}) == Approx(16.0 / 20.0));
}
