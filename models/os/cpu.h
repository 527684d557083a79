// The host's CPUs as the threads on it use them: a thread asks for a burst
// of CPU time and is told when it has had it. Two implementations, chosen
// by the kernel key `kernel.scheduler` (make_cpu(), the one registry):
//  - "processor-sharing": sim::FairShare with one unit per CPU; every
//    runnable thread progresses at once at min(1, CPUs / runnable). Fast, and
//    exact for the means; it has no run queues, so nobody ever waits for a
//    CPU and iowait is approximated as min(tasks in D, idle CPUs) / CPUs;
//  - "cfs" / "eevdf": CpuScheduler (cpu_scheduler.h), per-CPU run queues with
//    the policy of the kernel (sched_policy.h).
// A thread that asks for no more CPU when its burst ends goes to sleep
// (S or D, as TaskStates says); asking again wakes it.
#pragma once
#include <cstdint>
#include <memory>

#include "models/os/sched_policy.h"
#include "sim/engine.h"
#include "models/task_id.h"
#include "sim/fair_share.h"

namespace models {

class TaskStates;

// CPU topology (sockets x cores x SMT threads), numbered as
// ((socket * cores_per_socket) + core) * threads_per_core + thread.
struct CpuTopology {
  std::uint32_t sockets = 1;
  std::uint32_t cores_per_socket = 1;
  std::uint32_t threads_per_core = 1;
  std::uint32_t cpus() const { return sockets * cores_per_socket * threads_per_core; }
};

class Cpu {
 public:
  virtual ~Cpu() = default;
  // A thread that will use the CPUs; `task` is its TaskStates id (kNoTask for
  // a kernel thread), `home` the CPU it starts from (modulo the CPU count).
  virtual std::uint32_t add_thread(std::uint32_t task, std::uint32_t home) = 0;
  // `thread` needs `seconds` of CPU; listener->on_share_milestone(thread, tag, 0)
  // once it has had them. At most one burst per thread at a time, unless
  // bursts_overlap().
  virtual void run(std::uint32_t thread, double seconds, sim::FairShareListener* listener, std::uint64_t tag) = 0;
  // Processor sharing serves several bursts of one thread side by side.
  virtual bool bursts_overlap() const = 0;
  // Work in interrupt context (hardirq or softirq) of `seconds` on CPU
  // `cpu` (modulo the CPU count), ahead of any thread there;
  // listener->on_share_milestone(kNoEntity, tag, 0) once it is done.
  virtual void run_irq(std::uint32_t cpu, double seconds, sim::FairShareListener* listener, std::uint64_t tag) = 0;
  // Who wakes a thread at this instant: the CPU whose running thread's
  // callback is executing (wake_affine()'s this_cpu), none outside one, and
  // whether the wake-up is WF_SYNC.
  struct Waker {
    std::uint32_t cpu = UINT32_MAX;
    bool sync = false;
  };
  virtual Waker current_waker() const { return {}; }
  // run() for a thread whose wake-up `waker` decided earlier at this same
  // instant: an event loop told of an event from a callback (epoll's
  // wake-up) asks for its CPU from an event of its own.
  virtual void run_woken(std::uint32_t thread, double seconds, sim::FairShareListener* listener, std::uint64_t tag,
                         Waker) {
    run(thread, seconds, listener, tag);
  }
  // The thread's next burst (its next run() or run_woken()) is spent inside
  // one system call, in kernel mode, with a preemption point (cond_resched())
  // every `point_s` of its CPU time (0: none before its end). Only the
  // preempt=none and voluntary models act on it (cpu_scheduler.h); a burst
  // not so marked is user code, preempted at once.
  virtual void next_burst_in_kernel(std::uint32_t /*thread*/, double /*point_s*/) {}
  // Wake-ups made between enter and leave are WF_SYNC (SyncWakeups below);
  // processor sharing has no placement to change.
  virtual void enter_sync_wakeups() {}
  virtual void leave_sync_wakeups() {}
};

// While one is alive, the threads woken from the running thread's callback
// are woken with WF_SYNC, as sk_data_ready does (sock_def_readable() ->
// wake_up_interruptible_sync_poll()): the kernel takes the waker to be about
// to sleep, so wake_affine() may stack the woken thread on the waker's CPU.
class SyncWakeups {
 public:
  explicit SyncWakeups(Cpu* cpu) : cpu_(cpu) {
    if (cpu_) cpu_->enter_sync_wakeups();
  }
  ~SyncWakeups() {
    if (cpu_) cpu_->leave_sync_wakeups();
  }
  SyncWakeups(const SyncWakeups&) = delete;
  SyncWakeups& operator=(const SyncWakeups&) = delete;

 private:
  Cpu* cpu_;
};

// kernel.scheduler = "processor-sharing": the former model, unchanged.
class ProcessorSharingCpu final : public Cpu {
 public:
  ProcessorSharingCpu(sim::Engine& engine, std::uint32_t cpus) : share_(engine, static_cast<double>(cpus), 1.0) {}
  std::uint32_t add_thread(std::uint32_t, std::uint32_t) override { return threads_++; }
  void run(std::uint32_t, double seconds, sim::FairShareListener* listener, std::uint64_t tag) override {
    share_.add(seconds, listener, tag);
  }
  bool bursts_overlap() const override { return true; }
  // No CPU is told apart: a job of its own, beside the threads'.
  void run_irq(std::uint32_t, double seconds, sim::FairShareListener* listener, std::uint64_t tag) override {
    share_.add(seconds, listener, tag);
  }

 private:
  sim::FairShare share_;
  std::uint32_t threads_ = 0;
};

// The registry: the CPU model named by spec.policy.
std::unique_ptr<Cpu> make_cpu(sim::Engine& engine, const SchedSpec& spec, const CpuTopology& topology,
                              std::uint32_t cpus, TaskStates& tasks);

}  // namespace models
