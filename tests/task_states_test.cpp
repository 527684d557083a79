// top's task states: time in each state, iowait as min(D, idle CPUs), and
// the breakdown of D by cause, against hand-worked timelines.
#include <catch2/catch.hpp>

#include "models/os/task_states.h"

namespace {

using models::TaskState;
using models::TaskStates;
using models::WaitCause;

constexpr sim::Time kSecond = 1'000'000'000;

TEST_CASE("time in D is split by cause and sums to the time in D") {
  TaskStates tasks(2, 1);
  const std::uint32_t t = tasks.add_task(0, 0, TaskState::kRunning);
  tasks.set(1 * kSecond, t, TaskState::kDiskWait, WaitCause::kDiskMetadata);   // 1 s metadata
  tasks.set(2 * kSecond, t, TaskState::kDiskWait, WaitCause::kDiskData);       // then 2 s data
  tasks.set(4 * kSecond, t, TaskState::kRunning);
  tasks.set(5 * kSecond, t, TaskState::kDiskWait, WaitCause::kDiskData);       // 1 s more data
  tasks.set(6 * kSecond, t, TaskState::kSleeping);
  const sim::Time end = 10 * kSecond;
  CHECK(tasks.group_cause_mean(0, WaitCause::kDiskMetadata, 0, end) == Approx(0.1));
  CHECK(tasks.group_cause_mean(0, WaitCause::kDiskData, 0, end) == Approx(0.3));
  CHECK(tasks.group_cause_mean(0, WaitCause::kNone, 0, end) == Approx(0.0));
  CHECK(tasks.group_mean(0, TaskState::kDiskWait, 0, end) == Approx(0.4));
  CHECK(tasks.cause(t) == WaitCause::kNone);
}

TEST_CASE("a D without a cause counts as other, and the same cause twice is one wait") {
  TaskStates tasks(1, 2);
  const std::uint32_t a = tasks.add_task(0, 0, TaskState::kDiskWait);
  const std::uint32_t b = tasks.add_task(0, 1, TaskState::kRunning);
  tasks.set(0, b, TaskState::kDiskWait, WaitCause::kRequestSlot);
  tasks.set(1 * kSecond, b, TaskState::kDiskWait, WaitCause::kRequestSlot);
  tasks.set(2 * kSecond, a, TaskState::kRunning);
  tasks.set(4 * kSecond, b, TaskState::kRunning);
  const sim::Time end = 4 * kSecond;
  CHECK(tasks.group_cause_mean(0, WaitCause::kNone, 0, end) == Approx(0.5));
  CHECK(tasks.group_cause_mean(1, WaitCause::kRequestSlot, 0, end) == Approx(1.0));
  CHECK(tasks.group_cause_mean(1, WaitCause::kNone, 0, end) == Approx(0.0));
}

TEST_CASE("iowait is min(tasks in D, idle CPUs) over the CPUs") {
  TaskStates tasks(2, 1);
  const std::uint32_t r = tasks.add_task(0, 0, TaskState::kRunning);
  const std::uint32_t d1 = tasks.add_task(0, 0, TaskState::kDiskWait);
  const std::uint32_t d2 = tasks.add_task(0, 0, TaskState::kDiskWait);
  // [0, 1 s): one running, two in D, one idle CPU: iowait 1/2.
  tasks.set(1 * kSecond, r, TaskState::kSleeping);  // [1, 2 s): two idle CPUs, two in D: 1
  tasks.set(2 * kSecond, d1, TaskState::kRunning);
  tasks.set(2 * kSecond, d2, TaskState::kRunning);  // [2, 4 s): both busy: 0
  CHECK(tasks.iowait_fraction(0, 4 * kSecond) == Approx((0.5 + 1.0) / 4));
  CHECK(tasks.busy_cpus_mean(0, 4 * kSecond) == Approx((1 + 0 + 2 * 2) / 4.0));
}

TEST_CASE("wait causes have the JSON keys realrun uses") {
  CHECK(std::string(models::wait_cause_key(WaitCause::kDiskData)) == "disk_data");
  CHECK(std::string(models::wait_cause_key(WaitCause::kDiskMetadata)) == "disk_metadata");
  CHECK(std::string(models::wait_cause_key(WaitCause::kReclaim)) == "reclaim");
  CHECK(std::string(models::wait_cause_key(WaitCause::kRequestSlot)) == "request_slot");
  CHECK(std::string(models::wait_cause_key(WaitCause::kNone)) == "other");
}

}  // namespace
