// Process states as top shows them: R (running or runnable), S (sleeping,
// here in epoll_wait or waiting for work) and D (uninterruptible disk wait),
// with the time each task spends in each. iowait is counted as the kernel
// does: CPU time that is idle while some task waits for disk, i.e.
// min(tasks in D, idle CPUs) / CPUs.
//
// top shows only D; the kernel's wait channel (/proc/PID/wchan) tells why a
// task sleeps there. Each D carries a WaitCause, so that blocked time can be
// broken down as `clerk realrun` attributes a real task's wait channels:
// file data (wait_on_page_bit in filemap), metadata (__wait_on_buffer under
// ext4 and the path walk), memory reclaim (shrink_* in direct reclaim), a
// request slot (get_request, blk_mq_get_tag).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/time_average.h"

namespace models {

enum class TaskState : std::uint8_t { kRunning = 0, kSleeping = 1, kDiskWait = 2 };

// Why a task is in D. New causes go at the end, before the count.
enum class WaitCause : std::uint8_t { kNone = 0, kDiskData, kDiskMetadata, kReclaim, kRequestSlot, kCount };
inline constexpr std::size_t kWaitCauses = static_cast<std::size_t>(WaitCause::kCount);
// The JSON key of a cause: "other", "disk_data", "disk_metadata", "reclaim", "request_slot".
const char* wait_cause_key(WaitCause cause);

class TaskStates {
 public:
  TaskStates(std::uint32_t cpus, std::uint32_t groups) : cpus_(cpus), groups_(groups) {}

  // A task belongs to a group (a worker's main thread, a worker's pool...).
  std::uint32_t add_task(sim::Time now, std::uint32_t group, TaskState initial);
  // `cause` says why a task in D waits (kNone for the other states).
  void set(sim::Time now, std::uint32_t task, TaskState state, WaitCause cause = WaitCause::kNone);
  TaskState state(std::uint32_t task) const { return tasks_[task].state; }
  WaitCause cause(std::uint32_t task) const { return tasks_[task].cause; }

  // Mean number of the group's tasks in `state` over [from, now].
  double group_mean(std::uint32_t group, TaskState state, sim::Time from, sim::Time now) const;
  // Mean number of the group's tasks in D for `cause` over [from, now].
  double group_cause_mean(std::uint32_t group, WaitCause cause, sim::Time from, sim::Time now) const;
  double iowait_fraction(sim::Time from, sim::Time now) const { return iowait_.mean(from, now); }
  double busy_cpus_mean(sim::Time from, sim::Time now) const { return busy_.mean(from, now); }
  std::uint32_t cpus() const { return cpus_; }
  // How many of the group's tasks are in `state` now.
  double group_now(std::uint32_t group, TaskState state) const {
    return by_group_.empty() ? 0 : by_group_[group * 3 + static_cast<int>(state)].value();
  }
  // The group's time in `state` since the start, in task-seconds.
  double group_integral(std::uint32_t group, TaskState state, sim::Time now) const {
    return by_group_.empty() ? 0 : by_group_[group * 3 + static_cast<int>(state)].integral(now);
  }

 private:
  struct Task {
    std::uint32_t group;
    TaskState state;
    WaitCause cause;
  };
  void update_totals(sim::Time now);
  sim::TimeAverage& by_cause(std::uint32_t group, WaitCause cause) {
    return by_cause_[group * kWaitCauses + static_cast<std::size_t>(cause)];
  }

  std::uint32_t cpus_;
  std::uint32_t groups_;
  std::vector<Task> tasks_;
  std::vector<sim::TimeAverage> by_group_;  // groups x 3 states
  std::vector<sim::TimeAverage> by_cause_;  // groups x kWaitCauses, tasks in D only
  std::uint32_t count_[3] = {0, 0, 0};
  sim::TimeAverage iowait_;
  sim::TimeAverage busy_;
};

}  // namespace models
