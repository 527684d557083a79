// The preemption model (models/os/cpu_scheduler.h, [kernel] preempt): under
// "none" a reschedule that finds the running thread inside a kernel burst
// waits for its next preemption point (cond_resched()) or its end; "full",
// and user bursts under any model, are preempted at once. Closed forms on
// one CPU, HZ 250 (ticks every 4 ms).
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "models/os/cpu_scheduler.h"

using models::CpuScheduler;
using models::CpuTopology;
using models::PreemptModel;
using models::SchedSpec;

namespace {

struct Recorder : sim::FairShareListener {
  sim::Engine& engine;
  std::map<std::uint64_t, std::vector<double>> ended;  // tag -> times (s)
  explicit Recorder(sim::Engine& e) : engine(e) {}
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    ended[tag].push_back(sim::to_seconds(engine.now()));
  }
};

struct At : sim::EventTarget {
  std::function<void()> fn;
  void on_event(std::uint64_t) override { fn(); }
};

// Who runs on CPU 0 at one instant.
struct Look : sim::EventTarget {
  const CpuScheduler& cpu;
  std::uint32_t seen = models::kNoEntity;
  explicit Look(const CpuScheduler& c) : cpu(c) {}
  void on_event(std::uint64_t) override { seen = cpu.running_on(0); }
};

std::unique_ptr<CpuScheduler> one_cpu(sim::Engine& e, const char* policy, PreemptModel mode) {
  SchedSpec s;
  s.policy = policy;
  auto cpu = std::make_unique<CpuScheduler>(e, models::make_fair_policy(s, 1), CpuTopology{1, 1, 1}, nullptr);
  cpu->set_preempt(mode);
  return cpu;
}

// CFS 3.13, one CPU: A runs a 20 ms burst from 0; B (never run, vruntime 0)
// wakes at 9.5 ms for 0.1 ms. place_entity() puts it at min_vruntime -
// latency / 2 = 9.5 - 3 = 6.5 ms, 3 ms behind A: more than the wake-up
// granularity (1 ms), so check_preempt_wakeup() asks for the CPU. The
// ticks at 4 and 8 ms find A alone. Returns B's end and its CPU wait.
struct WakeCase {
  double b_end = 0, b_wait = 0, a_end = 0;
};
WakeCase wake_during_burst(PreemptModel mode, bool kernel, double point_s) {
  sim::Engine e;
  auto cpu = one_cpu(e, "cfs", mode);
  Recorder rec(e);
  const auto a = cpu->add_thread(models::kNoTask, 0);
  const auto b = cpu->add_thread(models::kNoTask, 0);
  if (kernel) cpu->next_burst_in_kernel(a, point_s);
  cpu->run(a, 0.020, &rec, 0);
  At wake;
  wake.fn = [&] { cpu->run(b, 0.0001, &rec, 1); };
  e.schedule_at(sim::microseconds(9500), &wake, 0);
  e.run_until(sim::seconds(1));
  return {rec.ended[1].at(0), cpu->cpu_wait_s(b), rec.ended[0].at(0)};
}

}  // namespace

TEST_CASE("preempt=full: a woken task preempts a kernel burst at once") {
  const WakeCase c = wake_during_burst(PreemptModel::kFull, true, 0);
  CHECK(c.b_wait == 0);
  CHECK(c.b_end == Approx(0.0096));
  CHECK(c.a_end == Approx(0.0201));
}

TEST_CASE("preempt=none: a task woken during a kernel burst without points waits exactly the rest of it") {
  for (PreemptModel mode : {PreemptModel::kNone, PreemptModel::kVoluntary}) {
    const WakeCase c = wake_during_burst(mode, true, 0);
    // A's burst ends at 20 ms; B waits 20 - 9.5 = 10.5 ms and runs 20-20.1 ms.
    CHECK(c.b_wait == Approx(0.0105));
    CHECK(c.b_end == Approx(0.0201));
    CHECK(c.a_end == Approx(0.020));
  }
}

TEST_CASE("preempt=none: a task woken during a kernel burst waits for its next cond_resched point") {
  // Points every 3.5 ms of A's CPU time: 3.5, 7, 10.5 ms. B wakes at 9.5 ms
  // and runs at 10.5 ms; A resumes at 10.6 ms and ends at 20.1 ms.
  const WakeCase c = wake_during_burst(PreemptModel::kNone, true, 0.0035);
  CHECK(c.b_wait == Approx(0.001));
  CHECK(c.b_end == Approx(0.0106));
  CHECK(c.a_end == Approx(0.0201));
}

TEST_CASE("preempt=none: a user burst is preempted at once, as under full") {
  const WakeCase c = wake_during_burst(PreemptModel::kNone, false, 0);
  CHECK(c.b_wait == 0);
  CHECK(c.b_end == Approx(0.0096));
  CHECK(c.a_end == Approx(0.0201));
}

TEST_CASE("preempt=none: the tick's reschedule is deferred to the kernel burst's end") {
  // EEVDF 6.6, two 100 ms bursts from 0 on one CPU. Under full they
  // alternate at each tick (update_deadline()), A ending at 196 ms. Under
  // none, kernel bursts without points: A keeps the CPU to its end at
  // 100 ms, then B runs to 200 ms.
  for (PreemptModel mode : {PreemptModel::kFull, PreemptModel::kNone}) {
    sim::Engine e;
    auto cpu = one_cpu(e, "eevdf", mode);
    Recorder rec(e);
    const auto a = cpu->add_thread(models::kNoTask, 0);
    const auto b = cpu->add_thread(models::kNoTask, 0);
    cpu->next_burst_in_kernel(a, 0);
    cpu->run(a, 0.1, &rec, 0);
    cpu->next_burst_in_kernel(b, 0);
    cpu->run(b, 0.1, &rec, 1);
    e.run_until(sim::seconds(1));
    if (mode == PreemptModel::kFull) {
      CHECK(rec.ended[0].at(0) == Approx(0.196));
    } else {
      CHECK(rec.ended[0].at(0) == Approx(0.100));
      CHECK(cpu->cpu_wait_s(b) == Approx(0.100));
    }
    CHECK(rec.ended[1].at(0) == Approx(0.200));
  }
}

TEST_CASE("preempt=none: the tick's reschedule waits for the next point, then the policy picks") {
  // As above with a point every 1.5 ms of CPU: the tick at 4 ms asks; A's
  // next point is at 4.5 ms, where B takes the CPU.
  sim::Engine e;
  auto cpu = one_cpu(e, "eevdf", PreemptModel::kNone);
  Recorder rec(e);
  const auto a = cpu->add_thread(models::kNoTask, 0);
  const auto b = cpu->add_thread(models::kNoTask, 0);
  cpu->next_burst_in_kernel(a, 0.0015);
  cpu->run(a, 0.1, &rec, 0);
  cpu->next_burst_in_kernel(b, 0.0015);
  cpu->run(b, 0.1, &rec, 1);
  Look before(*cpu), after(*cpu);
  e.schedule_at(sim::microseconds(4400), &before, 0);
  e.schedule_at(sim::microseconds(4600), &after, 0);
  e.run_until(sim::seconds(1));
  CHECK(before.seen == a);
  CHECK(after.seen == b);
  CHECK(rec.ended[1].at(0) == Approx(0.200));  // the CPU never idles
}

TEST_CASE("preempt=none: the marking is for the next burst only") {
  // A's first burst (5 ms) is kernel work; its second, asked for at its end,
  // is user code: B, woken at 9.5 ms, preempts it at once.
  sim::Engine e;
  auto cpu = one_cpu(e, "cfs", PreemptModel::kNone);
  struct Again : sim::FairShareListener {
    sim::Engine& engine;
    CpuScheduler* cpu = nullptr;
    std::uint32_t a = 0;
    std::vector<double> ended;
    explicit Again(sim::Engine& en) : engine(en) {}
    void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
      ended.push_back(sim::to_seconds(engine.now()));
      if (tag == 0) cpu->run(a, 0.015, this, 2);
    }
  } rec(e);
  rec.cpu = cpu.get();
  rec.a = cpu->add_thread(models::kNoTask, 0);
  const auto b = cpu->add_thread(models::kNoTask, 0);
  cpu->next_burst_in_kernel(rec.a, 0);
  cpu->run(rec.a, 0.005, &rec, 0);
  At wake;
  wake.fn = [&] { cpu->run(b, 0.0001, &rec, 1); };
  e.schedule_at(sim::microseconds(9500), &wake, 0);
  e.run_until(sim::seconds(1));
  CHECK(cpu->cpu_wait_s(b) == 0);
}

namespace {

// CFS 3.13 on one CPU, preempt=none: A runs a 19 ms kernel burst without
// points from 0; B wakes at 9.5 ms for 0.1 ms (3 ms behind A: it asks for
// the CPU, deferred; so are the ticks' at 12 and 16 ms). At 19 ms A's burst
// ends and A asks at once for another kernel burst of 20 ms, either from its
// burst-end callback or from an event the callback sets for that instant
// (as a worker's next turn comes). The deferred
// reschedule is taken at the end of the first burst (the return to user
// space: exit_to_user_mode_loop()), not carried into the second, where it
// would wait for that burst's end at 39 ms.
struct BurstAgain : sim::FairShareListener {
  sim::Engine& engine;
  CpuScheduler* cpu = nullptr;
  std::uint32_t a = 0;
  bool from_callback = true;
  std::map<std::uint64_t, std::vector<double>> ended;
  At later;
  explicit BurstAgain(sim::Engine& e) : engine(e) { later.fn = [this] { again(); }; }
  void again() {
    cpu->next_burst_in_kernel(a, 0);
    cpu->run(a, 0.020, this, 2);
  }
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    ended[tag].push_back(sim::to_seconds(engine.now()));
    if (tag != 0) return;
    if (from_callback)
      again();
    else
      engine.schedule_at(engine.now(), &later, 0);
  }
};

}  // namespace

TEST_CASE("preempt=none: a reschedule deferred in a kernel burst is taken at its end, not carried into the next") {
  for (bool from_callback : {true, false}) {
    INFO((from_callback ? "the next burst asked from the burst-end callback" : "the next burst asked by a later event"));
    sim::Engine e;
    auto cpu = one_cpu(e, "cfs", PreemptModel::kNone);
    BurstAgain rec(e);
    rec.cpu = cpu.get();
    rec.from_callback = from_callback;
    rec.a = cpu->add_thread(models::kNoTask, 0);
    const auto b = cpu->add_thread(models::kNoTask, 0);
    cpu->next_burst_in_kernel(rec.a, 0);
    cpu->run(rec.a, 0.019, &rec, 0);
    At wake;
    wake.fn = [&] { cpu->run(b, 0.0001, &rec, 1); };
    e.schedule_at(sim::microseconds(9500), &wake, 0);
    e.run_until(sim::seconds(1));
    REQUIRE(rec.ended[0].size() == 1);
    CHECK(rec.ended[0].at(0) == Approx(0.019));
    CHECK(rec.ended[1].at(0) == Approx(0.0191));  // B runs 19-19.1 ms
    CHECK(cpu->cpu_wait_s(b) == Approx(0.0095));
    CHECK(rec.ended[2].at(0) == Approx(0.0391));  // A's second burst after B's
  }
}

namespace {

// As wake_during_burst() with cond_resched points every 3.5 ms of A's CPU
// time (3.5, 7, 10.5 ms ...), and interrupt work of 1 ms on the CPU at
// `irq_us`: A makes no progress during it, so every point after it comes
// 1 ms later in wall time.
struct IrqCase {
  double b_end = 0, a_end = 0;
};
IrqCase irq_during_burst(std::int64_t irq_us) {
  sim::Engine e;
  auto cpu = one_cpu(e, "cfs", PreemptModel::kNone);
  Recorder rec(e);
  const auto a = cpu->add_thread(models::kNoTask, 0);
  const auto b = cpu->add_thread(models::kNoTask, 0);
  cpu->next_burst_in_kernel(a, 0.0035);
  cpu->run(a, 0.020, &rec, 0);
  At wake, irq;
  wake.fn = [&] { cpu->run(b, 0.0001, &rec, 1); };
  irq.fn = [&] { cpu->run_irq(0, 0.001, &rec, 9); };
  e.schedule_at(sim::microseconds(9500), &wake, 0);
  e.schedule_at(sim::microseconds(irq_us), &irq, 0);
  e.run_until(sim::seconds(1));
  CHECK(rec.ended[9].size() == 1);
  return {rec.ended[1].at(0), rec.ended[0].at(0)};
}

}  // namespace

TEST_CASE("preempt=none: interrupt work in a kernel burst moves its cond_resched points by its length") {
  // B wakes at 9.5 ms. Interrupt work of 1 ms before the wake-up (5 ms), or
  // while the reschedule waits (10 ms): A's third point, 10.5 ms of its CPU,
  // is at 11.5 ms; B runs 11.5-11.6 ms, A ends at 20 + 1 + 0.1 ms.
  for (std::int64_t irq_us : {5000, 10000}) {
    INFO("interrupt at " << irq_us << " us");
    const IrqCase c = irq_during_burst(irq_us);
    CHECK(c.b_end == Approx(0.0116));
    CHECK(c.a_end == Approx(0.0211));
  }
}

TEST_CASE("preempt=none: interrupt work that comes as a kernel burst reaches its point does not skip that point") {
  // The interrupt comes at 10.5 ms, the instant A reaches its third point
  // with B waiting since 9.5 ms (the interrupt first: its event was set
  // earlier). A stays at that point while the work runs; B takes the CPU
  // when the work ends, at 11.5 ms, not at A's next point (14 ms of its
  // CPU, 15 ms).
  const IrqCase c = irq_during_burst(10500);
  CHECK(c.b_end == Approx(0.0116));
  CHECK(c.a_end == Approx(0.0211));
}

TEST_CASE("preempt=none: a tick of CFS that finds a kernel burst reschedules at its next point") {
  // CFS 3.13, one CPU, two bursts from 0: A (20 ms) runs first, B (20 ms of
  // user code) waits. The slice is sched_latency / 2 = 3 ms; the tick at
  // 4 ms finds A past it (check_preempt_tick()). Under full B takes the CPU
  // at 4 ms. Under none A is in a kernel burst: with a point every 2.5 ms of
  // its CPU B takes it at 5 ms; without points at A's end, 20 ms.
  struct Case {
    PreemptModel mode;
    double point_s;
    std::int64_t b_from_us;
  };
  for (const Case& c : {Case{PreemptModel::kFull, 0.0025, 4000}, Case{PreemptModel::kNone, 0.0025, 5000},
                        Case{PreemptModel::kNone, 0, 20000}}) {
    INFO("point " << c.point_s << " preempt " << static_cast<int>(c.mode));
    sim::Engine e;
    auto cpu = one_cpu(e, "cfs", c.mode);
    Recorder rec(e);
    const auto a = cpu->add_thread(models::kNoTask, 0);
    const auto b = cpu->add_thread(models::kNoTask, 0);
    cpu->next_burst_in_kernel(a, c.point_s);
    cpu->run(a, 0.020, &rec, 0);
    cpu->run(b, 0.020, &rec, 1);
    Look before(*cpu), after(*cpu);
    e.schedule_at(sim::microseconds(c.b_from_us - 100), &before, 0);
    e.schedule_at(sim::microseconds(c.b_from_us + 100), &after, 0);
    e.run_until(sim::seconds(1));
    CHECK(before.seen == a);
    CHECK(after.seen == b);
  }
}

namespace {

// EEVDF 6.6 on two cores (one socket), A alone on CPU 1 in one long kernel
// burst from 0, three CPU-bound threads on CPU 0. The first periodic balance
// (28 ms: sched_test.cpp) pulls a queued thread of CPU 0 to CPU 1; it has
// waited there, its lag is positive, so A (alone so far: V is its vruntime)
// is no longer eligible and check_preempt_curr() asks for CPU 1. Returns
// who runs on CPU 1 just before and just after `us`.
std::pair<std::uint32_t, std::uint32_t> around_pull(PreemptModel mode, double point_s, std::int64_t us,
                                                    std::uint32_t& a, std::uint64_t& pulls) {
  sim::Engine e;
  SchedSpec s;
  s.policy = "eevdf";
  const CpuTopology topo{1, 2, 1};
  CpuScheduler cpu(e, models::make_fair_policy(s, topo.cpus()), topo, nullptr);
  cpu.set_preempt(mode);
  Recorder rec(e);
  a = cpu.add_thread(models::kNoTask, 1);
  cpu.next_burst_in_kernel(a, point_s);
  cpu.run(a, 0.040, &rec, 0);
  for (std::uint64_t i = 1; i <= 3; ++i) cpu.run(cpu.add_thread(models::kNoTask, 0), 1.0, &rec, i);
  struct On1 : sim::EventTarget {
    const CpuScheduler& cpu;
    std::uint32_t seen = models::kNoEntity;
    explicit On1(const CpuScheduler& c) : cpu(c) {}
    void on_event(std::uint64_t) override { seen = cpu.running_on(1); }
  } before(cpu), after(cpu);
  e.schedule_at(sim::microseconds(us - 100), &before, 0);
  e.schedule_at(sim::microseconds(us + 100), &after, 0);
  e.run_until(sim::microseconds(us + 200));
  pulls = cpu.balance_pulls();
  return {before.seen, after.seen};
}

}  // namespace

TEST_CASE("preempt=none: the balancer's check_preempt_curr() on a kernel burst waits for its next point") {
  // Under full the pulled thread runs on CPU 1 at once (28 ms). Under none,
  // with a point every 1.5 ms of A's CPU (A alone on CPU 1: 27, 28.5 ms), at
  // 28.5 ms; without points at the end of A's burst, 40 ms.
  struct Case {
    PreemptModel mode;
    double point_s;
    std::int64_t switch_us;
  };
  for (const Case& c : {Case{PreemptModel::kFull, 0.0015, 28000}, Case{PreemptModel::kNone, 0.0015, 28500},
                        Case{PreemptModel::kNone, 0, 40000}}) {
    INFO("point " << c.point_s << " preempt " << static_cast<int>(c.mode));
    std::uint32_t a = 0;
    std::uint64_t pulls = 0;
    const auto [before, after] = around_pull(c.mode, c.point_s, c.switch_us, a, pulls);
    CHECK(pulls == 1);
    CHECK(before == a);
    CHECK(after != a);
    CHECK(after != models::kNoEntity);
  }
}
