#include "models/server/pool_queue.h"

namespace models {

PoolQueue::PoolQueue(const ThreadPoolConfig& config) : config_(config) {
  for (std::uint32_t t = config.threads; t-- > 0;) idle_.push_back(t);
}

std::uint32_t PoolQueue::post(sim::Time now, const PoolTask& task) {
  // ngx_thread_task_post refuses when `tp->waiting >= tp->max_queue`, and
  // `waiting` is the tasks queued less the idle threads: ngx_thread_pool_cycle
  // decrements it before it waits for a task ("the number may become
  // negative"). So a task an idle thread can take is never refused, even with
  // max_queue = 0, and with every thread busy `waiting` is the queue's length.
  if (idle_.empty() && waiting_.size() >= config_.max_queue) {
    ++stats_.overflows;
    return kOverflow;
  }
  ++stats_.tasks;
  if (!idle_.empty()) {
    const std::uint32_t t = idle_.back();
    idle_.pop_back();
    busy_.set(now, static_cast<double>(config_.threads - idle_.size()));
    return t;
  }
  waiting_.push(now, task);
  if (waiting_.size() > stats_.max_waiting) stats_.max_waiting = waiting_.size();
  return kQueued;
}

bool PoolQueue::finished(const PoolTask& task) {
  const bool was_empty = done_.empty();
  done_.push_back(task);
  return was_empty;
}

bool PoolQueue::next(sim::Time now, std::uint32_t thread, PoolTask& next) {
  if (waiting_.empty()) {
    idle_.push_back(thread);
    busy_.set(now, static_cast<double>(config_.threads - idle_.size()));
    return false;
  }
  next = waiting_.pop(now);
  return true;
}

void PoolQueue::take_done(std::vector<PoolTask>& out) {
  out.clear();
  out.swap(done_);  // the buffers trade places: no allocation once warm
}

PoolStats PoolQueue::stats(sim::Time now) const {
  PoolStats s = stats_;
  s.waiting_integral = waiting_.length().integral(now);
  s.busy_integral = busy_.integral(now);
  return s;
}

}  // namespace models
