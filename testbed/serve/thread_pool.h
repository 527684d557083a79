// A worker's thread pool for the calls that may block on disk, shaped like
// nginx's `thread_pool default threads=32 max_queue=65536`
// (src/core/ngx_thread_pool.c): a fixed set of threads taking tasks from one
// FIFO whose waiting count is bounded.
//
// nginx's count, `tp->waiting`, goes up in ngx_thread_task_post and down in
// ngx_thread_pool_cycle each time a thread comes back for a task, before it
// waits ("the number may become negative"): it is the tasks queued less the
// threads idle. ngx_thread_task_post refuses a task iff waiting >= max_queue
// and logs `thread pool "default" queue overflow: N tasks waiting` (at
// NGX_LOG_ERR). So a task that an idle thread can take is never refused, even
// with max_queue=0, and max_queue tasks may wait beyond the idle threads.
// Here the same count is queue_.size() - idle_, both under the mutex.
//
// What a refusal means to a request is the caller's business
// (http_connection.cpp): nginx fails the request and closes the connection.
//
// A thread that cannot be started (pthread_create's EAGAIN, e.g. a pids
// cgroup's or RLIMIT_NPROC's limit, or no room for its stack) ends the
// constructor: the threads already started are stopped and joined, and a
// ThreadPoolError names the pool, the thread and the errno. In nginx,
// ngx_thread_pool_init logs "pthread_create() failed" (NGX_LOG_ALERT) and
// ngx_thread_pool_init_worker fails, and the worker exits with status 2,
// which its master does not respawn; clerk-serve's worker exits with
// kWorkerFatal (worker.h) likewise.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace clerk::serve {

// The pool's threads could not all be started; those that were are joined.
struct ThreadPoolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Starts one pool thread running `body`; throws std::system_error as
// std::thread's constructor does. The tests' seam: the default is std::thread.
using ThreadStarter = std::function<std::thread(std::function<void()> body)>;

class ThreadPool {
 public:
  // Returns once every thread waits for a task, so that the first tasks find
  // them idle, as in an nginx worker whose pool threads (started in
  // ngx_thread_pool_init_worker) wait long before its first request.
  // Throws ThreadPoolError when a thread cannot be started.
  ThreadPool(int threads, std::size_t max_queue, const ThreadStarter& start = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // False, with nginx's overflow line on stderr, when the tasks queued less
  // the threads idle are max_queue or more (ngx_thread_task_post).
  bool try_post(std::function<void()> task);

  // Blocks until no task is queued and every thread waits for one.
  void wait_idle();

  // Joins the threads; tasks still waiting are dropped unrun.
  void stop();

  std::uint64_t overflows() const;

 private:
  void run();
  // nginx's tp->waiting: negative while threads are idle.
  std::ptrdiff_t waiting() const;

  const std::size_t max_queue_;
  std::size_t thread_count_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable wake_;     // a task was queued, or stop()
  std::condition_variable idle_up_;  // a thread came back for a task
  std::deque<std::function<void()>> queue_;
  std::size_t idle_ = 0;  // threads between coming back for a task and taking one
  bool stopping_ = false;
  std::uint64_t overflows_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace clerk::serve
