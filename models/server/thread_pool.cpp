#include "models/server/thread_pool.h"

namespace models {

// One pool thread: waits for a task, runs its sendfile (in D state while the
// disk works), spends the CPU time, hands the task back.
class ThreadPool::Thread final : public PageWaiter, public WalkWaiter, public sim::FairShareListener {
 public:
  Thread(ThreadPool& pool, std::uint32_t task_id) : pool_(pool), task_id_(task_id) {}

  void run(const PoolTask& task) {
    task_ = task;
    pool_.host_.tasks.set(pool_.host_.engine.now(), task_id_, TaskState::kRunning);
    step();
  }
  const PoolTask& task() const { return task_; }
  std::uint32_t task_id() const { return task_id_; }

  void on_page_ready(std::uint64_t) override {
    pool_.host_.tasks.set(pool_.host_.engine.now(), task_id_, TaskState::kRunning);
    step();
  }
  void on_walk_done(std::uint64_t) override { pool_.finished(*this); }
  void on_share_milestone(std::uint32_t, std::uint64_t, double) override { pool_.finished(*this); }

 private:
  void step() {
    Host& host = pool_.host_;
    if (task_.open) {
      if (host.walk.open(task_.keys, task_.levels, this, 0))
        pool_.finished(*this);
      else
        host.tasks.set(host.engine.now(), task_id_, TaskState::kDiskWait);
      return;
    }
    if (!sendfile_run(host, task_.call, this, 0)) {
      host.tasks.set(host.engine.now(), task_id_, TaskState::kDiskWait);
      return;
    }
    const double cpu = host.costs.sendfile_byte * static_cast<double>(task_.call.sent);
    if (cpu > 0)
      host.cpu.add(cpu, this, 0);
    else
      pool_.finished(*this);
  }

  ThreadPool& pool_;
  std::uint32_t task_id_;
  PoolTask task_;
};

ThreadPool::ThreadPool(Host& host, const ThreadPoolConfig& config, PoolOwner& owner, std::uint32_t task_group)
    : host_(host), config_(config), owner_(owner) {
  for (std::uint32_t i = 0; i < config.threads; ++i) {
    const std::uint32_t id = host.tasks.add_task(host.engine.now(), task_group, TaskState::kSleeping);
    threads_.push_back(new Thread(*this, id));
  }
  for (auto it = threads_.rbegin(); it != threads_.rend(); ++it) idle_.push_back(*it);
}

ThreadPool::~ThreadPool() {
  for (Thread* t : threads_) delete t;
}

bool ThreadPool::post(const PoolTask& task) {
  // A task waits only when every thread is busy; max_queue bounds the waiting.
  if (idle_.empty() && queue_.size() >= config_.max_queue) {
    ++stats_.overflows;
    return false;
  }
  ++stats_.tasks;
  if (!idle_.empty()) {
    Thread* t = idle_.back();
    idle_.pop_back();
    t->run(task);
    return true;
  }
  queue_.push(host_.engine.now(), task);
  if (queue_.size() > stats_.max_waiting) stats_.max_waiting = queue_.size();
  return true;
}

void ThreadPool::finished(Thread& thread) {
  const bool was_empty = done_.empty();
  done_.push_back(thread.task());
  start_next(thread);
  if (was_empty) owner_.on_pool_done();
}

void ThreadPool::start_next(Thread& thread) {
  if (queue_.empty()) {
    host_.tasks.set(host_.engine.now(), thread.task_id(), TaskState::kSleeping);
    idle_.push_back(&thread);
    return;
  }
  thread.run(queue_.pop(host_.engine.now()));
}

void ThreadPool::take_done(std::vector<PoolTask>& out) {
  out.clear();
  out.swap(done_);  // the buffers trade places: no allocation once warm
}

PoolStats ThreadPool::stats() const {
  PoolStats s = stats_;
  s.waiting_integral = queue_.length().integral(host_.engine.now());
  return s;
}

}  // namespace models
