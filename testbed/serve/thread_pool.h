// A worker's thread pool for the calls that may block on disk, shaped like
// nginx's `thread_pool default threads=32 max_queue=65536`: a fixed set of
// threads taking tasks from one FIFO whose waiting length is bounded. A task
// posted to a full queue is refused, and the caller answers 503.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clerk::serve {

class ThreadPool {
 public:
  ThreadPool(int threads, std::size_t max_queue);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // False when max_queue tasks are already waiting (as nginx counts: tasks
  // not yet taken by a thread). Logs nginx's overflow line then.
  bool try_post(std::function<void()> task);

  // Joins the threads; tasks still waiting are dropped unrun.
  void stop();

  std::uint64_t overflows() const;

 private:
  void run();

  const std::size_t max_queue_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::uint64_t overflows_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace clerk::serve
