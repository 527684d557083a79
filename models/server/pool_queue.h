// The bookkeeping of an NGINX thread pool (ngx_thread_pool.c), the same in
// both engines, which differ only in how a thread's work takes time: which
// threads are idle, the tasks waiting for one (at most max_queue; NGINX
// logs: thread pool "NAME" queue overflow: N tasks waiting), the done list
// the worker takes in one eventfd wake-up, and the pool's figures.
// Threads are numbered 0 .. threads-1; the most recently idle one gets the
// next task (thread 0 first at the start).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/server/nginx_config.h"
#include "models/server/pool_task.h"
#include "sim/fifo_queue.h"

namespace models {

class PoolQueue {
 public:
  static constexpr std::uint32_t kQueued = UINT32_MAX;
  static constexpr std::uint32_t kOverflow = UINT32_MAX - 1;

  explicit PoolQueue(const ThreadPoolConfig& config);

  // A task posted at `now`: the idle thread that runs it at once, kQueued
  // when every thread is busy, or kOverflow (the task is dropped).
  std::uint32_t post(sim::Time now, const PoolTask& task);
  // A thread finished `task`: onto the done list. True when the list was
  // empty, so that the worker must be woken.
  bool finished(const PoolTask& task);
  // Thread `thread`'s next task after one finished at `now`: true with
  // `next` set, or false and the thread is idle.
  bool next(sim::Time now, std::uint32_t thread, PoolTask& next);
  // Tasks finished since the last call (the done list).
  void take_done(std::vector<PoolTask>& out);

  std::size_t waiting() const { return waiting_.size(); }
  std::size_t busy() const { return config_.threads - idle_.size(); }  // threads running a task
  PoolStats stats(sim::Time now) const;
  // max_waiting counts from now on (a measured window begins).
  void reset_peak() { stats_.max_waiting = waiting_.size(); }
  const std::string& name() const { return config_.name; }

 private:
  ThreadPoolConfig config_;
  std::vector<std::uint32_t> idle_;  // the next to run a task last
  sim::FifoQueue<PoolTask> waiting_;
  sim::TimeAverage busy_;  // threads running a task
  std::vector<PoolTask> done_;
  PoolStats stats_;
};

}  // namespace models
