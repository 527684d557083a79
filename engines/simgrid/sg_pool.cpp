#include "engines/simgrid/sg_pool.h"

#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_worker.h"

namespace sgengine {

SgPool::SgPool(SgHost& host, const models::ThreadPoolConfig& config, SgWorker& owner, std::uint32_t task_group)
    : host_(host), owner_(owner), queue_(config) {
  for (std::uint32_t i = 0; i < config.threads; ++i) {
    const std::uint32_t id = host.tasks.add_task(now_ns(), task_group, models::TaskState::kSleeping);
    threads_.emplace_back(host.tasks, id);
    simgrid::s4u::Actor::create("pool-thread", host.platform.server, [this, i] { thread_main(i); })->daemonize();
  }
}

bool SgPool::post(const models::PoolTask& task) {
  const std::uint32_t i = queue_.post(now_ns(), task);
  if (i == models::PoolQueue::kOverflow) return false;
  if (i != models::PoolQueue::kQueued) {
    Thread& t = threads_[i];
    t.task = task;
    t.has_task = true;
    t.disk.set_state(models::TaskState::kRunning);
    t.wake.notify();
  }
  return true;
}

// One pool thread: run the task's sendfile (in D state while the disk
// works) and spend its CPU time, or walk the path of an open(); put it on the
// done list, take the next one.
void SgPool::thread_main(std::uint32_t index) {
  Thread& t = threads_[index];
  for (;;) {
    while (!t.has_task) t.wake.wait();
    if (t.task.open) {
      // aio_open: the path walk, waiting for whatever the dentry cache lacks.
      if (!host_.walk.open(t.task.keys, t.task.levels, &t.disk, 0)) t.disk.wait_for_disk(models::WaitCause::kDiskMetadata);
    } else {
      sendfile(host_, t.task.call, t.disk);
      use_cpu(host_.costs.sendfile_byte * static_cast<double>(t.task.call.sent) +
              owner_.receive_path_s(t.task.conn, t.task.call.sent));
    }
    // Back from the condition variable, the done list's lock, the eventfd
    // write: `pool_thread` a task (models/server/thread_pool.cpp).
    if (host_.costs.pool_thread > 0) use_cpu(host_.costs.pool_thread);
    const bool was_empty = queue_.finished(t.task);
    t.has_task = queue_.next(now_ns(), index, t.task);
    if (!t.has_task) t.disk.set_state(models::TaskState::kSleeping);
    if (was_empty) owner_.on_pool_done();
  }
}

}  // namespace sgengine
