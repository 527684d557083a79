#include "models/os/sched_policy.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

namespace models {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The queued entity with the smallest vruntime, the first of equals
// (__pick_first_entity(): equal keys go right in the rb-tree, so the earlier
// one is leftmost).
std::uint32_t leftmost(const RunQueue& rq, const std::vector<SchedEntity>& es) {
  std::uint32_t best = kNoEntity;
  for (std::uint32_t e : rq.queued)
    if (best == kNoEntity || es[e].vruntime < es[best].vruntime) best = e;
  return best;
}

// CFS, Linux 3.13 (and, re-picking, 3.15 to 6.5: SchedSpec::repick_keeps_slice).
class Cfs final : public FairPolicy {
 public:
  Cfs(const SchedSpec& s, double factor)
      : FairPolicy(1.0 / s.hz),
        latency_(s.latency_s * factor),
        min_granularity_(s.min_granularity_s * factor),
        wakeup_granularity_(s.wakeup_granularity_s * factor),
        nr_latency_(s.nr_latency),
        repick_keeps_slice_(s.repick_keeps_slice) {}

  bool charge(RunQueue& rq, std::vector<SchedEntity>& es, double delta) const override {
    SchedEntity& c = es[rq.curr];
    c.vruntime += delta;
    c.sum_exec += delta;
    update_min_vruntime(rq, es);
    return false;
  }
  // The entity keeps its vruntime while away.
  void leave(const RunQueue&, std::vector<SchedEntity>&, std::uint32_t) const override {}
  void place(const RunQueue& rq, const RunQueue& from, std::vector<SchedEntity>& es, std::uint32_t e,
             bool woken) const override {
    SchedEntity& s = es[e];
    s.vruntime += rq.min_vruntime - from.min_vruntime;
    // place_entity(initial = 0): the sleeper credit, halved by GENTLE_FAIR_SLEEPERS.
    if (woken) s.vruntime = std::max(s.vruntime, rq.min_vruntime - latency_ / 2);
  }
  // pick_next_entity(): the leftmost; the running entity is put back first
  // (put_prev_entity()) and goes right of equal keys.
  std::uint32_t pick(const RunQueue& rq, const std::vector<SchedEntity>& es) const override {
    const std::uint32_t left = leftmost(rq, es);
    if (rq.curr == kNoEntity) return left;
    if (left == kNoEntity || es[rq.curr].vruntime < es[left].vruntime) return rq.curr;
    return left;
  }
  void picked(std::vector<SchedEntity>& es, std::uint32_t e) const override { es[e].sum_exec = 0; }
  // 3.13's __schedule(): put_prev_task(), then set_next_entity() on the same
  // entity, a new slice. 3.15 on (678d5718d8d0), with group scheduling,
  // pick_next_task_fair() skips set_next_entity() when prev == p: the slice
  // goes on.
  void picked_again(std::vector<SchedEntity>& es, std::uint32_t e) const override {
    if (!repick_keeps_slice_) picked(es, e);
  }
  // wakeup_preempt_entity() == 1: vdiff = curr - woken > wakeup_gran (in the
  // woken entity's virtual time, the same at nice 0).
  bool wakeup_preempts(const RunQueue& rq, const std::vector<SchedEntity>& es, std::uint32_t e) const override {
    if (rq.curr == kNoEntity) return true;
    return es[rq.curr].vruntime - es[e].vruntime > wakeup_granularity_;
  }
  double run_left(const RunQueue& rq, const std::vector<SchedEntity>& es) const override {
    if (rq.curr == kNoEntity || rq.queued.empty()) return kInfinity;
    const SchedEntity& c = es[rq.curr];
    const double ideal = slice(rq.nr_running());
    const double by_slice = ideal - c.sum_exec;
    const double by_lead = std::max(min_granularity_ - c.sum_exec,
                                    es[leftmost(rq, es)].vruntime + ideal - c.vruntime);
    return std::min(by_slice, by_lead);
  }
  // check_preempt_tick().
  bool tick_preempts(const RunQueue& rq, const std::vector<SchedEntity>& es) const override {
    if (rq.curr == kNoEntity || rq.queued.empty()) return false;
    const SchedEntity& c = es[rq.curr];
    const double ideal = slice(rq.nr_running());
    if (c.sum_exec > ideal) return true;
    if (c.sum_exec < min_granularity_) return false;
    const double delta = c.vruntime - es[leftmost(rq, es)].vruntime;
    return delta > ideal;
  }
  bool strict_at_tick() const override { return true; }
  bool placement_since_6_6() const override { return false; }

  // sched_slice() at nice 0: __sched_period(nr) / nr.
  double slice(std::uint32_t nr) const {
    const double period = nr > nr_latency_ ? nr * min_granularity_ : latency_;
    return period / nr;
  }

 private:
  double latency_;
  double min_granularity_;
  double wakeup_granularity_;
  std::uint32_t nr_latency_;
  bool repick_keeps_slice_;
};

// EEVDF, Linux 6.6.
class Eevdf final : public FairPolicy {
 public:
  Eevdf(const SchedSpec& s, double factor) : FairPolicy(1.0 / s.hz), slice_(s.base_slice_s * factor) {}

  bool charge(RunQueue& rq, std::vector<SchedEntity>& es, double delta) const override {
    SchedEntity& c = es[rq.curr];
    c.vruntime += delta;
    c.sum_exec += delta;
    update_min_vruntime(rq, es);
    // update_deadline(): a new slice once the deadline is reached, and a
    // reschedule if anyone else is runnable.
    if (c.vruntime < c.deadline) return false;
    c.deadline = c.vruntime + slice_;
    c.picked_to_parity = false;
    return rq.nr_running() > 1;
  }
  // update_entity_lag(): vlag = V - v, clamped to +-max(2 * slice, TICK_NSEC).
  void leave(const RunQueue& rq, std::vector<SchedEntity>& es, std::uint32_t e) const override {
    const double limit = std::max(2 * slice_, tick_s());
    es[e].vlag = std::clamp(avg_vruntime(rq, es) - es[e].vruntime, -limit, limit);
    es[e].picked_to_parity = false;
  }
  // place_entity() with PLACE_LAG: the lag is inflated by (W + w) / W so
  // that it survives the entity's own effect on V.
  void place(const RunQueue& rq, const RunQueue&, std::vector<SchedEntity>& es, std::uint32_t e,
             bool) const override {
    SchedEntity& s = es[e];
    double lag = 0;
    const std::uint32_t n = rq.nr_running();
    if (n > 0) lag = s.vlag * static_cast<double>(n + 1) / static_cast<double>(n);
    s.vruntime = avg_vruntime(rq, es) - lag;
    s.deadline = s.vruntime + slice_;
  }
  // pick_eevdf().
  std::uint32_t pick(const RunQueue& rq, const std::vector<SchedEntity>& es) const override {
    const double v_avg = avg_vruntime(rq, es);
    std::uint32_t curr = rq.curr;
    if (curr != kNoEntity && !(v_avg >= es[curr].vruntime)) curr = kNoEntity;
    if (curr != kNoEntity && es[curr].picked_to_parity) return curr;  // RUN_TO_PARITY
    std::uint32_t best = kNoEntity;
    for (std::uint32_t e : rq.queued) {
      if (!(v_avg >= es[e].vruntime)) continue;
      if (best == kNoEntity || es[e].deadline < es[best].deadline) best = e;
    }
    if (best == kNoEntity || (curr != kNoEntity && es[best].deadline > es[curr].deadline)) best = curr;
    // Some entity is always eligible (the smallest vruntime is at or below the
    // mean); rounding aside, fall back to the leftmost as the kernel does.
    if (best == kNoEntity) best = leftmost(rq, es);
    if (best == kNoEntity) best = rq.curr;
    return best;
  }
  // set_next_entity(): se->vlag = se->deadline marks "run to parity".
  void picked(std::vector<SchedEntity>& es, std::uint32_t e) const override {
    es[e].sum_exec = 0;
    es[e].picked_to_parity = true;
  }
  // 6.6's pick_next_task_fair(): prev picked again is not set anew (`if (prev != p)`).
  void picked_again(std::vector<SchedEntity>&, std::uint32_t) const override {}
  // check_preempt_wakeup(): preempt when pick_eevdf() picks the woken entity.
  bool wakeup_preempts(const RunQueue& rq, const std::vector<SchedEntity>& es, std::uint32_t e) const override {
    return pick(rq, es) == e;
  }
  double run_left(const RunQueue& rq, const std::vector<SchedEntity>& es) const override {
    if (rq.curr == kNoEntity || rq.queued.empty()) return kInfinity;
    return es[rq.curr].deadline - es[rq.curr].vruntime;
  }
  bool tick_preempts(const RunQueue&, const std::vector<SchedEntity>&) const override { return false; }
  bool strict_at_tick() const override { return false; }
  bool placement_since_6_6() const override { return true; }

  // avg_vruntime(): the mean vruntime of the queued and the running entity
  // (equal weights), min_vruntime when there is none.
  static double avg_vruntime(const RunQueue& rq, const std::vector<SchedEntity>& es) {
    double sum = 0;
    std::uint32_t n = 0;
    for (std::uint32_t e : rq.queued) {
      sum += es[e].vruntime - rq.min_vruntime;
      ++n;
    }
    if (rq.curr != kNoEntity) {
      sum += es[rq.curr].vruntime - rq.min_vruntime;
      ++n;
    }
    return n == 0 ? rq.min_vruntime : rq.min_vruntime + sum / n;
  }

 private:
  double slice_;
};

}  // namespace

std::uint32_t sched_scale_factor(std::uint32_t cpus, bool log_scaling) {
  if (!log_scaling) return 1;
  const std::uint32_t c = std::clamp<std::uint32_t>(cpus, 1, 8);
  return 1 + static_cast<std::uint32_t>(std::bit_width(c) - 1);  // 1 + ilog2(c)
}

void FairPolicy::update_min_vruntime(RunQueue& rq, const std::vector<SchedEntity>& es) {
  double v = kInfinity;
  if (rq.curr != kNoEntity) v = es[rq.curr].vruntime;
  for (std::uint32_t e : rq.queued) v = std::min(v, es[e].vruntime);
  if (v != kInfinity) rq.min_vruntime = std::max(rq.min_vruntime, v);
}

const char* sched_policy_names() { return "\"cfs\", \"eevdf\" or \"processor-sharing\""; }

bool sched_policy_known(const std::string& name) {
  return name == "cfs" || name == "eevdf" || name == "processor-sharing";
}

std::vector<BalanceLevel> balance_levels(bool since_6_6, std::uint32_t threads_per_core,
                                         std::uint32_t cores_per_socket, std::uint32_t sockets) {
  const std::uint32_t smt = std::max<std::uint32_t>(threads_per_core, 1);
  const std::uint32_t socket = smt * std::max<std::uint32_t>(cores_per_socket, 1);
  const std::uint32_t all = socket * std::max<std::uint32_t>(sockets, 1);
  std::vector<BalanceLevel> levels;
  auto add = [&](std::uint32_t span, std::uint32_t group, std::uint32_t pct_613, std::uint32_t pct_66,
                 std::uint32_t tries, bool numa, bool smt_level) {
    if (span <= group) return;  // one group: sd_degenerate()
    BalanceLevel l;
    l.span = span;
    l.group = group;
    l.imbalance_pct = since_6_6 ? pct_66 : pct_613;
    l.cache_nice_tries = tries;
    if (since_6_6 || numa) {
      l.min_interval_ms = span;      // sd_init() / sd_numa_init(): sd_weight
      l.max_interval_ms = 2 * span;  // 2 * sd_weight
      l.busy_factor = since_6_6 ? 16 : 32;
    } else {
      l.min_interval_ms = 1;
      l.max_interval_ms = smt_level ? 2 : 4;
      l.busy_factor = 64;
    }
    // 3.13: an SMT thread's cpu_power is smt_gain / weight (update_cpu_power()).
    l.smt_power = (!since_6_6 && smt > 1) ? 1178 / smt : 1024;
    l.share_cpucapacity = smt_level;  // SD_SHARE_CPUCAPACITY (SD_SHARE_CPUPOWER in 3.13)
    levels.push_back(l);
  };
  add(smt, 1, 110, 110, 0, false, true);             // SMT
  add(socket, smt, 125, 117, 1, false, false);       // MC
  add(all, socket, 125, 117, 2, true, false);        // NUMA (between sockets)
  return levels;
}

std::unique_ptr<FairPolicy> make_fair_policy(const SchedSpec& spec, std::uint32_t cpus) {
  const double factor = sched_scale_factor(cpus, spec.tunable_scaling_log);
  std::unique_ptr<FairPolicy> p;
  if (spec.policy == "cfs") p = std::make_unique<Cfs>(spec, factor);
  if (spec.policy == "eevdf") p = std::make_unique<Eevdf>(spec, factor);
  if (p) {
    p->periodic_balance = spec.periodic_balance;
    p->migration_cost_s = spec.migration_cost_s;
    return p;
  }
  if (spec.policy == "processor-sharing") return nullptr;
  throw std::invalid_argument("unknown scheduler \"" + spec.policy + "\": expected " + sched_policy_names());
}

}  // namespace models
