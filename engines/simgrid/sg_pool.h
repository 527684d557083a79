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
#include "models/server/thread_pool.h"
#include "sim/fifo_queue.h"

namespace sgengine {

class SgWorker;

class SgPool {
 public:
  SgPool(SgHost& host, const models::ThreadPoolConfig& config, SgWorker& owner, std::uint32_t task_group);
  SgPool(const SgPool&) = delete;
  SgPool& operator=(const SgPool&) = delete;

  // False on overflow: the task was not queued.
  bool post(const models::PoolTask& task);
  void take_done(std::vector<models::PoolTask>& out);
  std::size_t waiting() const { return queue_.size(); }
  models::PoolStats stats() const;
  const std::string& name() const { return config_.name; }

 private:
  struct Thread {
    explicit Thread(models::TaskStates& tasks, std::uint32_t task) : disk(tasks, task) {}
    DiskWaiter disk;
    Wakeup wake;
    bool has_task = false;
    models::PoolTask task;
  };
  void thread_main(Thread& t);

  SgHost& host_;
  models::ThreadPoolConfig config_;
  SgWorker& owner_;
  std::deque<Thread> threads_;
  std::vector<Thread*> idle_;
  sim::FifoQueue<models::PoolTask> queue_;
  std::vector<models::PoolTask> done_;
  models::PoolStats stats_;
};

}  // namespace sgengine
