#include "models/os/cpu_scheduler.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace models {

namespace {
// A burst with less than this left is done (sums of doubles).
constexpr double kDone = 1e-10;
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
  sim::Time irq_until = 0;    // interrupt work runs until here; no thread runs before (since >= irq_until)
  IrqLine irq;
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
  if (t.state == State::kRunning) {
    // Its last burst ended at this instant: it keeps the CPU.
    rearm(t.cpu);
    return;
  }
  wake(thread);
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
  if (c.rq.curr != kNoEntity && threads_[c.rq.curr].has_burst &&
      (take_resched(cpu) || (at_tick && policy_->tick_preempts(c.rq, entities_))))
    reschedule(cpu);
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
    reschedule(cpu);
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
  t.state = State::kQueued;
  t.cpu = cpu;
  if (tasks_ && t.task != kNoTask) tasks_->set_cpu(engine_.now(), t.task, cpu);
  set_waiting(thread, true);
}

// schedule() on a CPU whose running thread may lose it: the policy picks.
void CpuScheduler::reschedule(std::uint32_t cpu) {
  cpus_[cpu]->need_resched = false;
  RunQueue& rq = cpus_[cpu]->rq;
  const std::uint32_t prev = rq.curr;
  if (prev != kNoEntity && !threads_[prev].has_burst) {
    put_to_sleep(cpu);  // leaving anyway
    return;
  }
  const std::uint32_t next = policy_->pick(rq, entities_);
  if (next == kNoEntity) return;
  if (next == prev) {
    policy_->picked(entities_, prev);
    return;
  }
  if (prev != kNoEntity) {
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
  policy_->leave(c.rq, entities_, prev);
  c.rq.curr = kNoEntity;
  threads_[prev].state = State::kSleeping;
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
  t.state = State::kRunning;
  t.cpu = cpu;
  policy_->picked(entities_, thread);
  set_waiting(thread, false);
  ++switches_;
  if (!c.busy) {
    c.busy = true;
    --idle_cpus_;
    report_busy(cpu);
  }
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
  return std::make_unique<CpuScheduler>(engine, std::move(policy), topo, &tasks);
}

}  // namespace models
