#include "thread_pool.h"

#include <cstdio>

namespace clerk::serve {

ThreadPool::ThreadPool(int threads, std::size_t max_queue) : max_queue_(max_queue) {
  threads_.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

ThreadPool::~ThreadPool() { stop(); }

bool ThreadPool::try_post(std::function<void()> task) {
  std::size_t waiting;
  {
    std::lock_guard lock(mutex_);
    waiting = queue_.size();
    if (stopping_) return false;
    if (waiting < max_queue_) {
      queue_.push_back(std::move(task));
      wake_.notify_one();
      return true;
    }
    ++overflows_;
  }
  std::fprintf(stderr, "clerk-serve: thread pool \"default\" queue overflow: %zu tasks waiting\n", waiting);
  return false;
}

void ThreadPool::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& thread : threads_)
    if (thread.joinable()) thread.join();
  threads_.clear();
  std::deque<std::function<void()>> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(queue_);
  }
}

std::uint64_t ThreadPool::overflows() const {
  std::lock_guard lock(mutex_);
  return overflows_;
}

void ThreadPool::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace clerk::serve
