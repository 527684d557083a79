// Per-CPU run queues on the event engine, with a kernel's fair-class policy
// (sched_policy.h: CFS of 3.13 or EEVDF of 6.6). What it mirrors:
//  - try_to_wake_up() -> select_task_rq_fair(): wake_affine() may move the
//    target from the CPU the thread last ran on (prev) to the waker's CPU,
//    then select_idle_sibling() looks for an idle CPU in the target's
//    last-level cache domain (its socket) only. The waker is the thread whose
//    burst has just ended on its CPU and which wakes another from that
//    callback (a worker handing a task to a pool thread, a pool thread
//    writing the worker's eventfd: no WF_SYNC; a client on the same host
//    connecting over loopback, whose handshake completes in its own
//    connect() and wakes a worker through the listen socket's
//    sk_data_ready: WF_SYNC, cpu.h's SyncWakeups).
//    Wake-ups by a disk interrupt or the network (after a delay) have no
//    waker CPU in the model: the target stays prev. Per kernel:
//     wake_affine(), 3.13: the waker's CPU when it is "balanced": 100 x
//       (load(this) + w) <= (100 + (imbalance_pct - 100) / 2) x load(prev),
//       or this is no busier than prev and both together carry no more
//       than one task's load (imbalance_pct: 110 SMT, 125 MC and between
//       sockets, include/linux/topology.h SD_*_INIT); a WF_SYNC wake-up
//       first takes the waker's own load off this (effective_load(tg,
//       this_cpu, -weight, -weight)), and is then placed on this when
//       balanced;
//     wake_affine(), 6.6: wake_affine_idle(): a WF_SYNC wake-up with the
//       waker alone on this (nr_running == 1) goes to this, else prev
//       when idle; then wake_affine_weight(): this when 100 x (load(this)
//       + w) < (100 + (imbalance_pct - 100) / 2) x load(prev)
//       (imbalance_pct 110 SMT, 117 otherwise, sd_init()); WF_SYNC takes
//       the waker's load off this and turns < into <= (prev_eff_load + 1,
//       "stacking the wakee on top of the waker"). wake_affine_idle()'s
//       first rule (an idle this: a wake-up from interrupt context) never
//       applies: the model's wakers are running threads;
//     the kernel's loads are PELT averages (runnable_load_avg, cpu_load());
//     the model uses the runnable threads at that instant, each NICE_0_LOAD,
//     and the woken one counts fully (w = 1). wake_wide() (wakee_flips) is
//     not modelled: the model's wakers wake few distinct threads;
//     select_idle_sibling(), 3.13: target if idle; prev if idle and in the
//       same socket; a fully idle core of target's socket, from target's
//       own core on (the MC domain's groups), then an idle SMT sibling of
//       target (the SMT domain's); else target;
//     select_idle_sibling(), 6.6: target if idle; prev if idle and in the
//       same socket; with SMT and no idle core in the socket, an idle SMT
//       sibling of prev (select_idle_smt()); then select_idle_cpu() from
//       target on: a fully idle core if there is one, else any idle CPU of
//       the socket (SIS_UTIL's scan limit and recent_used_cpu are not
//       modelled); else target.
//    Each search is O(CPUs of a socket);
//  - enqueue with place_entity() and check_preempt_wakeup();
//  - the scheduler tick every 1/HZ, on a global grid: check_preempt_tick()
//    (CFS) or update_deadline() (EEVDF); nothing is decided between ticks but
//    wake-ups and threads leaving the CPU (HRTICK is off by default);
//  - schedule() when the running thread sleeps, then idle_balance() /
//    newidle_balance() when the queue is empty: the new idle CPU pulls the
//    waiting thread that has waited longest from the busiest queue, its own
//    socket first (can_migrate_task()'s cache-hot test, migration_cost 0.5 ms,
//    is not modelled);
//  - the nohz idle balance: a tick on a CPU with threads waiting while some
//    CPU is idle moves them to idle CPUs (nohz_balancer_kick() ->
//    rebalance_domains());
//  - periodic balancing between busy CPUs (kernel.sched_periodic_balance):
//    scheduler_tick() -> trigger_load_balance() raises SCHED_SOFTIRQ once
//    jiffies reach rq->next_balance; run_rebalance_domains() ->
//    rebalance_domains() walks the CPU's sched domains from the lowest
//    (sched_policy.h's balance_levels(): SMT, the socket, between sockets,
//    per kernel) and balances each whose last_balance + interval has come:
//    interval = balance_interval x busy_factor ms (get_sd_balance_interval(),
//    msecs_to_jiffies(), 6.6 then one jiffy less, at most HZ x CPUs / 10
//    jiffies); balance_interval
//    starts at min_interval, doubles up to max_interval each time the domain
//    is found balanced and drops back to min_interval when it is not. The
//    CPU's next_balance is the earliest last_balance + interval of its
//    domains, with 3.13's interval the one computed before load_balance()
//    (the domain's balance_interval as it was), 6.6's recomputed after it
//    (since v3.16, 52a08ef1f13a "sched: Fix the rq->next_balance logic in
//    rebalance_domains() and idle_balance()").
//    load_balance(CPU_NOT_IDLE): should_we_balance() (the first CPU of the
//    local group balances, and none above the level where it does not);
//    find_busiest_group(): 3.13 by avg_load (load / cpu_power, the busiest a
//    group with more threads than its capacity, then local below the
//    domain's average and 100 x busiest > imbalance_pct x local;
//    calculate_imbalance() capped by the load above capacity,
//    fix_small_imbalance() rounding up to one task when the gap is one);
//    6.6 by group type (group_has_spare / group_fully_busy /
//    group_overloaded from group_classify()): a busy CPU pulls only from an
//    overloaded group, with imbalance_pct only between two overloaded ones,
//    migrate_load = min(busiest - average, average - local) x capacity;
//    find_busiest_queue(); detach_tasks()/move_tasks(): queued threads only
//    (the running one is walked and refused, task_running()), in
//    rq->cfs_tasks order (3.13 from the head: the most recently enqueued
//    first; 6.6 from the tail: the least recently enqueued or picked
//    first), at most min(sysctl_sched_nr_migrate 32, nr_running) of them;
//    one refused (running, cache hot, too heavy) goes to the back of that
//    order (3.13 list_move_tail(), 6.6 list_move()), behind those the pass
//    left unvisited; 6.6 while load >> nr_balance_failed fits
//    the imbalance, 3.13 while load / 2 does; can_migrate_task()'s cache-hot
//    test IS modelled here (task_hot(): ran less than
//    kernel.sched_migration_cost, 0.5 ms, ago; overridden once
//    nr_balance_failed > cache_nice_tries); check_preempt_curr() on arrival.
//    The active balance (a running thread pushed by the stopper) is not:
//    3.13 starts it once nr_balance_failed > cache_nice_tries + 2, and the
//    failures modelled here (every queued thread cache hot or too heavy)
//    give way before that; 6.6's need_active_balance() starts it on
//    failures only for migrate_task (imbalanced_active_balance()), never for
//    the migrate_load a busy CPU computes here. Loads are
//    the runnable threads at that instant, NICE_0_LOAD (1024) each, with
//    6.6's util 1024 per CPU with a thread, where the kernel has PELT
//    averages (cpu_load(), cpu_util(); 3.13 cpu_load[busy_idx]): a worker
//    that sleeps half the time weighs a full task while it is runnable and
//    nothing while asleep. An idle CPU does not balance periodically (its
//    tick is stopped: NO_HZ_IDLE); it has newidle and the nohz balance. The
//    balancer is one engine event at the earliest due tick of a busy CPU;
//    the SMT/NUMA special cases of 6.6 (group_smt_balance, asym packing,
//    misfit, the NUMA imbalance allowance) do not arise or are left out.
//    Simplifications: a CPU's capacity is not reduced by its interrupt time
//    (3.13 scale_rt_power(), 6.6 scale_rt_capacity()); an idle CPU's
//    last_balance and balance_interval are not advanced (the kernel's nohz
//    idle balance runs rebalance_domains() for it); when the balancer and a
//    CPU's own tick event fall at the same instant they run in the order
//    they were scheduled (the engine's sequence number: deterministic, but
//    not the kernel's, whose SCHED_SOFTIRQ runs on irq_exit() after
//    task_tick() and before the reschedule the tick asks for);
//  - interrupt work (run_irq(): the block layer's completion, blk_done_softirq()
//    after the device's IRQ) runs on its CPU ahead of whatever thread is
//    there, as a softirq does on irq_exit(): the running thread makes no
//    progress until it is done (its burst ends that much later), works on
//    one CPU run one after another, and a CPU that was idle is busy for it.
//    The thread's vruntime is not charged for it, as with
//    CONFIG_IRQ_TIME_ACCOUNTING (update_rq_clock_task() subtracts irq time
//    from clock_task); without it the kernel charges the interrupted task,
//    which moves only whom the tick prefers next. A thread woken while
//    the CPU is in interrupt context starts once it has left it. The
//    model's interrupt work wakes nobody from its CPU (wake_affine() is not
//    consulted), as the disk's other wake-ups.
//  - the preemption model ([kernel] preempt, SchedSpec::preempt): with
//    "full" (CONFIG_PREEMPT, or preempt=full) every reschedule above acts
//    at once: resched_curr() sends the IPI and the interrupt's return to the
//    kernel preempts (irqentry_exit_cond_resched(), preempt_schedule()).
//    With "none" (CONFIG_PREEMPT_NONE, or preempt=none: this machine's
//    "Dynamic Preempt: none") sched_dynamic_update() turns those two off and
//    keeps cond_resched(): resched_curr() only sets TIF_NEED_RESCHED, which
//    a task in kernel mode acts on at its next cond_resched(), when it
//    blocks, or on return to user space (exit_to_user_mode_loop()). A task
//    in user mode is preempted at once either way (the IPI's or the tick's
//    return to user). "voluntary" also keeps might_resched() (might_sleep()
//    points); on the one kernel path the model marks (sendfile() through
//    its pipe, below) 6.x's might_sleep() points (lock_sock_nested(), once
//    per splice_to_socket() sendmsg) fall where its cond_resched() points
//    do (filemap_splice_read(), once per pipe fill), so it is modelled as
//    "none". The model: a burst its caller marks as kernel work
//    (next_burst_in_kernel()) with a preemption point every point_s of its
//    CPU time. A wake-up preemption (check_preempt_wakeup()), a tick's
//    reschedule (check_preempt_tick() / update_deadline()) or a balancer's
//    (check_preempt_curr()) that finds such a burst between two points
//    sets a flag (need_resched) and is acted on at the next point or the
//    burst's end, whichever comes first; the policy then picks again
//    (__schedule()). A burst that has used no CPU yet is at its start: the
//    system call's entry, in user mode, is preemptible. Interrupt work
//    (run_irq()) is not a thread's and does not count towards the points.
//    PREEMPT_LAZY (6.13) is not modelled.
// A thread whose burst ends and that asks for more CPU at the same instant
// (the next turn of an event loop, the next item of wrk's thread) keeps its
// CPU: it is only put to sleep when the instant passes without a new burst.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/os/cpu.h"
#include "models/os/task_states.h"

namespace models {

class CpuScheduler final : public Cpu {
 public:
  CpuScheduler(sim::Engine& engine, std::unique_ptr<FairPolicy> policy, const CpuTopology& topology,
               TaskStates* tasks);
  ~CpuScheduler() override;

  std::uint32_t add_thread(std::uint32_t task, std::uint32_t home) override;
  void run(std::uint32_t thread, double seconds, sim::FairShareListener* listener, std::uint64_t tag) override;
  bool bursts_overlap() const override { return false; }
  void run_irq(std::uint32_t cpu, double seconds, sim::FairShareListener* listener, std::uint64_t tag) override;
  Waker current_waker() const override { return {waker_cpu_, waker_cpu_ != kNoEntity && sync_depth_ > 0}; }
  void run_woken(std::uint32_t thread, double seconds, sim::FairShareListener* listener, std::uint64_t tag,
                 Waker waker) override;
  void next_burst_in_kernel(std::uint32_t thread, double point_s) override;
  void set_preempt(PreemptModel m) { preempt_ = m; }
  void enter_sync_wakeups() override { ++sync_depth_; }
  void leave_sync_wakeups() override { --sync_depth_; }

  // Views for tests and reports.
  std::uint32_t cpus() const { return static_cast<std::uint32_t>(cpus_.size()); }
  std::uint32_t running_on(std::uint32_t cpu) const;  // the thread on the CPU, kNoEntity when idle
  std::uint32_t cpu_of(std::uint32_t thread) const { return threads_[thread].cpu; }
  std::uint32_t waiting_on(std::uint32_t cpu) const;  // threads queued behind the running one
  double cpu_wait_s(std::uint32_t thread) const;      // time spent runnable, waiting for a CPU
  double irq_s(std::uint32_t cpu) const { return irq_s_[cpu]; }  // interrupt work run on the CPU so far (begun)
  const SchedEntity& entity(std::uint32_t thread) const { return entities_[thread]; }
  std::uint64_t switches() const { return switches_; }
  std::uint64_t migrations() const { return migrations_; }
  std::uint64_t balance_pulls() const { return balance_pulls_; }  // threads moved by the periodic balancer
  std::uint32_t balance_interval_ms(std::uint32_t cpu, std::size_t level) const {
    return domain_state_[cpu * levels_.size() + level].interval_ms;
  }
  std::uint32_t balance_failed(std::uint32_t cpu, std::size_t level) const {
    return domain_state_[cpu * levels_.size() + level].failed;
  }
  const std::vector<BalanceLevel>& balance_domains() const { return levels_; }

 private:
  enum class State : std::uint8_t { kSleeping, kQueued, kRunning };
  struct Thread {
    std::uint32_t task = kNoTask;
    std::uint32_t cpu = 0;
    State state = State::kSleeping;
    bool has_burst = false;  // running with CPU time still to use (else leaving at this instant)
    double left = 0;         // CPU seconds of the burst still to use
    sim::FairShareListener* listener = nullptr;
    std::uint64_t tag = 0;
    sim::Time waiting_since = 0;
    double waited_s = 0;
    bool has_run = false;
    // Kernel-mode bursts (the preemption model): the next burst's marking,
    // and the current burst's (its length and its points' spacing).
    bool next_kernel = false;
    double next_point_s = 0;
    bool kernel = false;
    double burst_s = 0;
    double point_s = 0;
    sim::Time left_cpu_at = 0;  // when it last stopped running (se.exec_start for task_hot())
    // Its place in rq->cfs_tasks: greater is nearer the head. Putting it at
    // the head takes the next positive number, at the tail the next negative.
    std::int64_t cfs_tasks_seq = 0;
  };
  // One sched domain of one CPU: struct sched_domain's balancing state.
  struct DomainState {
    std::int64_t last_balance = 0;  // jiffies
    std::uint32_t interval_ms = 1;  // balance_interval
    std::uint32_t failed = 0;       // nr_balance_failed
  };
  // A group's figures for find_busiest_group() (struct sg_lb_stats).
  struct GroupStat {
    std::uint32_t first = 0, weight = 0, nr = 0, idle = 0, busy = 0;
    std::uint64_t load = 0, capacity = 0, avg_load = 0, cap_tasks = 0;
    int type = 0;  // 6.6: 0 group_has_spare, 1 group_fully_busy, 2 group_overloaded
  };
  struct Balancer;
  struct PerCpu;
  struct IrqWork {
    sim::FairShareListener* listener;
    std::uint64_t tag;
  };
  struct IrqLine;

  void on_cpu_event(std::uint32_t cpu);
  bool due_now(std::uint32_t cpu) const;
  void sync(std::uint32_t cpu);
  bool take_resched(std::uint32_t cpu);
  void wake(std::uint32_t thread);
  void enqueue(std::uint32_t cpu, std::uint32_t thread, bool woken);
  void reschedule(std::uint32_t cpu);
  void preempt_or_defer(std::uint32_t cpu);
  bool preemptible_now(std::uint32_t cpu) const;
  sim::Time next_point_at(std::uint32_t cpu) const;
  void complete_burst(std::uint32_t cpu);
  void put_to_sleep(std::uint32_t cpu);
  void remove_queued(std::uint32_t cpu, std::uint32_t thread);
  void set_running(std::uint32_t cpu, std::uint32_t thread);
  void set_waiting(std::uint32_t thread, bool waiting);
  void report_busy(std::uint32_t cpu);
  void irq_done(std::uint32_t cpu);
  void idle_balance(std::uint32_t cpu);
  void nohz_balance(std::uint32_t cpu);
  void migrate(std::uint32_t from, std::uint32_t to, std::uint32_t thread);
  void left_cpu(std::uint32_t thread);
  // The periodic balancer (see the header comment).
  void arm_balancer(std::uint32_t cpu);
  void arm_balancer_at(sim::Time due);
  void to_cfs_tasks_head(std::uint32_t thread);
  void to_cfs_tasks_tail(std::uint32_t thread);
  std::vector<std::uint32_t> cfs_tasks_scan(std::uint32_t cpu) const;
  void on_balancer();
  void rebalance_domains(std::uint32_t cpu, std::int64_t jiffies);
  std::int64_t balance_interval_jiffies(const BalanceLevel& l, const DomainState& d) const;
  void load_balance(std::uint32_t cpu, std::size_t level, bool& continue_balancing);
  bool should_we_balance(std::uint32_t cpu, const BalanceLevel& l) const;
  GroupStat group_stat(std::uint32_t first, const BalanceLevel& l) const;
  std::uint64_t find_busiest_group(std::uint32_t cpu, const BalanceLevel& l, GroupStat& busiest) const;
  std::uint64_t imbalance_313(const BalanceLevel& l, const GroupStat& local, const GroupStat& busiest,
                              std::uint64_t total_load, std::uint64_t total_capacity) const;
  std::uint64_t imbalance_66(const BalanceLevel& l, GroupStat local, const GroupStat& busiest,
                             std::uint64_t total_load, std::uint64_t total_capacity) const;
  std::uint32_t find_busiest_queue(const GroupStat& group, std::uint64_t imbalance) const;
  std::uint32_t detach_attach(std::uint32_t from, std::uint32_t to, std::uint64_t imbalance, const BalanceLevel& l,
                              std::uint32_t failed);
  bool can_detach(std::uint32_t t, std::uint32_t from, const BalanceLevel& l, std::uint32_t failed, std::int64_t left,
                  sim::Time now, sim::Time cost, bool v66) const;
  std::uint64_t cpu_power(std::uint32_t cpu) const;
  std::uint32_t select_cpu(std::uint32_t prev) const;
  std::uint32_t wake_affine(std::uint32_t this_cpu, std::uint32_t prev, bool sync) const;
  std::uint32_t select_idle_sibling(std::uint32_t prev, std::uint32_t target) const;
  std::uint32_t select_idle_sibling_313(std::uint32_t prev, std::uint32_t target) const;
  std::uint32_t select_idle_sibling_66(std::uint32_t prev, std::uint32_t target) const;
  bool core_idle(std::uint32_t cpu) const;  // every SMT thread of cpu's core idle
  std::uint32_t idle_smt_sibling(std::uint32_t cpu) const;
  std::uint32_t first_of_core(std::uint32_t cpu) const { return cpu - cpu % topology_.threads_per_core; }
  std::uint32_t socket_base(std::uint32_t cpu) const {
    return socket_of(cpu) * topology_.cores_per_socket * topology_.threads_per_core;
  }
  std::uint32_t find_idle_cpu(std::uint32_t near) const;
  bool idle(std::uint32_t cpu) const;
  std::uint32_t socket_of(std::uint32_t cpu) const {
    return cpu / (topology_.cores_per_socket * topology_.threads_per_core);
  }
  void rearm(std::uint32_t cpu);
  sim::Time next_tick_after(sim::Time t, bool strict) const;

  sim::Engine& engine_;
  std::unique_ptr<FairPolicy> policy_;
  CpuTopology topology_;
  TaskStates* tasks_;
  sim::Time tick_;
  std::vector<std::unique_ptr<PerCpu>> cpus_;
  std::vector<double> irq_s_;
  std::vector<Thread> threads_;
  std::vector<SchedEntity> entities_;
  std::uint32_t idle_cpus_ = 0;
  PreemptModel preempt_ = PreemptModel::kFull;
  // The CPU whose running thread is in its burst-end callback: a thread it
  // wakes is woken from that CPU (wake_affine()'s this_cpu); none otherwise.
  std::uint32_t waker_cpu_ = kNoEntity;
  // Open SyncWakeups: wake-ups from waker_cpu_ are WF_SYNC.
  std::uint32_t sync_depth_ = 0;
  std::uint32_t queued_total_ = 0;  // threads waiting in any queue
  std::uint64_t switches_ = 0;
  std::uint64_t migrations_ = 0;
  std::vector<BalanceLevel> levels_;          // empty: no periodic balancing
  std::vector<DomainState> domain_state_;     // cpu * levels_.size() + level
  std::vector<std::int64_t> next_balance_;    // rq->next_balance, jiffies
  std::int64_t max_balance_jiffies_ = 1;      // max_load_balance_interval
  std::int64_t hz_ = 250;
  std::unique_ptr<Balancer> balancer_;
  sim::Time balancer_at_ = sim::kNever;
  std::uint64_t balancer_generation_ = 0;
  std::uint64_t balance_pulls_ = 0;
  std::int64_t cfs_tasks_head_seq_ = 0;  // the last Thread::cfs_tasks_seq given at a head
  std::int64_t cfs_tasks_tail_seq_ = 0;  // the last given at a tail
};

}  // namespace models
