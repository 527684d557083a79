#include "thread_pool.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <system_error>

namespace clerk::serve {

namespace {
// nginx's only pool name here (serve_notes: one pool); in every message.
constexpr const char* kPoolName = "default";

std::thread start_std_thread(std::function<void()> body) { return std::thread(std::move(body)); }

// "errno 11 (EAGAIN: Resource temporarily unavailable)": std::thread
// reports pthread_create's error number.
std::string describe_errno(const std::error_code& code) {
  const char* name = ::strerrorname_np(code.value());  // glibc 2.32; null for an unknown number
  return "errno " + std::to_string(code.value()) + " (" + (name != nullptr ? std::string(name) + ": " : "") +
         code.message() + ")";
}

// Stops and joins the pool's threads if the constructor does not finish:
// a joinable std::thread destroyed while unwinding would std::terminate.
class StopUnlessDone {
 public:
  explicit StopUnlessDone(ThreadPool& pool) : pool_(pool) {}
  ~StopUnlessDone() {
    if (!done_) pool_.stop();
  }
  StopUnlessDone(const StopUnlessDone&) = delete;
  StopUnlessDone& operator=(const StopUnlessDone&) = delete;
  void done() { done_ = true; }

 private:
  ThreadPool& pool_;
  bool done_ = false;
};
}  // namespace

namespace {
ThreadPoolError start_failed(int index, int threads, const std::string& why) {
  return ThreadPoolError("thread pool \"" + std::string(kPoolName) + "\": cannot start thread " +
                         std::to_string(index + 1) + " of " + std::to_string(threads) + ": " + why + "; " +
                         (index == 1 ? std::string("the 1 thread") : "the " + std::to_string(index) + " threads") +
                         " started before it " + (index == 1 ? "is" : "are") + " stopped and joined");
}
}  // namespace

ThreadPool::ThreadPool(int threads, std::size_t max_queue, const ThreadStarter& start) : max_queue_(max_queue) {
  thread_count_ = static_cast<std::size_t>(threads);
  threads_.reserve(thread_count_);
  StopUnlessDone guard(*this);
  for (int i = 0; i < threads; ++i) {
    try {
      threads_.push_back(start ? start([this] { run(); }) : start_std_thread([this] { run(); }));
    } catch (const std::system_error& e) {
      throw start_failed(i, threads, describe_errno(e.code()));
    } catch (const std::bad_alloc&) {
      // std::thread allocates its state before pthread_create: under an
      // address-space limit that allocation can fail first.
      throw start_failed(i, threads, "out of memory (std::bad_alloc)");
    }
  }
  wait_idle();
  guard.done();
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
  std::fprintf(stderr, "clerk-serve: thread pool \"%s\" queue overflow: %td tasks waiting\n", kPoolName, waiting_now);
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
