#include "models/os/task_states.h"

#include <algorithm>

namespace models {

const char* wait_cause_key(WaitCause cause) {
  switch (cause) {
    case WaitCause::kDiskData: return "disk_data";
    case WaitCause::kDiskMetadata: return "disk_metadata";
    case WaitCause::kReclaim: return "reclaim";
    case WaitCause::kRequestSlot: return "request_slot";
    case WaitCause::kNone:
    case WaitCause::kCount: break;
  }
  return "other";
}

std::uint32_t TaskStates::add_task(sim::Time now, std::uint32_t group, TaskState initial) {
  if (by_group_.empty()) {
    by_group_.resize(std::size_t{groups_} * 3);
    by_cause_.resize(std::size_t{groups_} * kWaitCauses);
  }
  tasks_.push_back(Task{group, initial, WaitCause::kNone});
  if (initial == TaskState::kDiskWait) by_cause(group, WaitCause::kNone).add(now, 1);
  by_group_[group * 3 + static_cast<int>(initial)].add(now, 1);
  ++count_[static_cast<int>(initial)];
  update_totals(now);
  return static_cast<std::uint32_t>(tasks_.size() - 1);
}

void TaskStates::set(sim::Time now, std::uint32_t task, TaskState state, WaitCause cause) {
  Task& t = tasks_[task];
  if (state != TaskState::kDiskWait) cause = WaitCause::kNone;
  t.after_slot = cause;
  if (t.slot_asleep && state == TaskState::kDiskWait) cause = WaitCause::kRequestSlot;
  const bool was_waiting = t.state == TaskState::kDiskWait, waits = state == TaskState::kDiskWait;
  const bool cause_changes = !was_waiting || !waits || t.cause != cause;
  if (was_waiting && cause_changes) by_cause(t.group, t.cause).add(now, -1);
  if (waits && cause_changes) by_cause(t.group, cause).add(now, 1);
  t.cause = cause;
  if (t.state == state) return;
  by_group_[t.group * 3 + static_cast<int>(t.state)].add(now, -1);
  --count_[static_cast<int>(t.state)];
  if (per_cpu_ && t.cpu != UINT32_MAX) {
    if (t.state == TaskState::kDiskWait) count_iowait(t.cpu, -1);
    if (state == TaskState::kDiskWait) count_iowait(t.cpu, +1);
  }
  t.state = state;
  by_group_[t.group * 3 + static_cast<int>(state)].add(now, 1);
  ++count_[static_cast<int>(state)];
  update_totals(now);
}

void TaskStates::count_cause(sim::Time now, Task& t, WaitCause cause) {
  if (t.state != TaskState::kDiskWait || t.cause == cause) return;
  by_cause(t.group, t.cause).add(now, -1);
  by_cause(t.group, cause).add(now, 1);
  t.cause = cause;
}

void TaskStates::slot_wait(sim::Time now, std::uint32_t task, bool asleep) {
  Task& t = tasks_[task];
  if (t.slot_asleep == asleep) return;
  t.slot_asleep = asleep;
  count_cause(now, t, asleep ? WaitCause::kRequestSlot : t.after_slot);
}

void TaskStates::update_totals(sim::Time now) {
  if (per_cpu_) {
    busy_.set(now, busy_cpus_);
    iowait_.set(now, static_cast<double>(iowait_cpus_) / cpus_);
    return;
  }
  const std::uint32_t busy = std::min(count_[0], cpus_);
  const std::uint32_t idle = cpus_ - busy;
  busy_.set(now, busy);
  iowait_.set(now, static_cast<double>(std::min(count_[2], idle)) / cpus_);
}

void TaskStates::use_per_cpu() {
  per_cpu_ = true;
  per_cpu_state_.assign(cpus_, PerCpu{});
  cpu_wait_.assign(groups_, sim::TimeAverage{});
}

void TaskStates::count_iowait(std::uint32_t cpu, int delta) {
  PerCpu& c = per_cpu_state_[cpu];
  const bool before = in_iowait(c);
  c.nr_iowait = static_cast<std::uint32_t>(static_cast<int>(c.nr_iowait) + delta);
  iowait_cpus_ = iowait_cpus_ - before + in_iowait(c);
}

void TaskStates::set_cpu(sim::Time now, std::uint32_t task, std::uint32_t cpu) {
  Task& t = tasks_[task];
  if (t.cpu == cpu) return;
  if (t.state == TaskState::kDiskWait && t.cpu != UINT32_MAX) count_iowait(t.cpu, -1);
  t.cpu = cpu;
  if (t.state == TaskState::kDiskWait) count_iowait(cpu, +1);
  update_totals(now);
}

void TaskStates::set_cpu_busy(sim::Time now, std::uint32_t cpu, bool busy) {
  PerCpu& c = per_cpu_state_[cpu];
  if (c.busy == busy) return;
  const bool before = in_iowait(c);
  c.busy = busy;
  busy_cpus_ = busy ? busy_cpus_ + 1 : busy_cpus_ - 1;
  iowait_cpus_ = iowait_cpus_ - before + in_iowait(c);
  update_totals(now);
}

void TaskStates::set_cpu_wait(sim::Time now, std::uint32_t task, bool waiting) {
  Task& t = tasks_[task];
  if (t.cpu_wait == waiting) return;
  t.cpu_wait = waiting;
  if (waiting)
    t.cpu_wait_since = now;
  else
    t.cpu_waited_s += sim::to_seconds(now - t.cpu_wait_since);
  cpu_wait_[t.group].add(now, waiting ? 1 : -1);
}

double TaskStates::group_cause_mean(std::uint32_t group, WaitCause cause, sim::Time from, sim::Time now) const {
  if (by_cause_.empty()) return 0;
  return by_cause_[group * kWaitCauses + static_cast<std::size_t>(cause)].mean(from, now);
}

double TaskStates::group_mean(std::uint32_t group, TaskState state, sim::Time from, sim::Time now) const {
  if (by_group_.empty()) return 0;
  return by_group_[group * 3 + static_cast<int>(state)].mean(from, now);
}

void TaskStates::restart(sim::Time now) {
  for (auto* v : {&by_group_, &by_cause_, &cpu_wait_})
    for (sim::TimeAverage& a : *v) a.restart(now);
  iowait_.restart(now);
  busy_.restart(now);
}

}  // namespace models
