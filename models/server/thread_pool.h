// An NGINX thread pool (ngx_thread_pool.c): `threads` threads take tasks
// from one FIFO queue. Posting fails when `max_queue` tasks already wait,
// and NGINX logs: thread pool "NAME" queue overflow: N tasks waiting.
// A finished task goes on the done list and the worker is woken through an
// eventfd; one wake-up hands over every task done by then.
//
// Each task here is one sendfile() call of one chunk (what `aio threads`
// offloads on Linux). Pools are per worker process.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/os/sendfile.h"
#include "models/server/nginx_config.h"
#include "models/server/pool_queue.h"
#include "models/server/pool_task.h"
#include "models/server/stage_hooks.h"

namespace models {

class PoolOwner {
 public:
  virtual void on_pool_done() = 0;  // the eventfd became readable
  // The loopback transmission a task's sendfile() of `bytes` on `conn` runs
  // in its thread (os/host.h, loopback_rx_byte and loopback_pacing_byte);
  // 0 unless a client on this host has read all it was sent.
  virtual double receive_path_s(std::uint32_t /*conn*/, std::uint64_t /*bytes*/) { return 0; }

 protected:
  ~PoolOwner() = default;
};


class ThreadPool {
 public:
  ThreadPool(Host& host, const ThreadPoolConfig& config, PoolOwner& owner, std::uint32_t task_group);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // False on overflow: the task was not queued.
  bool post(const PoolTask& task);
  // Tasks finished since the last call (the done list).
  void take_done(std::vector<PoolTask>& out) { queue_.take_done(out); }
  std::size_t waiting() const { return queue_.waiting(); }
  PoolStats stats() const;
  void reset_peak() { queue_.reset_peak(); }
  const std::string& name() const { return queue_.name(); }
  std::size_t threads() const { return threads_.size(); }
  std::size_t busy() const { return queue_.busy(); }  // threads running a task
  // Move the tasks' requests through their stages (request_stages.h); the
  // owner worker's TaskStates group and task split the stages it hands over.
  // `runner`: who runs the legs of its tasks (Runner::kPool for an NGINX
  // pool and io-wq's workers; Runner::kUring for io_uring's page callbacks,
  // which this pool stands for without a thread in D: nowait_probe.h).
  void record_stages(RequestStages* stages, std::uint32_t owner_group, std::uint32_t owner_task,
                     Runner runner = Runner::kPool) {
    stages_ = stages;
    owner_group_ = owner_group;
    owner_task_ = owner_task;
    runner_ = runner;
  }

 private:
  class Thread;
  void finished(Thread& thread);
  // The request moves to `next`: the pool's (its queue, a thread's CPU or D)
  // until the done list hands it back to the worker's loop.
  void stage(std::uint32_t conn, Stage next, double split_now, double next_mark = 0) {
    const Runner runner = next == Stage::kLoopBusy ? Runner::kLoop : runner_;
    if (stages_) stages_->to(conn, next, host_.engine.now(), split_now, next_mark, runner);
  }
  void start_next(Thread& thread);

  Host& host_;
  PoolOwner& owner_;
  std::vector<Thread*> threads_;
  PoolQueue queue_;
  RequestStages* stages_ = nullptr;
  std::uint32_t owner_group_ = 0, owner_task_ = 0;
  Runner runner_ = Runner::kPool;
};

}  // namespace models
