#include "models/server/thread_pool.h"

namespace models {

// One pool thread: waits for a task, runs its sendfile (in D state while the
// disk works), spends the CPU time, hands the task back.
class ThreadPool::Thread final : public PageWaiter, public WalkWaiter, public sim::FairShareListener {
 public:
  Thread(ThreadPool& pool, std::uint32_t index, std::uint32_t task_id)
      : pool_(pool), index_(index), task_id_(task_id), cpu_thread_(pool.host_.cpu.add_thread(task_id, task_id)) {}

  void run(const PoolTask& task) {
    task_ = task;
    pool_.host_.tasks.set(pool_.host_.engine.now(), task_id_, TaskState::kRunning);
    pool_.stage(task_.conn, Stage::kCpu, 0, cpu_wait_so_far());
    step();
  }
  double cpu_wait_so_far() const { return pool_.host_.tasks.task_cpu_wait_s(task_id_, pool_.host_.engine.now()); }
  const PoolTask& task() const { return task_; }
  std::uint32_t index() const { return index_; }
  std::uint32_t task_id() const { return task_id_; }

  void on_page_ready(std::uint64_t) override {
    pool_.host_.tasks.set(pool_.host_.engine.now(), task_id_, TaskState::kRunning);
    pool_.stage(task_.conn, Stage::kCpu, 0, cpu_wait_so_far());
    step();
  }
  void on_walk_done(std::uint64_t) override { spend(0); }
  std::uint32_t submitter_task() const override { return task_id_; }
  void on_share_milestone(std::uint32_t, std::uint64_t, double) override { pool_.finished(*this); }

 private:
  void step() {
    Host& host = pool_.host_;
    if (task_.open) {
      if (host.walk.open(task_.keys, task_.levels, this, 0))
        spend(0);
      else
        wait(WaitCause::kDiskMetadata);
      return;
    }
    if (task_.direct) {
      // ngx_thread_read_handler: one pread() of one buffer (O_DIRECT, or the
      // tail through the page cache); the worker writes it.
      if (!direct_read_piece(host, task_.direct_read, this, 0)) {
        wait(WaitCause::kDiskData);
        return;
      }
      spend(0);
      return;
    }
    if (!sendfile_run(host, task_.call, this, 0)) {
      wait(WaitCause::kDiskData);
      return;
    }
    spend(host.costs.sendfile_byte * static_cast<double>(task_.call.sent) + reader_fill_s(host, task_.call) +
              pool_.owner_.receive_path_s(task_.conn, task_.call.sent),
          task_.call.sent);
  }

  // The task's CPU time, then the done list. Each task also costs the
  // thread `pool_thread`: ngx_thread_pool_cycle() returns from its condition
  // variable's futex wait, takes the done list's spinlock and writes the
  // worker's eventfd (ngx_notify); the worker pays its own `pool_worker`
  // (half posting the task, half handling the completion: worker.cpp).
  // `sent`: the bytes of the task's sendfile() call (0 for the others), whose
  // burst is kernel work for the preemption model (sendfile.h). The
  // pool_thread part (the futex return, the locks, the eventfd write) is
  // counted in that burst, kernel mode throughout: a simplification.
  void spend(double seconds, std::uint64_t sent = 0) {
    Host& host = pool_.host_;
    const double cpu = seconds + host.costs.pool_thread;
    if (cpu <= 0) {
      pool_.finished(*this);
      return;
    }
    host.tasks.set(host.engine.now(), task_id_, TaskState::kRunning);  // back from an open()'s wait in D
    mark_sendfile_burst(host, cpu_thread_, cpu, sent);
    host.cpu.run(cpu_thread_, cpu, this, 0);
  }

  void wait(WaitCause cause) {
    pool_.host_.tasks.set(pool_.host_.engine.now(), task_id_, TaskState::kDiskWait, cause);
    pool_.stage(task_.conn, disk_stage(cause), cpu_wait_so_far());
  }
  ThreadPool& pool_;
  std::uint32_t index_;  // in the pool's queue
  std::uint32_t task_id_;
  std::uint32_t cpu_thread_;  // on the host's CPUs
  PoolTask task_;
};

ThreadPool::ThreadPool(Host& host, const ThreadPoolConfig& config, PoolOwner& owner, std::uint32_t task_group)
    : host_(host), owner_(owner), queue_(config) {
  for (std::uint32_t i = 0; i < config.threads; ++i) {
    const std::uint32_t id = host.tasks.add_task(host.engine.now(), task_group, TaskState::kSleeping);
    threads_.push_back(new Thread(*this, i, id));
  }
}

ThreadPool::~ThreadPool() {
  for (Thread* t : threads_) delete t;
}

bool ThreadPool::post(const PoolTask& task) {
  // The owner's handler hands the request over (at zero cost when a thread is idle).
  stage(task.conn, Stage::kPoolQueue, host_.tasks.task_cpu_wait_s(owner_task_, host_.engine.now()));
  const std::uint32_t t = queue_.post(host_.engine.now(), task);
  if (t == PoolQueue::kOverflow) return false;
  if (t != PoolQueue::kQueued) threads_[t]->run(task);
  return true;
}

void ThreadPool::finished(Thread& thread) {
  // On the done list: the request waits for its worker's loop.
  if (stages_)
    stage(thread.task().conn, Stage::kLoopBusy, thread.cpu_wait_so_far(),
          host_.tasks.group_integral(owner_group_, TaskState::kDiskWait, host_.engine.now()));
  PoolTask done = thread.task();
  done.done_at = host_.engine.now();
  const bool was_empty = queue_.finished(done);
  start_next(thread);
  if (was_empty) owner_.on_pool_done();
}

void ThreadPool::start_next(Thread& thread) {
  PoolTask next;
  if (!queue_.next(host_.engine.now(), thread.index(), next)) {
    host_.tasks.set(host_.engine.now(), thread.task_id(), TaskState::kSleeping);
    return;
  }
  thread.run(next);
}

PoolStats ThreadPool::stats() const { return queue_.stats(host_.engine.now()); }

}  // namespace models
