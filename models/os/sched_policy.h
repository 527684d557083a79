// The fair class of the Linux scheduler, per CPU run queue, as a clockless
// policy: it is told how much CPU time the running entity used and answers
// what the kernel decides (which entity runs next, whether a woken one
// preempts, how much more the current one may run before the tick takes the
// CPU away). cpu_scheduler.h drives it on the event engine.
//
// Every task is SCHED_NORMAL at nice 0 (weight NICE_0_LOAD = 1024: NGINX's
// worker_priority and wrk leave nice alone), so calc_delta_fair() is the
// identity and vruntime advances one for one with CPU time. Two policies:
//
// CFS as in Linux 3.13 (kernel/sched/fair.c, v3.13; the 2015 9x server ran
// Ubuntu 14.04.1's 3.13):
//  - __sched_period(nr): sysctl_sched_latency, or nr * min_granularity above
//    sched_nr_latency (8) entities; sched_slice() = period * w / rq weight,
//    here period / nr_running;
//  - check_preempt_tick(), evaluated only at the scheduler tick (HRTICK is off
//    by default, kernel/sched/features.h): the current entity loses the CPU
//    once it ran more than its slice since it was picked (3.13's __schedule()
//    puts prev back and set_next_entity() sets it anew even when it is
//    picked again: a new slice; from 3.15, 678d5718d8d0 "sched/fair:
//    Optimize cgroup pick_next_task_fair()", with CONFIG_FAIR_GROUP_SCHED,
//    which distributions' kernels set, pick_next_task_fair() calls
//    set_next_entity() only `if (prev != p)`: the slice goes on. The model
//    follows [kernel] release, SchedSpec::repick_keeps_slice; without a
//    release it is 3.13's. Built without group scheduling, 3.15 and later
//    restart the slice as 3.13 does: the model does not tell them apart),
//    or, having run at least min_granularity,
//    when it is more than a slice of vruntime ahead of the leftmost waiting
//    entity;
//  - place_entity() on wake-up: vruntime = max(own, min_vruntime - latency/2)
//    (GENTLE_FAIR_SLEEPERS halves the sleeper credit); a sleeper keeps its
//    vruntime, and one that moves to another CPU is renormalised against the
//    two queues' min_vruntime (task_waking_fair(), migrate_task_rq_fair());
//  - check_preempt_wakeup() / wakeup_preempt_entity(): the woken entity takes
//    the CPU when the current one's vruntime is more than wakeup_granularity
//    ahead of it;
//  - pick_next_entity(): the leftmost (smallest vruntime). The buddies (NEXT_BUDDY
//    off by default, LAST_BUDDY only above sched_nr_latency) are not modelled.
//
// EEVDF as in Linux 6.6 (kernel/sched/fair.c, v6.6; the default since 6.6):
//  - avg_vruntime() V: the load-weighted mean vruntime of the queued entities
//    and the current one; an entity is eligible when V >= its vruntime
//    (entity_eligible(): lag = V - v >= 0);
//  - each entity has a slice, sysctl_sched_base_slice, and a virtual deadline
//    vruntime + slice; update_deadline() gives a new one when vruntime reaches
//    it and asks for a reschedule (seen at the tick);
//  - pick_eevdf(): the eligible entity with the earliest deadline; with
//    RUN_TO_PARITY (on in 6.6) the current entity, while eligible, keeps the
//    CPU until its deadline is renewed; a reschedule that picks it again
//    does not set it anew (pick_next_task_fair(): `if (prev != p)`), so it
//    neither starts a slice nor runs to parity again;
//  - update_entity_lag() on dequeue keeps vlag = V - v clamped to
//    +-max(2 * slice, TICK_NSEC); place_entity() on enqueue puts the entity at
//    V - vlag * (W + w) / W (PLACE_LAG), deadline one slice later;
//  - check_preempt_wakeup(): the woken entity preempts when pick_eevdf() picks it.
// Later kernels (this machine's 6.18 included) add, and the model leaves out:
//  - PREEMPT_SHORT (6.12): a woken entity with a shorter slice than the
//    running one's cancels its RUN_TO_PARITY protection. Only a task that
//    sets its own slice (sched_setattr()) has a shorter one; NGINX, wrk and
//    kernel threads keep base_slice, so it never applies here;
//  - DELAY_DEQUEUE (6.12): an entity that sleeps while not eligible (lag < 0)
//    stays queued until it is picked or woken, so its negative lag is worked
//    off while it sleeps (DELAY_ZERO then drops any positive lag left). The
//    model keeps a sleeper's lag whole (6.6): a worker that overran its share
//    waits a little longer on its next wake-up than 6.12+ makes it. Within a
//    slice (0.7-1.4 ms here) either way.
// CFS 3.13 features left out, with why: START_DEBIT places only a new
// (forked) task, and the model's threads all exist from the start;
// NEXT_BUDDY is off by default; LAST_BUDDY acts only with sched_nr_latency
// (8) or more entities on one queue.
//
// Scaling: update_sysctl() multiplies latency, min_granularity,
// wakeup_granularity (3.13) and base_slice (6.6) by 1 + ilog2(min(cpus, 8))
// (SCHED_TUNABLESCALING_LOG, get_update_sysctl_factor()); sched_nr_latency
// stays 8, the ratio of the unscaled defaults.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace models {

// The kernel's preemption model (CONFIG_PREEMPT_NONE / _VOLUNTARY / _PREEMPT,
// or the preempt= boot parameter with CONFIG_PREEMPT_DYNAMIC;
// sched_dynamic_update() in kernel/sched/core.c). cpu_scheduler.h says how
// each is modelled; kFull is the model as it was before the key existed.
enum class PreemptModel : std::uint8_t { kNone, kVoluntary, kFull };

// The kernel's scheduler tunables, unscaled (the normalized_sysctl_* defaults).
struct SchedSpec {
  std::string policy = "processor-sharing";  // "cfs" | "eevdf" | "processor-sharing"
  double latency_s = 0.006;             // normalized_sysctl_sched_latency: 6 ms (3.13 and 6.6)
  double min_granularity_s = 0.00075;   // normalized_sysctl_sched_min_granularity: 0.75 ms (3.13)
  double wakeup_granularity_s = 0.001;  // normalized_sysctl_sched_wakeup_granularity: 1 ms (3.13)
  double base_slice_s = 0.00075;        // normalized_sysctl_sched_base_slice: 0.75 ms (6.6)
  std::uint32_t nr_latency = 8;         // sched_nr_latency (3.13)
  std::uint32_t hz = 250;               // CONFIG_HZ: the tick is 1/HZ
  bool tunable_scaling_log = true;      // sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG
  // Periodic load balancing between busy CPUs (cpu_scheduler.h): on, as in
  // every SMP kernel; off leaves newidle and the nohz idle balance only.
  bool periodic_balance = true;
  double migration_cost_s = 0.0005;  // sysctl_sched_migration_cost: 500000 ns (3.13 and 6.6), task_hot()
  PreemptModel preempt = PreemptModel::kFull;  // [kernel] preempt
  // CFS: a reschedule that picks the running entity again leaves its slice
  // going (3.15 on, with CONFIG_FAIR_GROUP_SCHED) instead of starting a new
  // one (3.13). Set by the loader from [kernel] release (3.15 or later);
  // false without a release. EEVDF always keeps it (6.6).
  bool repick_keeps_slice = false;
};

// One sched-domain level as the periodic balancer sees it (struct
// sched_domain): CPUs are numbered socket, core, SMT thread, so a domain
// and each of its groups are aligned blocks of CPUs.
struct BalanceLevel {
  std::uint32_t span = 1;               // CPUs in a domain (sd_weight)
  std::uint32_t group = 1;              // CPUs in each of its groups (the child domain's span)
  std::uint32_t min_interval_ms = 1;    // sd->min_interval
  std::uint32_t max_interval_ms = 2;    // sd->max_interval
  std::uint32_t busy_factor = 1;        // sd->busy_factor
  std::uint32_t imbalance_pct = 125;    // sd->imbalance_pct
  std::uint32_t cache_nice_tries = 0;   // sd->cache_nice_tries
  std::uint32_t smt_power = 1024;       // 3.13: a CPU's cpu_power in this domain's groups (SMT: smt_gain / 2)
  bool share_cpucapacity = false;       // SD_SHARE_CPUCAPACITY (SMT): 6.6's task_hot() finds no thread hot here
};

// The sched domains of a topology, lowest first, degenerate ones (one group)
// dropped as sd_degenerate() drops them. The values per kernel:
//  3.13, include/linux/topology.h: SD_SIBLING_INIT (SMT: 1-2 ms, busy_factor
//   64, imbalance_pct 110, cache_nice_tries 0), SD_MC_INIT (the socket: 1-4 ms,
//   64, 125, 1); between sockets sd_numa_init() (sd_weight-2 x sd_weight ms,
//   busy_factor 32, 125, 2). cpu_power 1024, an SMT thread's smt_gain (1178) /
//   2 = 589 (default_scale_smt_power());
//  6.6, kernel/sched/topology.c sd_init(): sd_weight-2 x sd_weight ms,
//   busy_factor 16, imbalance_pct 110 (SMT) or 117 (MC, NUMA), cache_nice_tries
//   0 (SMT), 1 (MC), 2 (NUMA); capacity 1024 per CPU, SMT thread or not.
// The first balance_interval is min_interval in both (3.13's
// .balance_interval = 1, sd_numa_init()'s and 6.6's sd_weight).
std::vector<BalanceLevel> balance_levels(bool since_6_6, std::uint32_t threads_per_core,
                                         std::uint32_t cores_per_socket, std::uint32_t sockets);

// 1 + ilog2(min(cpus, 8)): get_update_sysctl_factor() with SCHED_TUNABLESCALING_LOG.
std::uint32_t sched_scale_factor(std::uint32_t cpus, bool log_scaling);

// One schedulable entity: a task at nice 0.
struct SchedEntity {
  double vruntime = 0;
  double deadline = 0;       // EEVDF
  double vlag = 0;           // EEVDF: lag kept while dequeued
  double sum_exec = 0;       // CPU time used since it was last picked (sum_exec_runtime - prev_sum_exec_runtime)
  bool picked_to_parity = false;  // EEVDF: RUN_TO_PARITY (se->vlag == se->deadline after set_next_entity)
};

inline constexpr std::uint32_t kNoEntity = UINT32_MAX;

// A CPU's run queue: the entities waiting for it and the one running on it.
struct RunQueue {
  std::vector<std::uint32_t> queued;  // runnable, not running
  std::uint32_t curr = kNoEntity;
  double min_vruntime = 0;
  std::uint32_t nr_running() const { return static_cast<std::uint32_t>(queued.size()) + (curr != kNoEntity); }
};

class FairPolicy {
 public:
  virtual ~FairPolicy() = default;
  // The running entity used `delta` seconds of CPU (update_curr()). True
  // when that asks for a reschedule at once (EEVDF's update_deadline()).
  virtual bool charge(RunQueue& rq, std::vector<SchedEntity>& es, double delta) const = 0;
  // An entity leaves the queue (asleep or migrating): what it keeps.
  virtual void leave(const RunQueue& rq, std::vector<SchedEntity>& es, std::uint32_t e) const = 0;
  // An entity joins queue `rq` (enqueue_entity() + place_entity()), coming
  // from queue `from` (the same one when it stays on its CPU): `woken` after
  // a sleep, else migrated. Call before it is added to rq.queued.
  virtual void place(const RunQueue& rq, const RunQueue& from, std::vector<SchedEntity>& es, std::uint32_t e,
                     bool woken) const = 0;
  // The entity that runs next among curr and the queued (pick_next_entity / pick_eevdf).
  virtual std::uint32_t pick(const RunQueue& rq, const std::vector<SchedEntity>& es) const = 0;
  // The entity becomes the running one (set_next_entity()).
  virtual void picked(std::vector<SchedEntity>& es, std::uint32_t e) const = 0;
  // A reschedule picked the running entity `e` again: what the kernel's
  // __schedule() does to it when prev == next. 3.13 put it back
  // (put_prev_task()) before pick_next_task_fair(), which always calls
  // set_next_entity(): a new slice (prev_sum_exec_runtime). 3.15 to 6.5's
  // CFS, as 6.6's EEVDF, keeps it (SchedSpec::repick_keeps_slice). 6.6's
  // pick_next_task_fair() with CONFIG_FAIR_GROUP_SCHED (distributions' kernels)
  // calls put_prev_entity() and set_next_entity() only `if (prev != p)`: the
  // slice goes on and RUN_TO_PARITY's stash (vlag = deadline) is not renewed.
  virtual void picked_again(std::vector<SchedEntity>& es, std::uint32_t e) const = 0;
  // Whether woken entity `e` (already queued) takes the CPU from rq.curr.
  virtual bool wakeup_preempts(const RunQueue& rq, const std::vector<SchedEntity>& es, std::uint32_t e) const = 0;
  // CPU time the running entity may still use before a tick would take the
  // CPU away (check_preempt_tick / update_deadline), if nothing else changes;
  // a negative value when it would now. Infinity when nothing waits.
  virtual double run_left(const RunQueue& rq, const std::vector<SchedEntity>& es) const = 0;
  // Whether the tick reschedules (check_preempt_tick(); EEVDF asks in charge()).
  virtual bool tick_preempts(const RunQueue& rq, const std::vector<SchedEntity>& es) const = 0;
  // True when the tick must fall strictly after run_left() (a '>' test in the kernel).
  virtual bool strict_at_tick() const = 0;
  // Which kernel's wake-up placement (select_task_rq_fair()) goes with the
  // policy: 3.13's with CFS, 6.6's with EEVDF (cpu_scheduler.h says how they differ).
  virtual bool placement_since_6_6() const = 0;
  double tick_s() const { return tick_s_; }
  // The periodic balancer's switch and task_hot()'s threshold (from SchedSpec).
  bool periodic_balance = true;
  double migration_cost_s = 0.0005;
  // update_min_vruntime(): after an entity left the queue.
  static void update_min_vruntime(RunQueue& rq, const std::vector<SchedEntity>& es);

 protected:
  explicit FairPolicy(double tick_s) : tick_s_(tick_s) {}

 private:
  double tick_s_;
};

// The registry of scheduling policies: "cfs" or "eevdf", for `cpus` CPUs;
// nullptr for "processor-sharing" (sim::FairShare stands in for a scheduler);
// throws std::invalid_argument for anything else.
std::unique_ptr<FairPolicy> make_fair_policy(const SchedSpec& spec, std::uint32_t cpus);
// The names make_fair_policy() accepts, for messages.
const char* sched_policy_names();
bool sched_policy_known(const std::string& name);

}  // namespace models
