// The scenario's disk model driven by the wall clock: one thread owns the
// simulation engine and the device (emulated_machine.h), maps simulated time
// to CLOCK_MONOTONIC (sim time 0 = the thread's start), and runs the engine
// up to "now" whenever a read arrives or the next model event is due. A read
// is submitted at its arrival time (the engine is first run up to it), so
// the model sees every read that is really outstanding at once: its queue
// depth, the block queue's merging and the elevator's (deadline, NCQ)
// reordering over them, md's split and mirror choice. When the model
// completes a read, its `done` runs on this thread; clerk-disk replies to
// the kernel from there (fuse_reply_buf is thread-safe).
//
// Lateness (the daemon's own latency): each `done` runs some time after the
// simulated completion it stands for (the wake-up's timer slack, the
// thread's scheduling, the replies before it); that difference is measured
// per read and reported, as is the reply's own time. The thread asks for
// 1 µs timer slack (PR_SET_TIMERSLACK) instead of the default 50 µs; the
// daemon runs SCHED_FIFO where it may (daemon.h), so that other processes'
// load delays it less.
//
// Jobs: model work other than a plain read (a FUSE lookup's metadata reads
// through the model's buffer cache, metadata.h) enters the model the same
// way, at its arrival time on the disk thread, and is answered once the
// model says it is done; jobs are counted apart from reads and take no part
// in the lateness figures.
//
// Notes: model work that nobody waits for (clerk-disk's view of the page
// cache, cache_pressure.h) is posted and runs on the disk thread at its
// arrival time, in order with the reads and jobs; it is neither a read nor
// a job, and has no reply.
//
// Null-delay mode: every read and job is done at once, without the model,
// so that what a reader measures is FUSE's and clerk-disk's own cost (a
// note is dropped).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/engine.h"

namespace testbed::disk {

struct LatenessReport {
  std::uint64_t reads = 0;
  std::uint64_t bytes = 0;
  // Lateness: from the model's completion to the reply's start.
  double mean_us = 0, p50_us = 0, p99_us = 0, max_us = 0;
  double reply_mean_us = 0;  // the reply itself (fuse_reply_buf: the copy into the kernel)
  std::uint32_t max_outstanding = 0;  // the model's most reads and jobs at once
  std::uint64_t jobs = 0;             // jobs answered (metadata lookups)
  std::map<std::uint64_t, std::uint64_t> sizes;  // reads by length in bytes (the kernel's FUSE requests)
};

class RealtimeDisk final : private models::IoListener {
 public:
  using Done = std::function<void(bool ok)>;  // false: the disk stopped first
  // `device` belongs to `engine`; both are used on the disk's thread only.
  RealtimeDisk(sim::Engine& engine, models::BlockDevice& device, bool null_delay);
  ~RealtimeDisk();
  RealtimeDisk(const RealtimeDisk&) = delete;
  RealtimeDisk& operator=(const RealtimeDisk&) = delete;

  // From any thread: read [offset, offset + length) of the device; `done`
  // runs on the disk's thread once the model says the read is complete.
  void submit(std::uint64_t offset, std::uint64_t length, Done done);
  // From any thread: `start(tag)` runs on the disk thread with the engine at
  // the job's arrival time; true: the job is done at once; false: it calls
  // job_done(tag), on the disk thread, when the model has done it. `done`
  // then runs as a read's does.
  using Start = std::function<bool(std::uint64_t tag)>;
  void submit_job(Start start, Done done);
  // From any thread: `note` runs on the disk thread with the engine at its
  // arrival time (not in null-delay mode); nothing answers it.
  using Note = std::function<void()>;
  void post(Note note);
  // The disk thread only (from inside the model): job `tag` is done now.
  void job_done(std::uint64_t tag) { completed_.emplace_back(tag, engine_.now()); }
  // Stops the thread; reads not yet done are returned without having run
  // `done`, for the caller to fail them (done(false)).
  std::vector<Done> stop();
  LatenessReport report() const;

 private:
  struct Arrival {
    sim::Time at;
    std::uint64_t offset, length;
    Done done;
    Start start;  // a job's (then offset and length are unused)
    Note note;    // a note's (then nothing else is used)
  };
  struct Outstanding {
    Done done;
    std::uint64_t bytes;
    bool job = false;
  };
  void run();
  sim::Time sim_now() const;
  void admit(std::deque<Arrival>& batch);
  void finish_completed();
  void on_io_done(std::uint64_t tag) override;

  sim::Engine& engine_;
  models::BlockDevice& device_;
  const bool null_delay_;
  std::int64_t epoch_ns_;  // CLOCK_MONOTONIC at sim time 0

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Arrival> inbox_;  // guarded by mutex_
  bool stopping_ = false;      // guarded by mutex_

  // The disk thread's own.
  std::unordered_map<std::uint64_t, Outstanding> outstanding_;
  std::vector<std::pair<std::uint64_t, sim::Time>> completed_;  // tag, simulated completion
  std::uint64_t next_tag_ = 1;

  // Guarded by mutex_ (read by report()).
  std::vector<double> lateness_us_;
  std::uint64_t reads_ = 0, bytes_ = 0, jobs_ = 0;
  double reply_s_ = 0;
  std::uint32_t max_outstanding_ = 0;
  std::map<std::uint64_t, std::uint64_t> sizes_;

  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace testbed::disk
