// An NGINX thread pool on SimGrid: the counterpart of models::ThreadPool,
// with each pool thread an actor. The same FIFO queue, the same max_queue
// overflow rule, the same done list handed to the worker in one wake-up.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engines/simgrid/sg_host.h"
#include "models/server/nginx_config.h"
#include "models/server/pool_queue.h"
#include "models/server/pool_task.h"

namespace sgengine {

class SgWorker;

class SgPool {
 public:
  SgPool(SgHost& host, const models::ThreadPoolConfig& config, SgWorker& owner, std::uint32_t task_group);
  SgPool(const SgPool&) = delete;
  SgPool& operator=(const SgPool&) = delete;

  // False on overflow: the task was not queued.
  bool post(const models::PoolTask& task);
  void take_done(std::vector<models::PoolTask>& out) { queue_.take_done(out); }
  std::size_t waiting() const { return queue_.waiting(); }
  models::PoolStats stats() const { return queue_.stats(now_ns()); }
  void reset_peak() { queue_.reset_peak(); }
  const std::string& name() const { return queue_.name(); }

 private:
  struct Thread {
    explicit Thread(models::TaskStates& tasks, std::uint32_t task) : disk(tasks, task) {}
    DiskWaiter disk;
    Wakeup wake;
    bool has_task = false;
    models::PoolTask task;
  };
  void thread_main(std::uint32_t index);

  SgHost& host_;
  SgWorker& owner_;
  std::deque<Thread> threads_;
  models::PoolQueue queue_;
};

}  // namespace sgengine
