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
  const bool was_waiting = t.state == TaskState::kDiskWait, waits = state == TaskState::kDiskWait;
  const bool cause_changes = !was_waiting || !waits || t.cause != cause;
  if (was_waiting && cause_changes) by_cause(t.group, t.cause).add(now, -1);
  if (waits && cause_changes) by_cause(t.group, cause).add(now, 1);
  t.cause = cause;
  if (t.state == state) return;
  by_group_[t.group * 3 + static_cast<int>(t.state)].add(now, -1);
  --count_[static_cast<int>(t.state)];
  t.state = state;
  by_group_[t.group * 3 + static_cast<int>(state)].add(now, 1);
  ++count_[static_cast<int>(state)];
  update_totals(now);
}

void TaskStates::update_totals(sim::Time now) {
  const std::uint32_t busy = std::min(count_[0], cpus_);
  const std::uint32_t idle = cpus_ - busy;
  busy_.set(now, busy);
  iowait_.set(now, static_cast<double>(std::min(count_[2], idle)) / cpus_);
}

double TaskStates::group_cause_mean(std::uint32_t group, WaitCause cause, sim::Time from, sim::Time now) const {
  if (by_cause_.empty()) return 0;
  return by_cause_[group * kWaitCauses + static_cast<std::size_t>(cause)].mean(from, now);
}

double TaskStates::group_mean(std::uint32_t group, TaskState state, sim::Time from, sim::Time now) const {
  if (by_group_.empty()) return 0;
  return by_group_[group * 3 + static_cast<int>(state)].mean(from, now);
}

}  // namespace models
