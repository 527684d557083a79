#include "models/os/task_states.h"

#include <algorithm>

namespace models {

std::uint32_t TaskStates::add_task(sim::Time now, std::uint32_t group, TaskState initial) {
  if (by_group_.empty()) by_group_.resize(std::size_t{groups_} * 3);
  tasks_.push_back(Task{group, initial});
  by_group_[group * 3 + static_cast<int>(initial)].add(now, 1);
  ++count_[static_cast<int>(initial)];
  update_totals(now);
  return static_cast<std::uint32_t>(tasks_.size() - 1);
}

void TaskStates::set(sim::Time now, std::uint32_t task, TaskState state) {
  Task& t = tasks_[task];
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

double TaskStates::group_mean(std::uint32_t group, TaskState state, sim::Time from, sim::Time now) const {
  if (by_group_.empty()) return 0;
  return by_group_[group * 3 + static_cast<int>(state)].mean(from, now);
}

}  // namespace models
