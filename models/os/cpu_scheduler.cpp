#include "models/os/cpu_scheduler.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace models {

namespace {
// A burst with less than this left is done (sums of doubles).
constexpr double kDone = 1e-10;
// A kernel burst within this much CPU time past a preemption point is at it:
// event times are whole nanoseconds, rounded up (sim::from_seconds_ceil()).
constexpr double kAtPoint = 2e-9;
}  // namespace

// A CPU's interrupt work, in the order it came: each ends at an event of its
// own, and works on one CPU end in order.
struct CpuScheduler::IrqLine final : public sim::EventTarget {
  IrqLine(CpuScheduler& o, std::uint32_t i) : owner(o), index(i) {}
  void on_event(std::uint64_t) override { owner.irq_done(index); }

  CpuScheduler& owner;
  std::uint32_t index;
  std::deque<IrqWork> pending;
};

struct CpuScheduler::PerCpu final : public sim::EventTarget {
  PerCpu(CpuScheduler& o, std::uint32_t i) : owner(o), index(i), irq(o, i) {}
  void on_event(std::uint64_t arg) override {
    if (arg != generation) return;  // superseded by an earlier setting
    armed_at = sim::kNever;
    owner.on_cpu_event(index);
  }

  CpuScheduler& owner;
  std::uint32_t index;
  RunQueue rq;
  sim::Time since = 0;  // CPU time of the running thread is charged up to here
  // The CPU's next event: one engine event at a time is live (its
  // generation); a later setting keeps an earlier pending one, which fires,
  // finds nothing due and sets the next (cheaper than moving it each time).
  sim::Time armed_at = sim::kNever;
  std::uint64_t generation = 0;
  bool busy = false;
  bool need_resched = false;  // the policy asked for a reschedule (EEVDF's update_deadline())
  // A reschedule that found the running thread in kernel mode between two
  // preemption points (preempt=none/voluntary): TIF_NEED_RESCHED, acted on
  // at the next point or the burst's end.
  bool resched_deferred = false;
  sim::Time irq_until = 0;    // interrupt work runs until here; no thread runs before (since >= irq_until)
  IrqLine irq;
};

// The SCHED_SOFTIRQ of the busy CPUs: one engine event at the earliest tick
// at which a busy CPU's rq->next_balance falls due.
struct CpuScheduler::Balancer final : public sim::EventTarget {
  explicit Balancer(CpuScheduler& o) : owner(o) {}
  void on_event(std::uint64_t arg) override {
    if (arg != owner.balancer_generation_) return;  // superseded by an earlier setting
    owner.on_balancer();
  }
  CpuScheduler& owner;
};

CpuScheduler::CpuScheduler(sim::Engine& engine, std::unique_ptr<FairPolicy> policy, const CpuTopology& topology,
                           TaskStates* tasks)
    : engine_(engine),
      policy_(std::move(policy)),
      topology_(topology),
      tasks_(tasks),
      tick_(std::max<sim::Time>(1, sim::from_seconds_ceil(policy_->tick_s()))) {
  if (topology.cpus() == 0) throw std::invalid_argument("CpuScheduler: no CPU");
  for (std::uint32_t c = 0; c < topology.cpus(); ++c) {
    cpus_.push_back(std::make_unique<PerCpu>(*this, c));
  }
  idle_cpus_ = topology.cpus();
  irq_s_.assign(topology.cpus(), 0.0);
  if (tasks_) tasks_->use_per_cpu();
  if (policy_->periodic_balance) {
    levels_ = balance_levels(policy_->placement_since_6_6(), topology.threads_per_core, topology.cores_per_socket,
                             topology.sockets);
    hz_ = std::max<std::int64_t>(1, std::llround(1.0 / policy_->tick_s()));
    // update_max_interval(): HZ * num_online_cpus() / 10 jiffies.
    max_balance_jiffies_ = std::max<std::int64_t>(1, hz_ * topology.cpus() / 10);
    domain_state_.resize(static_cast<std::size_t>(topology.cpus()) * levels_.size());
    for (std::uint32_t c = 0; c < topology.cpus(); ++c)
      for (std::size_t l = 0; l < levels_.size(); ++l)
        domain_state_[c * levels_.size() + l].interval_ms = levels_[l].min_interval_ms;
    next_balance_.assign(topology.cpus(), 0);
    balancer_ = std::make_unique<Balancer>(*this);
  }
}

CpuScheduler::~CpuScheduler() = default;

std::uint32_t CpuScheduler::add_thread(std::uint32_t task, std::uint32_t home) {
  Thread t;
  t.task = task;
  t.cpu = home % cpus();
  threads_.push_back(t);
  entities_.push_back(SchedEntity{});
  return static_cast<std::uint32_t>(threads_.size() - 1);
}

std::uint32_t CpuScheduler::running_on(std::uint32_t cpu) const { return cpus_[cpu]->rq.curr; }
std::uint32_t CpuScheduler::waiting_on(std::uint32_t cpu) const {
  return static_cast<std::uint32_t>(cpus_[cpu]->rq.queued.size());
}

double CpuScheduler::cpu_wait_s(std::uint32_t thread) const {
  const Thread& t = threads_[thread];
  return t.waited_s + (t.state == State::kQueued ? sim::to_seconds(engine_.now() - t.waiting_since) : 0.0);
}

void CpuScheduler::run(std::uint32_t thread, double seconds, sim::FairShareListener* listener, std::uint64_t tag) {
  Thread& t = threads_[thread];
  if (t.has_burst || t.state == State::kQueued)
    throw std::logic_error("CpuScheduler: a thread asked for CPU while it still had a burst");
  t.listener = listener;
  t.tag = tag;
  t.left = std::max(seconds, 0.0);
  t.has_burst = true;
  t.kernel = t.next_kernel && preempt_ != PreemptModel::kFull;
  t.burst_s = t.left;
  t.point_s = t.next_point_s;
  t.next_kernel = false;
  t.next_point_s = 0;
  if (t.state == State::kRunning) {
    // Its last burst ended at this instant: it keeps the CPU.
    rearm(t.cpu);
    return;
  }
  wake(thread);
}

void CpuScheduler::next_burst_in_kernel(std::uint32_t thread, double point_s) {
  threads_[thread].next_kernel = true;
  threads_[thread].next_point_s = std::max(point_s, 0.0);
}

void CpuScheduler::run_woken(std::uint32_t thread, double seconds, sim::FairShareListener* listener,
                             std::uint64_t tag, Waker waker) {
  const std::uint32_t outer_cpu = waker_cpu_, outer_sync = sync_depth_;
  waker_cpu_ = waker.cpu < cpus() ? waker.cpu : kNoEntity;
  sync_depth_ = waker.sync ? 1 : 0;
  run(thread, seconds, listener, tag);
  waker_cpu_ = outer_cpu;
  sync_depth_ = outer_sync;
}

// Charges the running thread's CPU time up to now (update_curr()); notes a
// reschedule the policy asks for.
void CpuScheduler::sync(std::uint32_t cpu) {
  PerCpu& c = *cpus_[cpu];
  const sim::Time now = engine_.now();
  if (c.rq.curr != kNoEntity && now > c.since) {
    Thread& t = threads_[c.rq.curr];
    if (t.has_burst) {
      const double used = sim::to_seconds(now - c.since);
      t.left -= used;
      if (policy_->charge(c.rq, entities_, used)) c.need_resched = true;
    }
  }
  c.since = std::max(now, c.irq_until);
}

// irq_exit() -> invoke_softirq(): the work runs before any thread on the
// CPU goes on. The running thread has been charged up to now; it is
// charged again only after the work.
void CpuScheduler::run_irq(std::uint32_t cpu, double seconds, sim::FairShareListener* listener, std::uint64_t tag) {
  cpu %= cpus();
  PerCpu& c = *cpus_[cpu];
  sync(cpu);
  const sim::Time start = std::max(engine_.now(), c.irq_until);
  c.irq_until = sim::later(start, sim::from_seconds_ceil(std::max(seconds, 0.0)));
  c.since = std::max(c.since, c.irq_until);
  irq_s_[cpu] += std::max(seconds, 0.0);
  c.irq.pending.push_back(IrqWork{listener, tag});
  engine_.schedule_at(c.irq_until, &c.irq, 0);
  report_busy(cpu);
  rearm(cpu);  // the running thread's burst ends that much later
}

void CpuScheduler::irq_done(std::uint32_t cpu) {
  IrqLine& line = cpus_[cpu]->irq;
  const IrqWork w = line.pending.front();
  line.pending.pop_front();
  report_busy(cpu);
  w.listener->on_share_milestone(kNoEntity, w.tag, 0);
}

// What /proc/stat would count: a thread on the CPU, or interrupt work.
void CpuScheduler::report_busy(std::uint32_t cpu) {
  const PerCpu& c = *cpus_[cpu];
  if (tasks_) tasks_->set_cpu_busy(engine_.now(), cpu, c.busy || c.irq_until > engine_.now());
}

bool CpuScheduler::take_resched(std::uint32_t cpu) {
  const bool r = cpus_[cpu]->need_resched;
  cpus_[cpu]->need_resched = false;
  return r;
}

void CpuScheduler::on_cpu_event(std::uint32_t cpu) {
  PerCpu& c = *cpus_[cpu];
  if (!due_now(cpu)) {
    rearm(cpu);  // an early event whose setting was superseded by a later one: nothing happens here
    return;
  }
  sync(cpu);
  if (c.rq.curr != kNoEntity) {
    const Thread& t = threads_[c.rq.curr];
    if (!t.has_burst)
      put_to_sleep(cpu);  // the instant passed without a new burst
    else if (t.left <= kDone)
      complete_burst(cpu);
  }
  const bool at_tick = engine_.now() % tick_ == 0;
  if (c.rq.curr != kNoEntity && threads_[c.rq.curr].has_burst) {
    // A deferred reschedule is taken at a preemption point (a new burst,
    // one that has used no CPU, is at its start: back from user space).
    if (take_resched(cpu) || (at_tick && policy_->tick_preempts(c.rq, entities_)) ||
        (c.resched_deferred && preemptible_now(cpu)))
      preempt_or_defer(cpu);
  } else if (c.resched_deferred && c.rq.curr != kNoEntity) {
    // The burst ended and the thread asked for no more yet: the flag waits
    // for its return to user space (a burst asked for at this instant).
    c.resched_deferred = false;
    c.need_resched = true;
  }
  if (at_tick) nohz_balance(cpu);
  rearm(cpu);
}

// Whether anything happens on the CPU now: a thread leaves, a burst ends, a
// reschedule is pending, or a tick.
bool CpuScheduler::due_now(std::uint32_t cpu) const {
  const PerCpu& c = *cpus_[cpu];
  const sim::Time now = engine_.now();
  if (now % tick_ == 0 || c.need_resched) return true;
  if (c.rq.curr == kNoEntity) return false;
  if (c.resched_deferred && next_point_at(cpu) <= now) return true;
  const Thread& t = threads_[c.rq.curr];
  return !t.has_burst || sim::later(c.since, sim::from_seconds_ceil(std::max(t.left, 0.0))) <= now;
}

void CpuScheduler::complete_burst(std::uint32_t cpu) {
  Thread& t = threads_[cpus_[cpu]->rq.curr];
  t.has_burst = false;
  t.left = 0;
  // Threads woken from the callback are woken by this CPU (wake_affine()).
  const std::uint32_t outer = waker_cpu_;
  waker_cpu_ = cpu;
  t.listener->on_share_milestone(cpus_[cpu]->rq.curr, t.tag, 0);
  waker_cpu_ = outer;
}

// try_to_wake_up(): select_task_rq_fair(), then enqueue and check_preempt_wakeup().
void CpuScheduler::wake(std::uint32_t thread) {
  const std::uint32_t cpu = select_cpu(threads_[thread].cpu);
  const std::uint32_t prev = threads_[thread].cpu;
  sync(cpu);
  if (cpu != prev) sync(prev);  // its min_vruntime now (task_waking_fair())
  enqueue(cpu, thread, true);
  RunQueue& rq = cpus_[cpu]->rq;
  if (rq.curr == kNoEntity) {
    remove_queued(cpu, thread);
    set_running(cpu, thread);
  } else if (take_resched(cpu) || policy_->wakeup_preempts(rq, entities_, thread)) {
    preempt_or_defer(cpu);
  }
  rearm(cpu);
  if (cpu != prev && cpus_[prev]->need_resched) rearm(prev);
}

void CpuScheduler::enqueue(std::uint32_t cpu, std::uint32_t thread, bool woken) {
  Thread& t = threads_[thread];
  RunQueue& rq = cpus_[cpu]->rq;
  policy_->place(rq, cpus_[t.cpu]->rq, entities_, thread, woken);
  rq.queued.push_back(thread);
  ++queued_total_;
  to_cfs_tasks_head(thread);  // account_entity_enqueue(): list_add()
  t.state = State::kQueued;
  t.cpu = cpu;
  if (tasks_ && t.task != kNoTask) tasks_->set_cpu(engine_.now(), t.task, cpu);
  set_waiting(thread, true);
}

// resched_curr(): at once unless the running thread is in kernel mode
// between two preemption points under preempt=none/voluntary (the header).
void CpuScheduler::preempt_or_defer(std::uint32_t cpu) {
  if (preemptible_now(cpu))
    reschedule(cpu);
  else
    cpus_[cpu]->resched_deferred = true;
}

// Whether the running thread can be preempted now: always under "full", in
// user mode, and in kernel mode at a preemption point (cond_resched()) or
// the burst's start or end.
bool CpuScheduler::preemptible_now(std::uint32_t cpu) const {
  const std::uint32_t curr = cpus_[cpu]->rq.curr;
  if (preempt_ == PreemptModel::kFull || curr == kNoEntity) return true;
  const Thread& t = threads_[curr];
  if (!t.has_burst || !t.kernel || t.left <= kDone) return true;
  const double used = t.burst_s - t.left;
  if (used <= kAtPoint) return true;
  if (t.point_s <= kAtPoint) return false;
  const double past = used - std::floor((used + kAtPoint) / t.point_s) * t.point_s;
  return past <= kAtPoint;
}

// When the running kernel burst reaches its next preemption point (or its
// end), for a deferred reschedule; kNever when none is deferred. A burst
// that is at a point now has it now (c.since: after any interrupt work):
// interrupt work that came at the instant the thread reached the point,
// before the CPU's own event for it, holds the thread there, and the
// reschedule is taken when the work ends (preemptible_now() says the same).
sim::Time CpuScheduler::next_point_at(std::uint32_t cpu) const {
  const PerCpu& c = *cpus_[cpu];
  if (!c.resched_deferred || c.rq.curr == kNoEntity) return sim::kNever;
  const Thread& t = threads_[c.rq.curr];
  if (!t.has_burst) return sim::kNever;
  const double used = t.burst_s - t.left;
  double next = t.burst_s;
  if (t.point_s > kAtPoint) {
    const double passed = std::floor((used + kAtPoint) / t.point_s);  // points reached so far
    const bool at_one = used - passed * t.point_s <= kAtPoint;
    next = std::min(next, (at_one ? passed : passed + 1) * t.point_s);
  }
  return sim::later(c.since, sim::from_seconds_ceil(std::max(next - used, 0.0)));
}

// schedule() on a CPU whose running thread may lose it: the policy picks.
void CpuScheduler::reschedule(std::uint32_t cpu) {
  cpus_[cpu]->need_resched = false;
  cpus_[cpu]->resched_deferred = false;
  RunQueue& rq = cpus_[cpu]->rq;
  const std::uint32_t prev = rq.curr;
  if (prev != kNoEntity && !threads_[prev].has_burst) {
    put_to_sleep(cpu);  // leaving anyway
    return;
  }
  const std::uint32_t next = policy_->pick(rq, entities_);
  if (next == kNoEntity) return;
  if (next == prev) {
    policy_->picked_again(entities_, prev);
    if (policy_->placement_since_6_6()) to_cfs_tasks_head(prev);  // 6.6's `done:` list_move(), prev or not
    return;
  }
  if (prev != kNoEntity) {
    left_cpu(prev);
    rq.queued.push_back(prev);
    ++queued_total_;
    threads_[prev].state = State::kQueued;
    set_waiting(prev, true);
    rq.curr = kNoEntity;
  }
  remove_queued(cpu, next);
  set_running(cpu, next);
}

void CpuScheduler::put_to_sleep(std::uint32_t cpu) {
  PerCpu& c = *cpus_[cpu];
  const std::uint32_t prev = c.rq.curr;
  c.resched_deferred = false;  // it blocks: schedule()
  policy_->leave(c.rq, entities_, prev);
  c.rq.curr = kNoEntity;
  threads_[prev].state = State::kSleeping;
  left_cpu(prev);
  FairPolicy::update_min_vruntime(c.rq, entities_);
  if (!c.rq.queued.empty()) {
    const std::uint32_t next = policy_->pick(c.rq, entities_);
    remove_queued(cpu, next);
    set_running(cpu, next);
    return;
  }
  c.busy = false;
  ++idle_cpus_;
  report_busy(cpu);
  idle_balance(cpu);
}

void CpuScheduler::remove_queued(std::uint32_t cpu, std::uint32_t thread) {
  auto& q = cpus_[cpu]->rq.queued;
  q.erase(std::find(q.begin(), q.end(), thread));
  --queued_total_;
}

void CpuScheduler::set_running(std::uint32_t cpu, std::uint32_t thread) {
  PerCpu& c = *cpus_[cpu];
  Thread& t = threads_[thread];
  c.rq.curr = thread;
  c.need_resched = false;  // cleared by the context switch
  c.resched_deferred = false;
  t.state = State::kRunning;
  t.cpu = cpu;
  policy_->picked(entities_, thread);
  if (policy_->placement_since_6_6()) to_cfs_tasks_head(thread);
  set_waiting(thread, false);
  ++switches_;
  if (!c.busy) {
    c.busy = true;
    --idle_cpus_;
    report_busy(cpu);
    arm_balancer(cpu);
  }
}

// rq->cfs_tasks as a sequence number per thread: enqueue puts a thread at
// the head (list_add() in account_entity_enqueue(), 3.13 and 6.6), and so
// does 6.6's pick_next_task_fair() (list_move(), "so our cfs_tasks list
// becomes MRU", since v4.13); 3.13's pick does not move it. 3.13's
// move_tasks() puts a thread it passes over at the tail (list_move_tail()),
// 6.6's detach_tasks() at the head (list_move()).
void CpuScheduler::to_cfs_tasks_head(std::uint32_t thread) {
  threads_[thread].cfs_tasks_seq = ++cfs_tasks_head_seq_;
}
void CpuScheduler::to_cfs_tasks_tail(std::uint32_t thread) {
  threads_[thread].cfs_tasks_seq = --cfs_tasks_tail_seq_;
}

// The threads on the CPU's queue, running one included, in the order the
// balancer walks rq->cfs_tasks: 3.13's move_tasks() from the head
// (list_first_entry()), 6.6's detach_tasks() from the tail (list_last_entry()).
std::vector<std::uint32_t> CpuScheduler::cfs_tasks_scan(std::uint32_t cpu) const {
  const bool from_tail = policy_->placement_since_6_6();
  std::vector<std::uint32_t> order = cpus_[cpu]->rq.queued;
  if (cpus_[cpu]->rq.curr != kNoEntity) order.push_back(cpus_[cpu]->rq.curr);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::int64_t sa = threads_[a].cfs_tasks_seq, sb = threads_[b].cfs_tasks_seq;
    return from_tail ? sa < sb : sa > sb;
  });
  return order;
}

void CpuScheduler::left_cpu(std::uint32_t thread) {
  threads_[thread].has_run = true;
  threads_[thread].left_cpu_at = engine_.now();
}

void CpuScheduler::set_waiting(std::uint32_t thread, bool waiting) {
  Thread& t = threads_[thread];
  const sim::Time now = engine_.now();
  if (waiting)
    t.waiting_since = now;
  else
    t.waited_s += sim::to_seconds(now - t.waiting_since);
  if (tasks_ && t.task != kNoTask) tasks_->set_cpu_wait(now, t.task, waiting);
}

// idle_balance() (3.13) / newidle_balance() (6.6): a CPU that has just gone
// idle pulls the longest-waiting thread of the busiest queue, its socket first.
void CpuScheduler::idle_balance(std::uint32_t cpu) {
  if (queued_total_ == 0) return;
  std::uint32_t busiest = kNoEntity;
  std::size_t most = 0;
  const std::uint32_t socket = socket_of(cpu);
  for (int pass = 0; pass < 2 && busiest == kNoEntity; ++pass)
    for (std::uint32_t o = 0; o < cpus(); ++o) {
      if ((socket_of(o) == socket) != (pass == 0)) continue;
      const std::size_t n = cpus_[o]->rq.queued.size();
      if (n > most) {
        most = n;
        busiest = o;
      }
    }
  if (busiest != kNoEntity) migrate(busiest, cpu, cpus_[busiest]->rq.queued.front());
}

// nohz_balancer_kick() at a tick of a CPU with threads waiting while some
// CPU is idle: the idle CPUs pull them.
void CpuScheduler::nohz_balance(std::uint32_t cpu) {
  RunQueue& rq = cpus_[cpu]->rq;
  while (!rq.queued.empty() && idle_cpus_ > 0) migrate(cpu, find_idle_cpu(cpu), rq.queued.front());
}

void CpuScheduler::migrate(std::uint32_t from, std::uint32_t to, std::uint32_t thread) {
  RunQueue& src = cpus_[from]->rq;
  sync(from);
  policy_->leave(src, entities_, thread);
  remove_queued(from, thread);
  FairPolicy::update_min_vruntime(src, entities_);
  ++migrations_;
  sync(to);
  enqueue(to, thread, false);
  if (cpus_[to]->rq.curr == kNoEntity) {
    remove_queued(to, thread);
    set_running(to, thread);
  }
  rearm(from);
  rearm(to);
}

// ---- Periodic load balancing (kernel/sched/fair.c, 3.13 and 6.6) ----------

// A busy CPU's rq->next_balance as an engine time: the first tick at or
// after it, and after now (scheduler_tick() -> trigger_load_balance()).
void CpuScheduler::arm_balancer(std::uint32_t cpu) {
  if (!balancer_ || levels_.empty()) return;
  arm_balancer_at(std::max(next_balance_[cpu] * tick_, next_tick_after(engine_.now(), true)));
}

// One engine event at due unless one is set at or before it.
void CpuScheduler::arm_balancer_at(sim::Time due) {
  const sim::Time now = engine_.now();
  if (balancer_at_ != sim::kNever && balancer_at_ >= now && balancer_at_ <= due) return;
  balancer_at_ = due;
  engine_.schedule_at(due, balancer_.get(), ++balancer_generation_);
}

// run_rebalance_domains() on every busy CPU whose next_balance is due, in
// CPU order. Idle CPUs are left to newidle and the nohz idle balance (their
// tick is stopped); their next_balance is looked at again when they are busy.
void CpuScheduler::on_balancer() {
  balancer_at_ = sim::kNever;
  const std::int64_t jiffies = engine_.now() / tick_;
  for (std::uint32_t c = 0; c < cpus(); ++c)
    if (!idle(c) && next_balance_[c] <= jiffies) rebalance_domains(c, jiffies);
  // The earliest due of the busy CPUs, set once (no superseded events).
  sim::Time due = sim::kNever;
  const sim::Time after = next_tick_after(engine_.now(), true);
  for (std::uint32_t c = 0; c < cpus(); ++c)
    if (!idle(c)) due = std::min(due, std::max(next_balance_[c] * tick_, after));
  if (due != sim::kNever) arm_balancer_at(due);
}

// get_sd_balance_interval(sd, cpu_busy) (6.6; inline in 3.13's
// rebalance_domains()): balance_interval x busy_factor ms for a busy CPU,
// msecs_to_jiffies() (rounding up), clamped to 1..max_load_balance_interval.
// 6.6 (since v5.10, "sched/fair: Reduce busy load balance interval") takes
// one jiffy off a busy CPU's interval before the clamp, so that the levels'
// periods are not multiples of each other; 3.13 does not.
std::int64_t CpuScheduler::balance_interval_jiffies(const BalanceLevel& l, const DomainState& d) const {
  const std::int64_t ms = static_cast<std::int64_t>(d.interval_ms) * l.busy_factor;
  std::int64_t jiffies = (ms * hz_ + 999) / 1000;
  if (policy_->placement_since_6_6()) jiffies -= 1;  // if (cpu_busy) interval -= 1;
  return std::clamp<std::int64_t>(jiffies, 1, max_balance_jiffies_);
}

// rebalance_domains(cpu, CPU_NOT_IDLE): each domain from the lowest whose
// last_balance + interval has come is balanced; a CPU that is not the one to
// balance a domain (should_we_balance()) stops there (continue_balancing).
// next_balance: the earliest last_balance + interval, 3.13's interval the
// one computed before load_balance(), 6.6's recomputed after it (the CPU
// stays busy: the model's balancer only pulls).
void CpuScheduler::rebalance_domains(std::uint32_t cpu, std::int64_t jiffies) {
  bool continue_balancing = true;
  std::int64_t next = jiffies + 60 * hz_;  // next_balance = jiffies + 60*HZ
  for (std::size_t l = 0; l < levels_.size() && continue_balancing; ++l) {
    DomainState& d = domain_state_[cpu * levels_.size() + l];
    std::int64_t interval = balance_interval_jiffies(levels_[l], d);
    if (jiffies >= d.last_balance + interval) {
      load_balance(cpu, l, continue_balancing);
      d.last_balance = jiffies;
      // 6.6 recomputes the interval from the new balance_interval; 3.13
      // keeps the one it tested with.
      if (policy_->placement_since_6_6()) interval = balance_interval_jiffies(levels_[l], d);
    }
    next = std::min(next, d.last_balance + interval);
  }
  next_balance_[cpu] = next;
}

// should_we_balance(): in the CPU's own group, the first idle CPU balances,
// or the group's first CPU when none is idle. The caller is busy.
bool CpuScheduler::should_we_balance(std::uint32_t cpu, const BalanceLevel& l) const {
  const std::uint32_t first = cpu - cpu % l.group;
  for (std::uint32_t o = first; o < first + l.group; ++o)
    if (idle(o)) return false;
  return cpu == first;
}

// 3.13's cpu_power: an SMT thread's share of smt_gain, else SCHED_POWER_SCALE;
// 6.6's capacity is 1024 for every CPU here (levels_ hold 1024 then).
std::uint64_t CpuScheduler::cpu_power(std::uint32_t) const {
  return levels_.empty() ? 1024 : levels_.front().smt_power;
}

// update_sg_lb_stats() with the model's loads: each runnable thread
// NICE_0_LOAD (1024) where the kernel has PELT averages (cpu_load() in 6.6,
// source_load()/target_load() of cpu_load[] in 3.13); 6.6's util is 1024 per
// CPU with a thread, its runnable 1024 per thread.
CpuScheduler::GroupStat CpuScheduler::group_stat(std::uint32_t first, const BalanceLevel& l) const {
  GroupStat g;
  g.first = first;
  g.weight = l.group;
  for (std::uint32_t o = first; o < first + l.group; ++o) {
    const std::uint32_t n = cpus_[o]->rq.nr_running();
    g.nr += n;
    if (idle(o) && n == 0) ++g.idle;
    if (n > 0) ++g.busy;
    g.capacity += cpu_power(o);
  }
  g.load = 1024ull * g.nr;
  g.avg_load = g.load * 1024 / g.capacity;
  g.cap_tasks = std::max<std::uint64_t>(1, (g.capacity + 512) / 1024);  // 3.13 group_capacity: DIV_ROUND_CLOSEST
  if (policy_->placement_since_6_6()) {
    const std::uint64_t util = 1024ull * g.busy, runnable = g.load, pct = l.imbalance_pct;
    // group_is_overloaded(), group_has_capacity(), group_classify().
    const bool overloaded =
        g.nr > g.weight && (g.capacity * 100 < util * pct || g.capacity * pct < runnable * 100);
    bool has_capacity = true;
    if (g.nr >= g.weight)
      has_capacity = !(g.capacity * pct < runnable * 100) && g.capacity * 100 > util * pct;
    g.type = overloaded ? 2 : has_capacity ? 0 : 1;
  }
  return g;
}

// find_busiest_group(): the imbalance to move (0: balanced) and the busiest
// group, for a busy CPU (CPU_NOT_IDLE).
std::uint64_t CpuScheduler::find_busiest_group(std::uint32_t cpu, const BalanceLevel& l, GroupStat& busiest) const {
  const bool v66 = policy_->placement_since_6_6();
  const std::uint32_t base = cpu - cpu % l.span;
  GroupStat local;
  bool found = false;
  std::uint64_t total_load = 0, total_capacity = 0;
  for (std::uint32_t first = base; first < base + l.span; first += l.group) {
    const GroupStat g = group_stat(first, l);
    total_load += g.load;
    total_capacity += g.capacity;
    if (cpu >= first && cpu < first + l.group) {
      local = g;
      continue;
    }
    bool pick;
    if (v66) {
      // update_sd_pick_busiest() (6.6), the group types that arise here.
      if (g.nr == 0) continue;
      if (!found || g.type != busiest.type)
        pick = !found || g.type > busiest.type;
      else if (g.type == 2)
        pick = g.avg_load > busiest.avg_load;
      else if (g.type == 1)
        pick = true;  // avg_load is only computed for overloaded groups: the last of equals
      else
        pick = g.idle < busiest.idle || (g.idle == busiest.idle && g.nr > busiest.nr);
    } else {
      // update_sd_pick_busiest() (3.13): the highest avg_load above its capacity.
      pick = g.avg_load > (found ? busiest.avg_load : 0) && g.nr > g.cap_tasks;
    }
    if (pick) {
      busiest = g;
      found = true;
    }
  }
  if (!found || busiest.nr == 0) return 0;
  return v66 ? imbalance_66(l, local, busiest, total_load, total_capacity)
             : imbalance_313(l, local, busiest, total_load, total_capacity);
}

// 3.13: find_busiest_group()'s tests for CPU_NOT_IDLE, calculate_imbalance()
// and fix_small_imbalance().
std::uint64_t CpuScheduler::imbalance_313(const BalanceLevel& l, const GroupStat& local, const GroupStat& busiest,
                                          std::uint64_t total_load, std::uint64_t total_capacity) const {
  const std::uint64_t sds_avg = 1024 * total_load / total_capacity;
  if (local.avg_load >= busiest.avg_load || local.avg_load >= sds_avg) return 0;
  if (100 * busiest.avg_load <= l.imbalance_pct * local.avg_load) return 0;
  std::uint64_t imbalance = 0;
  const std::uint64_t lpt_b = busiest.load / busiest.nr;
  const std::uint64_t lpt_l = local.nr ? local.load / local.nr : 1024;
  if (busiest.avg_load > sds_avg) {
    const std::uint64_t above =
        busiest.nr > busiest.cap_tasks ? (busiest.nr - busiest.cap_tasks) * 1024 * 1024 / busiest.capacity : 0;
    const std::uint64_t max_pull = std::min(busiest.avg_load - sds_avg, above);
    imbalance = std::min(max_pull * busiest.capacity, (sds_avg - local.avg_load) * local.capacity) / 1024;
    if (imbalance >= lpt_b) return imbalance;
  }
  // fix_small_imbalance(): one task's load when the gap is worth a task.
  const std::uint64_t imbn = lpt_b > lpt_l ? 1 : 2;
  const std::uint64_t scaled = lpt_b * 1024 / busiest.capacity;
  if (busiest.avg_load + scaled >= local.avg_load + scaled * imbn) return lpt_b;
  std::uint64_t pwr_now = busiest.capacity * std::min(lpt_b, busiest.avg_load) +
                          local.capacity * std::min(lpt_l, local.avg_load);
  pwr_now /= 1024;
  std::uint64_t pwr_move = 0;
  if (busiest.avg_load > scaled) pwr_move += busiest.capacity * std::min(lpt_b, busiest.avg_load - scaled);
  const std::uint64_t tmp = busiest.avg_load * busiest.capacity < lpt_b * 1024
                                ? busiest.avg_load * busiest.capacity / local.capacity
                                : lpt_b * 1024 / local.capacity;
  pwr_move += local.capacity * std::min(lpt_l, local.avg_load + tmp);
  pwr_move /= 1024;
  return pwr_move > pwr_now ? lpt_b : imbalance;
}

// 6.6: find_busiest_group()'s tests for CPU_NOT_IDLE and calculate_imbalance():
// a busy CPU pulls only from an overloaded group (more threads than CPUs),
// migrate_load by avg_load. The other group types (misfit, asym packing,
// imbalanced by affinity) do not arise; the local group of a busy CPU that
// balances has no idle CPU, so it is fully busy or overloaded.
std::uint64_t CpuScheduler::imbalance_66(const BalanceLevel& l, GroupStat local, const GroupStat& busiest,
                                         std::uint64_t total_load, std::uint64_t total_capacity) const {
  if (local.type > busiest.type) return 0;
  const std::uint64_t sds_avg = total_load * 1024 / total_capacity;
  if (local.type == 2) {
    if (local.avg_load >= busiest.avg_load || local.avg_load >= sds_avg) return 0;
    if (100 * busiest.avg_load <= l.imbalance_pct * local.avg_load) return 0;
  }
  if (busiest.type != 2) return 0;  // env->idle == CPU_NOT_IDLE: let an idle CPU pull
  // calculate_imbalance(): local fully busy, it will become overloaded.
  if (local.avg_load >= busiest.avg_load || local.avg_load >= sds_avg) return 0;
  return std::min((busiest.avg_load - sds_avg) * busiest.capacity, (sds_avg - local.avg_load) * local.capacity) /
         1024;
}

// find_busiest_queue(): the busiest group's CPU with the most load per
// capacity, skipping one whose lone thread is more than the imbalance.
std::uint32_t CpuScheduler::find_busiest_queue(const GroupStat& group, std::uint64_t imbalance) const {
  std::uint32_t best = kNoEntity;
  std::uint64_t best_load = 0;
  for (std::uint32_t o = group.first; o < group.first + group.weight; ++o) {
    const std::uint32_t n = cpus_[o]->rq.nr_running();
    const std::uint64_t load = 1024ull * n;
    if (n == 0 || (n == 1 && load > imbalance)) continue;
    const std::uint64_t scaled = load * 1024 / cpu_power(o);
    if (best == kNoEntity || scaled > best_load) {
      best = o;
      best_load = scaled;
    }
  }
  return best;
}

// detach_tasks() / move_tasks() then attach_tasks(): the queue's threads in
// rq->cfs_tasks order (cfs_tasks_scan()), at most loop_max =
// min(sysctl_sched_nr_migrate (32), nr_running) of them, up to the
// imbalance. A thread is passed over when can_migrate_task() refuses it or
// its load does not fit: the running one (task_running() / task_on_cpu()),
// a cache-hot one (task_hot(): it ran less than sysctl_sched_migration_cost
// ago) unless the domain has failed more than cache_nice_tries times (6.6's
// task_hot() returns 0 in a domain whose CPUs share capacity,
// SD_SHARE_CPUCAPACITY: SMT siblings share the cache, since v5.10; 3.13's
// has no such test), one whose load exceeds what is left (6.6: load >>
// nr_balance_failed, 3.13: load / 2). One passed over goes to the back of
// the walk (3.13 list_move_tail(), 6.6 list_move()): behind the threads this
// pass leaves unvisited, for the next. Each pass visits a thread at most
// once (every visit removes it or sends it behind the rest), so the walk is
// the order at the start. Each moved thread may preempt the one running on
// this CPU (check_preempt_curr()).
std::uint32_t CpuScheduler::detach_attach(std::uint32_t from, std::uint32_t to, std::uint64_t imbalance,
                                          const BalanceLevel& l, std::uint32_t failed) {
  const bool v66 = policy_->placement_since_6_6();
  std::vector<std::uint32_t> order = cfs_tasks_scan(from);
  if (order.size() > 32) order.resize(32);  // loop_max
  const sim::Time now = engine_.now();
  const sim::Time cost = sim::from_seconds_ceil(policy_->migration_cost_s);
  std::int64_t left = static_cast<std::int64_t>(imbalance);
  std::uint32_t moved = 0;
  for (std::uint32_t t : order) {
    if (left <= 0) break;
    if (!can_detach(t, from, l, failed, left, now, cost, v66)) {
      v66 ? to_cfs_tasks_head(t) : to_cfs_tasks_tail(t);  // goto next
      continue;
    }
    migrate(from, to, t);
    ++moved;
    ++balance_pulls_;
    left -= 1024;
    RunQueue& rq = cpus_[to]->rq;
    if (rq.curr != t && (take_resched(to) || policy_->wakeup_preempts(rq, entities_, t))) preempt_or_defer(to);
    rearm(to);
  }
  return moved;
}

// The tests detach_tasks() / move_tasks() make before taking a thread:
// can_migrate_task() (not running, not cache hot) and its load against what
// is left of the imbalance (NICE_0_LOAD).
bool CpuScheduler::can_detach(std::uint32_t t, std::uint32_t from, const BalanceLevel& l, std::uint32_t failed,
                              std::int64_t left, sim::Time now, sim::Time cost, bool v66) const {
  if (cpus_[from]->rq.curr == t) return false;
  const std::int64_t load = 1024;
  const std::int64_t counted = v66 ? (failed >= 63 ? 0 : load >> failed) : load / 2;
  if (counted > left) return false;
  const Thread& th = threads_[t];
  const bool hot = !(v66 && l.share_cpucapacity) && th.has_run && now - th.left_cpu_at < cost;
  return !hot || failed > l.cache_nice_tries;
}

// load_balance(CPU_NOT_IDLE) on one domain: balanced (out_balanced: the
// failure count is cleared, balance_interval doubles up to max_interval), or
// an imbalance whose pulls either succeed (nr_balance_failed = 0) or fail
// (nr_balance_failed + 1); either way balance_interval goes back to
// min_interval. The active balance (the busiest CPU's running thread pushed
// by its stopper) is not modelled: here a failure means every queued thread
// was cache hot or too heavy for the imbalance, and both tests give way once
// nr_balance_failed passes cache_nice_tries (6.6: the load shift); 3.13's
// need_active_balance() waits for cache_nice_tries + 2 failures, and 6.6's
// starts it on failures only for migrate_task, never for migrate_load.
void CpuScheduler::load_balance(std::uint32_t cpu, std::size_t level, bool& continue_balancing) {
  const BalanceLevel& l = levels_[level];
  DomainState& d = domain_state_[cpu * levels_.size() + level];
  GroupStat busiest;
  std::uint64_t imbalance = 0;
  std::uint32_t src = kNoEntity;
  if (!should_we_balance(cpu, l)) {
    continue_balancing = false;
  } else if (queued_total_ > 0) {
    // With no thread queued anywhere every queue holds at most its running
    // thread and the tests above find the domain balanced; skipped then.
    imbalance = find_busiest_group(cpu, l, busiest);
    if (imbalance > 0) src = find_busiest_queue(busiest, imbalance);
  }
  if (src == kNoEntity) {
    d.failed = 0;
    if (d.interval_ms < l.max_interval_ms) d.interval_ms *= 2;
    return;
  }
  const std::uint32_t moved =
      cpus_[src]->rq.nr_running() > 1 ? detach_attach(src, cpu, imbalance, l, d.failed) : 0;
  d.failed = moved ? 0 : d.failed + 1;
  d.interval_ms = l.min_interval_ms;
}

bool CpuScheduler::idle(std::uint32_t cpu) const { return !cpus_[cpu]->busy; }

// select_task_rq_fair() for a wake-up: wake_affine() when a thread on
// another CPU wakes it, then select_idle_sibling().
std::uint32_t CpuScheduler::select_cpu(std::uint32_t prev) const {
  std::uint32_t target = prev;
  if (waker_cpu_ != kNoEntity && waker_cpu_ != prev) target = wake_affine(waker_cpu_, prev, sync_depth_ > 0);
  return select_idle_sibling(prev, target);
}

// wake_affine(): the waker's CPU (this) or prev, by their loads. Loads are
// runnable threads now (NICE_0_LOAD each, the waker included), the woken
// one counted on this; WF_SYNC takes the waker's off.
std::uint32_t CpuScheduler::wake_affine(std::uint32_t this_cpu, std::uint32_t prev, bool sync) const {
  const bool v66 = policy_->placement_since_6_6();
  const double this_running = cpus_[this_cpu]->rq.nr_running();
  if (v66) {
    // wake_affine_idle() (6.6).
    if (sync && this_running == 1) return this_cpu;
    if (idle(prev)) return prev;
  }
  const bool same_core = first_of_core(this_cpu) == first_of_core(prev);
  // sd->imbalance_pct of the lowest domain spanning both CPUs.
  const double imbalance_pct = same_core ? 110 : (v66 ? 117 : 125);
  const double this_load = this_running - (sync ? 1 : 0);
  const double prev_load = cpus_[prev]->rq.nr_running();
  const double this_eff = 100 * (this_load + 1);
  const double prev_eff = (100 + (imbalance_pct - 100) / 2) * prev_load;
  if (v66) return (sync ? this_eff <= prev_eff : this_eff < prev_eff) ? this_cpu : prev;
  // 3.13: balanced, or this no busier than prev and both within one task's load.
  const bool balanced = this_load <= 0 || this_eff <= prev_eff;
  return balanced || (this_load <= prev_load && this_load + prev_load <= 1) ? this_cpu : prev;
}

std::uint32_t CpuScheduler::select_idle_sibling(std::uint32_t prev, std::uint32_t target) const {
  if (idle(target)) return target;
  if (prev != target && socket_of(prev) == socket_of(target) && idle(prev)) return prev;
  return policy_->placement_since_6_6() ? select_idle_sibling_66(prev, target)
                                        : select_idle_sibling_313(prev, target);
}

bool CpuScheduler::core_idle(std::uint32_t cpu) const {
  const std::uint32_t first = first_of_core(cpu);
  for (std::uint32_t s = 0; s < topology_.threads_per_core; ++s)
    if (!idle(first + s)) return false;
  return true;
}

std::uint32_t CpuScheduler::idle_smt_sibling(std::uint32_t cpu) const {
  const std::uint32_t first = first_of_core(cpu);
  for (std::uint32_t s = 0; s < topology_.threads_per_core; ++s)
    if (first + s != cpu && idle(first + s)) return first + s;
  return kNoEntity;
}

// 3.13: the MC domain's groups (cores) from target's own on, a fully idle
// one; then the SMT domain's (target's siblings), an idle one.
std::uint32_t CpuScheduler::select_idle_sibling_313(std::uint32_t, std::uint32_t target) const {
  const std::uint32_t smt = topology_.threads_per_core;
  const std::uint32_t cores = topology_.cores_per_socket;
  const std::uint32_t base = socket_base(target);
  const std::uint32_t own_core = (target - base) / smt;
  for (std::uint32_t k = 0; k < cores; ++k) {
    const std::uint32_t first = base + ((own_core + k) % cores) * smt;
    if (core_idle(first)) return first;
  }
  const std::uint32_t sib = idle_smt_sibling(target);
  return sib != kNoEntity ? sib : target;
}

// 6.6: without an idle core, prev's idle SMT sibling; then select_idle_cpu()
// from target on: an idle core, else the first idle CPU.
std::uint32_t CpuScheduler::select_idle_sibling_66(std::uint32_t prev, std::uint32_t target) const {
  const std::uint32_t smt = topology_.threads_per_core;
  const std::uint32_t per_socket = topology_.cores_per_socket * smt;
  const std::uint32_t base = socket_base(target);
  std::uint32_t idle_core = kNoEntity, idle_cpu = kNoEntity;
  for (std::uint32_t k = 1; k <= per_socket; ++k) {
    const std::uint32_t o = base + (target - base + k) % per_socket;
    if (!idle(o)) continue;
    if (idle_cpu == kNoEntity) idle_cpu = o;
    if (smt > 1 && idle_core == kNoEntity && core_idle(o)) idle_core = o;
  }
  if (smt > 1 && idle_core == kNoEntity && socket_of(prev) == socket_of(target)) {
    const std::uint32_t sib = idle_smt_sibling(prev);
    if (sib != kNoEntity) return sib;
  }
  if (idle_core != kNoEntity) return idle_core;
  return idle_cpu != kNoEntity ? idle_cpu : target;
}

std::uint32_t CpuScheduler::find_idle_cpu(std::uint32_t near) const {
  const std::uint32_t socket = socket_of(near);
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint32_t k = 1; k <= cpus(); ++k) {
      const std::uint32_t o = (near + k) % cpus();
      if ((socket_of(o) == socket) == (pass == 0) && idle(o)) return o;
    }
  return near;
}

sim::Time CpuScheduler::next_tick_after(sim::Time t, bool strict) const {
  sim::Time tick = (t / tick_) * tick_;
  if (tick < t || (strict && tick == t)) tick += tick_;
  return tick;
}

// The CPU's next event: its thread's burst ends, a tick reschedules, a tick
// balances waiting threads onto idle CPUs, or (now) a thread leaves.
void CpuScheduler::rearm(std::uint32_t cpu) {
  PerCpu& c = *cpus_[cpu];
  const sim::Time now = engine_.now();
  sim::Time at = sim::kNever;
  if (c.rq.curr != kNoEntity) {
    const Thread& t = threads_[c.rq.curr];
    if (!t.has_burst || c.need_resched) {
      at = now;
    } else {
      at = sim::later(c.since, sim::from_seconds_ceil(std::max(t.left, 0.0)));
      const double left = policy_->run_left(c.rq, entities_);
      if (std::isfinite(left)) {
        const sim::Time due = left > 0 ? sim::later(c.since, sim::from_seconds_ceil(left)) : now;
        const sim::Time tick = next_tick_after(std::max(due, now), policy_->strict_at_tick() || due <= now);
        at = std::min(at, std::max(tick, next_tick_after(now, true)));
      }
      if (c.resched_deferred) at = std::min(at, next_point_at(cpu));
    }
  }
  if (!c.rq.queued.empty() && idle_cpus_ > 0) at = std::min(at, next_tick_after(now, true));
  // A thread leaving the CPU (at == now) gets an event of its own, after
  // whatever else was scheduled for this instant (the next turn of its loop).
  if (at == sim::kNever || (at != now && c.armed_at >= now && c.armed_at <= at)) return;
  c.armed_at = at;
  engine_.schedule_at(at, &c, ++c.generation);
}

std::unique_ptr<Cpu> make_cpu(sim::Engine& engine, const SchedSpec& spec, const CpuTopology& topology,
                              std::uint32_t cpus, TaskStates& tasks) {
  std::unique_ptr<FairPolicy> policy = make_fair_policy(spec, cpus);
  if (!policy) return std::make_unique<ProcessorSharingCpu>(engine, cpus);
  CpuTopology topo = topology;
  if (topo.cpus() != cpus) topo = CpuTopology{1, cpus, 1};  // no topology given: one socket, no SMT
  auto cpu = std::make_unique<CpuScheduler>(engine, std::move(policy), topo, &tasks);
  cpu->set_preempt(spec.preempt);
  return cpu;
}

}  // namespace models
