// One NGINX worker process: a single event loop (ngx_process_events_and_timers).
//
// Each turn of the loop: epoll_wait returns the ready events (the listen
// socket, requests, writable sockets, the thread pool's eventfd); NGINX
// handles them one after another, then runs the expired timers, then waits
// again. The ready list, timers and batch are event_loop.h's, shared with
// the SimGrid engine; this class runs a turn as callbacks on the event heap.
//
// Whatever a handler waits for, the whole loop waits for: a page-cache miss
// inside sendfile() or a directory lookup inside open() puts the process in
// D state and every other connection of this worker waits too.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "models/os/cpu.h"
#include "models/os/direct_io.h"
#include "models/os/sendfile.h"
#include "models/server/event_loop.h"
#include "models/server/native_aio.h"
#include "models/server/open_file_cache.h"
#include "models/server/stage_hooks.h"
#include "models/server/thread_pool.h"
#include "sim/engine.h"

namespace models {

class Nginx;

class Worker final : public sim::EventTarget,
                     public PageWaiter,
                     public WalkWaiter,
                     public sim::FairShareListener,
                     public PoolOwner,
                     public AioOwner {
 public:
  Worker(Nginx& server, std::uint32_t index);

  using EventKind = LoopEvent;
  // An fd of this worker became ready (epoll).
  void post(EventKind kind, std::uint32_t conn);
  // The listen socket this worker watches became readable.
  void listen_ready();
  // A worker process starts with a turn of its loop (which, with
  // accept_mutex on, begins by trying to take the mutex).
  void start();
  bool sleeping() const { return sleeping_; }
  // When this worker last entered epoll_wait (for the order of wake-ups).
  sim::Time idle_since() const { return idle_since_; }
  void add_timer(std::uint32_t conn, std::uint64_t generation) { loop_.add_timer(conn, generation); }
  void post_next(std::uint32_t conn, std::uint64_t generation) { loop_.post_next(conn, generation); }

  std::uint32_t index() const { return index_; }
  std::uint32_t task() const { return task_; }
  // The first pool (thread_pool); every pool, in all_thread_pools() order (pool_choice.h).
  ThreadPool* pool() { return pools_.empty() ? nullptr : pools_.front().get(); }
  std::size_t pools() const { return pools_.size(); }
  ThreadPool& pool(std::size_t i) { return *pools_[i]; }
  const ThreadPool& pool(std::size_t i) const { return *pools_[i]; }
  // aio on: this worker's AIO context; null otherwise.
  const NativeAio* native_aio() const { return aio_.get(); }
  // A done pool task's handler runs the connection's write next in this turn.
  void run_now(std::uint32_t conn) {
    loop_.run_now(conn, [this] { return disk_wait_so_far(); });
  }
  // This worker's open_file_cache; null when it is off.
  const OpenFileCache* open_file_cache() const { return open_cache_.get(); }
  bool accept_mutex_held() const { return mutex_held_; }
  // Read-only views for front ends (the visualizer).
  const ThreadPool* pool() const { return pools_.empty() ? nullptr : pools_.front().get(); }
  // Ready events not yet handled: the epoll list plus the rest of this turn's batch.
  std::size_t ready_events() const { return loop_.ready_events(); }
  std::size_t timers() const { return loop_.timers(); }

  // Per-worker counters.
  std::uint64_t accepted = 0;
  std::uint64_t requests = 0;
  double blocked_wait_s = 0;  // time ready events waited while this loop was in D state
  std::uint64_t blocks = 0;   // times this loop went into D state
  // aio_nowait and io_uring (nowait_probe.h): chunks probed with
  // RWF_NOWAIT, those the probe found missing (sent to the pool), and those
  // found resident whose sendfile() blocked all the same (the race: evicted
  // between the probe and the read); io_uring reads and those not inline.
  std::uint64_t nowait_probes = 0;
  std::uint64_t nowait_misses = 0;
  std::uint64_t nowait_races = 0;
  std::uint64_t uring_reads = 0;
  std::uint64_t uring_async = 0;

  void on_event(std::uint64_t arg) override;
  void on_page_ready(std::uint64_t tag) override;
  void on_walk_done(std::uint64_t tag) override;
  void on_share_milestone(std::uint32_t job, std::uint64_t tag, double remaining) override;
  void on_pool_done() override;
  double receive_path_s(std::uint32_t conn, std::uint64_t bytes) override;
  void on_aio_done(std::uint32_t conn) override;
  // os = "freebsd": the read that a sendfile(SF_NODISKIO) EBUSY started is done.
  void on_preload_done(std::uint32_t conn);
  std::uint32_t submitter_task() const override { return task_; }

  // This loop's time in D so far, and its task's time waiting for a CPU
  // (seconds since the start): what splits its requests' stages.
  double disk_wait_so_far() const;
  double cpu_wait_so_far() const;

 private:
  enum class Step : std::uint8_t {
    kAccept,
    kNextEvent,
    kRequest,
    kFill,
    kOpen,
    kHeader,
    kChunk,
    kSendfile,
    kDirect,
    kSent,
    kPoolDone,
    kProbe,
    kProbed,
    kPostPool,
    kUring,
  };
  // The request in hand moves to `stage` (request_stages.h).
  void stage_current(Stage stage, double split_now, double next_mark = 0, Runner runner = Runner::kLoop);
  void stage_pool_done();

  void begin_turn();
  // The listen socket was reported and this worker got to its accept():
  // take a connection (more with multi_accept); true while it uses the CPU.
  bool accept_connections();
  void end_turn();
  void resume();
  bool take_next();
  bool use_cpu(double seconds, Step then);
  // Hands the connection's next chunk (or its open()) to the thread pool.
  void post_to_pool(std::uint32_t conn, bool open);
  // Every pool's done tasks into done_ and done_from_, in the order they finished.
  void take_every_pool_done();
  // A directio pass stopped before a read: to the pool, or to io_submit;
  // false when io_submit said EAGAIN (the worker reads, blocking).
  bool offload_read(std::uint32_t conn);
  // sendfile(SF_NODISKIO) said EBUSY: the page is read without this loop
  // waiting (FreeBSD); false when it is resident by now (sendfile again).
  bool start_preload(std::uint32_t conn);
  // The reads start_preload starts: their completions come back to the worker.
  struct PreloadWaiter final : PageWaiter {
    Worker* worker = nullptr;
    void on_page_ready(std::uint64_t tag) override { worker->on_preload_done(static_cast<std::uint32_t>(tag)); }
  };
  void set_state(TaskState s, WaitCause cause = WaitCause::kNone);
  void wake_now();

  Nginx& server_;
  std::uint32_t index_;
  std::uint32_t task_;
  std::uint32_t thread_;  // on the host's CPUs
  // Who woke this loop's epoll_wait, and when: its next CPU burst at that
  // instant is placed as that wake-up (try_to_wake_up()'s waker).
  Cpu::Waker waker_;
  sim::Time woken_at_ = -1;
  std::vector<std::unique_ptr<ThreadPool>> pools_;
  std::unique_ptr<OpenFileCache> open_cache_;
  std::unique_ptr<NativeAio> aio_;
  PreloadWaiter preload_;

  EventLoop loop_;
  bool listen_pending_ = false;
  bool accept_first_ = false;
  bool sleeping_ = true;
  std::uint64_t wake_generation_ = 0;
  bool mutex_held_ = false;
  sim::Time idle_since_ = 0;

  Step step_ = Step::kNextEvent;
  EventLoop::Ready current_{};
  SendfileCall call_;
  DirectReadCall direct_;
  std::uint64_t sent_ = 0, limit_ = 0;  // the chunk just sent (either call)
  bool probed_resident_ = false;  // the RWF_NOWAIT probe found the chunk in hand all resident
  bool after_probe_ = false;      // the sendfile() in hand follows a probe that found it resident
  double extra_cpu_ = 0;          // CPU the sendfile() in hand adds (io_uring's inline read)
  std::vector<PoolTask> done_;  // every pool's, this wake-up, in the order they finished
  // With several pools: each done task and its pool's index; one at a time.
  std::vector<std::pair<PoolTask, std::size_t>> done_from_;
  std::vector<PoolTask> one_done_;
};

}  // namespace models
