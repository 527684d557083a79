// Process states as top shows them: R (running or runnable), S (sleeping,
// here in epoll_wait or waiting for work) and D (uninterruptible disk wait),
// with the time each task spends in each. iowait: with processor sharing,
// CPU time that is idle while some task waits for disk, i.e.
// min(tasks in D, idle CPUs) / CPUs. With a scheduler (use_per_cpu()), as the
// kernel counts it: a CPU is in iowait while it is idle and its run queue's
// nr_iowait > 0, i.e. a task that last ran on it sleeps in D (io_schedule()
// raises rq->nr_iowait of the task's CPU, try_to_wake_up() lowers it;
// kernel/sched/cputime.c account_idle_time()). The scheduler also reports
// the time each task spends runnable but waiting for a CPU (part of R).
//
// top shows only D; the kernel's wait channel (/proc/PID/wchan) tells why a
// task sleeps there. Each D carries a WaitCause, so that blocked time can be
// broken down as `clerk realrun` attributes a real task's wait channels:
// file data (wait_on_page_bit in filemap), metadata (__wait_on_buffer under
// ext4 and the path walk), memory reclaim (shrink_* in direct reclaim), a
// request slot (get_request, blk_mq_get_tag).
//
// A request-slot sleep comes from the block layer (block_queue.h) while the
// task is inside submit_bio: the model's task goes on to wait for its pages
// (D, disk data) at once, but until its batch wake-up the kernel's task is
// still asleep in get_request(), so its D is counted as kRequestSlot until
// the wake-up and as the cause it waits for after it. A task that the
// model runs (R) meanwhile is left R: only the cause of a D is overridden.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/time_average.h"

namespace models {

enum class TaskState : std::uint8_t { kRunning = 0, kSleeping = 1, kDiskWait = 2 };

// Why a task is in D. New causes go at the end, before the count.
enum class WaitCause : std::uint8_t { kNone = 0, kDiskData, kDiskMetadata, kReclaim, kRequestSlot, kCount };
inline constexpr std::size_t kWaitCauses = static_cast<std::size_t>(WaitCause::kCount);
// The JSON key of a cause: "other", "disk_data", "disk_metadata", "reclaim", "request_slot".
const char* wait_cause_key(WaitCause cause);

class TaskStates final : public SlotWaitListener {
 public:
  TaskStates(std::uint32_t cpus, std::uint32_t groups) : cpus_(cpus), groups_(groups) {}

  // A task belongs to a group (a worker's main thread, a worker's pool...).
  std::uint32_t add_task(sim::Time now, std::uint32_t group, TaskState initial);
  // `cause` says why a task in D waits (kNone for the other states).
  void set(sim::Time now, std::uint32_t task, TaskState state, WaitCause cause = WaitCause::kNone);
  TaskState state(std::uint32_t task) const { return tasks_[task].state; }
  WaitCause cause(std::uint32_t task) const { return tasks_[task].cause; }
  // The block layer: `task` begins (asleep) or ends a sleep for a request slot.
  void slot_wait(sim::Time now, std::uint32_t task, bool asleep) override;

  // Every time average counts from `now` on (the measured window begins);
  // the tasks keep their states. Means are then taken over [now, later].
  void restart(sim::Time now);
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
  // A scheduler with run queues (CpuScheduler) reports per CPU from now on.
  void use_per_cpu();
  // The CPU `task` runs on or last ran on (whose nr_iowait it raises in D).
  void set_cpu(sim::Time now, std::uint32_t task, std::uint32_t cpu);
  // The CPU set_cpu() last named for `task`; UINT32_MAX if none yet.
  std::uint32_t cpu_of(std::uint32_t task) const { return tasks_[task].cpu; }
  void set_cpu_busy(sim::Time now, std::uint32_t cpu, bool busy);
  // `task` is runnable and waits for a CPU (or no longer does).
  void set_cpu_wait(sim::Time now, std::uint32_t task, bool waiting);
  // The group's time waiting for a CPU since the start, in task-seconds, and its mean over [from, now].
  double group_cpu_wait_integral(std::uint32_t group, sim::Time now) const {
    return cpu_wait_.empty() ? 0 : cpu_wait_[group].integral(now);
  }
  double group_cpu_wait_mean(std::uint32_t group, sim::Time from, sim::Time now) const {
    return cpu_wait_.empty() ? 0 : cpu_wait_[group].mean(from, now);
  }
  // One task's time waiting for a CPU since the start, in seconds (0 with
  // processor sharing): what splits a request's CPU stage (request_stages.h).
  double task_cpu_wait_s(std::uint32_t task, sim::Time now) const {
    const Task& t = tasks_[task];
    return t.cpu_waited_s + (t.cpu_wait ? sim::to_seconds(now - t.cpu_wait_since) : 0.0);
  }
  bool per_cpu() const { return per_cpu_; }
  // The group's time in `state` since the start, in task-seconds.
  double group_integral(std::uint32_t group, TaskState state, sim::Time now) const {
    return by_group_.empty() ? 0 : by_group_[group * 3 + static_cast<int>(state)].integral(now);
  }

 private:
  struct Task {
    std::uint32_t group;
    TaskState state;
    WaitCause cause;
    std::uint32_t cpu = UINT32_MAX;
    bool cpu_wait = false;
    bool slot_asleep = false;             // in get_request()/blk_mq_get_tag()
    WaitCause after_slot = WaitCause::kNone;  // the D cause once woken
    sim::Time cpu_wait_since = 0;
    double cpu_waited_s = 0;  // before cpu_wait_since
  };
  void count_cause(sim::Time now, Task& t, WaitCause cause);
  struct PerCpu {
    bool busy = false;
    std::uint32_t nr_iowait = 0;
  };
  void update_totals(sim::Time now);
  void count_iowait(std::uint32_t cpu, int delta);
  bool in_iowait(const PerCpu& c) const { return !c.busy && c.nr_iowait > 0; }
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
  // With a scheduler:
  bool per_cpu_ = false;
  std::vector<PerCpu> per_cpu_state_;
  std::uint32_t busy_cpus_ = 0;
  std::uint32_t iowait_cpus_ = 0;
  std::vector<sim::TimeAverage> cpu_wait_;  // per group
};

}  // namespace models
