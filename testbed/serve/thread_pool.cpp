#include "thread_pool.h"

#include <cstdio>

namespace clerk::serve {

ThreadPool::ThreadPool(int threads, std::size_t max_queue) : max_queue_(max_queue) {
  thread_count_ = static_cast<std::size_t>(threads);
  threads_.reserve(thread_count_);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
  wait_idle();
}

ThreadPool::~ThreadPool() { stop(); }

std::ptrdiff_t ThreadPool::waiting() const {
  return static_cast<std::ptrdiff_t>(queue_.size()) - static_cast<std::ptrdiff_t>(idle_);
}

bool ThreadPool::try_post(std::function<void()> task) {
  std::ptrdiff_t waiting_now;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    waiting_now = waiting();
    // waiting >= max_queue, max_queue being 0 or more: a negative count
    // (an idle thread for this task) never refuses.
    if (waiting_now < 0 || static_cast<std::size_t>(waiting_now) < max_queue_) {
      queue_.push_back(std::move(task));
      wake_.notify_one();
      return true;
    }
    ++overflows_;
  }
  std::fprintf(stderr, "clerk-serve: thread pool \"default\" queue overflow: %td tasks waiting\n", waiting_now);
  return false;
}

void ThreadPool::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_up_.wait(lock, [this] { return stopping_ || (queue_.empty() && idle_ == thread_count_); });
}

void ThreadPool::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  idle_up_.notify_all();
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
      // ngx_thread_pool_cycle's tp->waiting--: idle from here, before waiting.
      ++idle_;
      idle_up_.notify_all();
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      --idle_;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace clerk::serve
