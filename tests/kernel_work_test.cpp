// Where the page cache's fill runs with a kernel scheduler (models/os/kernel_work.h):
// the reader's part in the reader, the rest as the block completion in
// interrupt context on the submitting CPU, before the reader's pages are
// uptodate. Hand-worked cases on two CPUs.
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <vector>

#include "models/hardware/simple_disk.h"
#include "models/os/cpu_scheduler.h"
#include "models/os/kernel_work.h"
#include "models/os/page_cache.h"
#include "models/os/task_states.h"

using models::CpuScheduler;
using models::CpuTopology;

namespace {

constexpr double kUs = 1e-6;

std::unique_ptr<CpuScheduler> scheduler(sim::Engine& e, models::TaskStates& tasks) {
  models::SchedSpec s;
  s.policy = "eevdf";
  return std::make_unique<CpuScheduler>(e, models::make_fair_policy(s, 2), CpuTopology{1, 2, 1}, &tasks);
}

// When each tagged burst or interrupt work ended.
struct Recorder : sim::FairShareListener {
  sim::Engine& engine;
  std::map<std::uint64_t, std::vector<double>> ended;
  std::function<void(std::uint64_t)> then;
  explicit Recorder(sim::Engine& e) : engine(e) {}
  void on_share_milestone(std::uint32_t, std::uint64_t tag, double) override {
    ended[tag].push_back(sim::to_seconds(engine.now()));
    if (then) then(tag);
  }
};

struct At : sim::EventTarget {
  std::function<void()> fn;
  void on_event(std::uint64_t) override { fn(); }
};

// A reading task: told when its page is ready.
struct Reader : models::PageWaiter {
  std::uint32_t task = 0;
  sim::Engine* engine = nullptr;
  double ready_at = -1;
  void on_page_ready(std::uint64_t) override { ready_at = sim::to_seconds(engine->now()); }
  std::uint32_t submitter_task() const override { return task; }
};

// One 64 KiB file read cold by a task on CPU 1 (1 ms latency + 64 KiB at
// 65.536 MB/s = 2 ms on the disk), with cache_fill_byte = 2 ns of which
// `reader_byte` is the reader's; a CPU-bound task on CPU 1 from 0.5 ms for
// 10 ms of CPU.
struct OneRead {
  static constexpr double kBytes = 65536;
  sim::Engine e;
  models::TaskStates tasks{2, 1};
  std::unique_ptr<CpuScheduler> cpu = scheduler(e, tasks);
  models::SimpleDisk disk{e, [] {
                            models::SimpleDiskSpec s;
                            s.latency_s = 1e-3;
                            s.bandwidth_Bps = 65.536e6;
                            return s;
                          }()};
  models::PageCache cache{disk, models::PageCacheSpec{64ull << 20, 64 * 1024, 1024 * 1024}};
  models::CpuCosts costs;
  std::unique_ptr<models::KernelWork> work;
  Recorder rec{e};
  Reader reader;
  models::ReadaheadState ra;
  At hog_starts;
  std::uint32_t hog = 0;

  explicit OneRead(double reader_byte, std::uint32_t irq_cpu = models::kAnyCpu) {
    costs.cache_fill_byte = 2e-9;
    costs.cache_fill_reader_byte = reader_byte;
    cache.defer_wakeups(e);
    work = std::make_unique<models::KernelWork>(*cpu, tasks, cache, costs, irq_cpu);
    cache.set_fill_sink(work.get());
    const std::uint32_t file = cache.add_file(0, 64 * 1024);
    reader.engine = &e;
    reader.task = tasks.add_task(0, 0, models::TaskState::kSleeping);
    const std::uint32_t reader_thread = cpu->add_thread(reader.task, 1);
    const std::uint32_t hog_task = tasks.add_task(0, 0, models::TaskState::kSleeping);
    hog = cpu->add_thread(hog_task, 1);
    // The reader runs on CPU 1 (its home, idle) and its read() misses at 0.
    rec.then = [this, file](std::uint64_t tag) {
      if (tag != 0) return;
      REQUIRE(cache.read(file, 0, 1, ra, &reader, 0) == models::PageCache::Result::kWait);
    };
    cpu->run(reader_thread, 0, &rec, 0);
    hog_starts.fn = [this] { cpu->run(hog, 0.010, &rec, 1); };
    e.schedule_at(sim::microseconds(500), &hog_starts, 0);
  }
};

}  // namespace

TEST_CASE("interrupt work on a CPU delays its running thread by exactly that work") {
  sim::Engine e;
  models::TaskStates tasks(2, 1);
  auto cpu = scheduler(e, tasks);
  Recorder rec(e);
  const auto t = tasks.add_task(0, 0, models::TaskState::kRunning);
  const auto busy = cpu->add_thread(t, 0);
  cpu->run(busy, 0.010, &rec, 0);
  At irq;
  irq.fn = [&] {
    cpu->run_irq(0, 0.002, &rec, 7);
    cpu->run_irq(0, 0.001, &rec, 8);  // the next waits for the first
    cpu->run_irq(1, 0.0005, &rec, 9); // an idle CPU: busy only for the work
  };
  e.schedule_at(sim::milliseconds(3), &irq, 0);
  e.run_until(sim::seconds(1));
  CHECK(rec.ended[7][0] == Approx(0.005));
  CHECK(rec.ended[8][0] == Approx(0.006));
  CHECK(rec.ended[9][0] == Approx(0.0035));
  CHECK(rec.ended[0][0] == Approx(0.013));  // 10 ms of CPU + 3 ms of interrupts
  CHECK(cpu->irq_s(0) == Approx(0.003));
  CHECK(cpu->irq_s(1) == Approx(0.0005));
  // Busy CPUs over [0, 1 s]: CPU 0 for 13 ms, CPU 1 for 0.5 ms.
  CHECK(tasks.busy_cpus_mean(0, e.now()) == Approx(0.0135));
}

TEST_CASE("the completion's share runs on the submitting CPU before the reader's page is ready") {
  OneRead r(0.5e-9);
  r.e.run_until(sim::seconds(1));
  const double completion = (2e-9 - 0.5e-9) * OneRead::kBytes;  // 98.304 us
  // The disk is done at 2 ms; the page is uptodate after the completion's work.
  CHECK(r.reader.ready_at == Approx(0.002 + completion));
  // On CPU 1, where the reader submitted: the CPU-bound task there lost exactly that.
  CHECK(r.cpu->irq_s(1) == Approx(completion));
  CHECK(r.cpu->irq_s(0) == 0);
  CHECK(r.rec.ended[1][0] == Approx(0.0005 + 0.010 + completion));
  // The whole is counted once, the completion's part of it on its own.
  CHECK(r.work->total_s() == Approx(2e-9 * OneRead::kBytes));
  CHECK(r.work->completion_s() == Approx(completion));
  CHECK(r.work->total_s() - r.work->completion_s() == Approx(models::reader_fill_byte(r.costs) * OneRead::kBytes));
}

TEST_CASE("a profile that does not split the fill leaves it all to the reader: no completion work, no delay") {
  for (const double reader_byte : {-1.0, 2e-9}) {  // not given; given as the whole
    OneRead r(reader_byte);
    r.e.run_until(sim::seconds(1));
    CHECK(models::reader_fill_byte(r.costs) == 2e-9);
    CHECK(r.reader.ready_at == Approx(0.002));
    CHECK(r.cpu->irq_s(0) + r.cpu->irq_s(1) == 0);
    CHECK(r.rec.ended[1][0] == Approx(0.0105));
    CHECK(r.work->total_s() == Approx(2e-9 * OneRead::kBytes));
    CHECK(r.work->completion_s() == 0);
  }
}

TEST_CASE("all of the fill outside the reader: the reader's wait in D is the disk's plus all of it") {
  OneRead r(0);
  r.e.run_until(sim::seconds(1));
  CHECK(r.reader.ready_at == Approx(0.002 + 2e-9 * OneRead::kBytes));
  CHECK(r.work->completion_s() == Approx(r.work->total_s()));
}

TEST_CASE("a device whose IRQ goes to one CPU ([block] irq_cpu) completes there, whoever submitted") {
  OneRead r(0.5e-9, 0);
  r.e.run_until(sim::seconds(1));
  const double completion = (2e-9 - 0.5e-9) * OneRead::kBytes;
  CHECK(r.cpu->irq_s(0) == Approx(completion));
  CHECK(r.cpu->irq_s(1) == 0);
  CHECK(r.reader.ready_at == Approx(0.002 + completion));  // the reader still waits for it
  CHECK(r.rec.ended[1][0] == Approx(0.0105));               // the task on the submitting CPU loses nothing
}
