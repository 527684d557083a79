#include "engines/simgrid/sg_pool.h"

#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_worker.h"

namespace sgengine {

SgPool::SgPool(SgHost& host, const models::ThreadPoolConfig& config, SgWorker& owner, std::uint32_t task_group)
    : host_(host), config_(config), owner_(owner) {
  for (std::uint32_t i = 0; i < config.threads; ++i) {
    const std::uint32_t id = host.tasks.add_task(now_ns(), task_group, models::TaskState::kSleeping);
    Thread& t = threads_.emplace_back(host.tasks, id);
    simgrid::s4u::Actor::create("pool-thread", host.platform.server, [this, &t] { thread_main(t); })->daemonize();
  }
  // The first thread is the first to be given work, as in the native pool.
  for (auto it = threads_.rbegin(); it != threads_.rend(); ++it) idle_.push_back(&*it);
}

bool SgPool::post(const models::PoolTask& task) {
  // A task waits only when every thread is busy; max_queue bounds the waiting.
  if (idle_.empty() && queue_.size() >= config_.max_queue) {
    ++stats_.overflows;
    return false;
  }
  ++stats_.tasks;
  if (!idle_.empty()) {
    Thread* t = idle_.back();
    idle_.pop_back();
    t->task = task;
    t->has_task = true;
    t->disk.set_state(models::TaskState::kRunning);
    t->wake.notify();
    return true;
  }
  queue_.push(now_ns(), task);
  if (queue_.size() > stats_.max_waiting) stats_.max_waiting = queue_.size();
  return true;
}

// One pool thread: run the task's sendfile (in D state while the disk
// works) and spend its CPU time, or walk the path of an open(); put it on the
// done list, take the next one.
void SgPool::thread_main(Thread& t) {
  for (;;) {
    while (!t.has_task) t.wake.wait();
    if (t.task.open) {
      // aio_open: the path walk, waiting for whatever the dentry cache lacks.
      if (!host_.walk.open(t.task.keys, t.task.levels, &t.disk, 0)) t.disk.wait_for_disk();
    } else {
      sendfile(host_, t.task.call, t.disk);
      use_cpu(host_.costs.sendfile_byte * static_cast<double>(t.task.call.sent));
    }
    const bool was_empty = done_.empty();
    done_.push_back(t.task);
    t.has_task = false;
    if (!queue_.empty()) {
      t.task = queue_.pop(now_ns());
      t.has_task = true;
    } else {
      t.disk.set_state(models::TaskState::kSleeping);
      idle_.push_back(&t);
    }
    if (was_empty) owner_.on_pool_done();
  }
}

void SgPool::take_done(std::vector<models::PoolTask>& out) {
  out.clear();
  out.swap(done_);
}

models::PoolStats SgPool::stats() const {
  models::PoolStats s = stats_;
  s.waiting_integral = queue_.length().integral(now_ns());
  return s;
}

}  // namespace sgengine
