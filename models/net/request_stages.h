// Where a request's time went: its latency, as wrk measures it (from writing
// the request, or open loop from when it was due, to reading the whole
// response), split into stages that sum to it.
//
// Each request is in exactly one stage at every instant. A stage change is
// one timestamp: the time since the previous change is added to the stage
// being left, so the stages telescope to the end minus the start, exactly, in
// integer nanoseconds. Three stages are split when they are left, with the
// growth of a time integral that the model keeps anyway (TaskStates), never
// by a per-instant hook on other requests:
//  - waiting for the loop (an epoll event, a pool task on the done list, a
//    sendfile_max_chunk timer): the part during which the worker's loop sat
//    in D (its group integral of D time) is "behind a blocked loop"; the rest
//    is "behind a busy loop" (or, for a timer, the timer itself). This is the
//    same measure as the server's event_loop_blocked;
//  - its own handler on a CPU: the part during which the running task waited
//    for a CPU (TaskStates' per-task run-queue time; 0 with processor
//    sharing, which has no run queue) is the run-queue wait.
// A D wait of the handler's task for this request is split by its wait
// channel (WaitCause): file data, metadata (open()'s path walk, O_CREAT and
// rename()), a block-layer request slot, memory reclaim.
//
// The stage names come in two vocabularies: the server's and the store's of
// the teaching picture (clerk = worker loop, shelves = page cache, warehouse =
// disk, delivery team = thread pool).
//
// Memory stays bounded: a group keeps, per log-scale latency bucket (16 per
// octave, 4.4% wide), the count and per-stage sums and the exact split of the
// latest request that fell in it (an exemplar, as Prometheus keeps with a
// histogram bucket: one real request to show for a percentile), the exact
// split of its worst request, and the worst request of every second.
//
// A request's journey, its stages in the order it went through them, is
// kept beside the sums (Journey), so that the UI can replay one customer
// through the store (issue 16). Each leg says who ran it (Runner): the
// worker's loop, a pool thread, the kernel's native AIO, io_uring's page
// callbacks, or a preload read (FreeBSD's aio daemon, or sendfile's own
// read): a CPU or disk leg of a pool thread is no leg of the worker's, even
// when nothing separates them in time. One leg per stage change: two legs in a row of one stage and one
// runner are joined; a leg entered and left at the same instant is dropped,
// unless it changes the runner (a task posted to an idle pool runs at the
// instant it is queued: its 0 ns pool-queue leg holds the change until the
// pool thread's next leg takes its place). A split stage stays one leg with
// its split-off part beside it: the integral that splits it says how much,
// never when. Bounded: kLegs legs per request; past them, the last leg sums
// the rest (its stage kCount) and counts the legs it holds.
//
// The clocks are kept only for the requests in flight: a connection's
// clock is freed when its response is read or the connection closes, and
// the slot goes to the next request begun (connection ids are never
// reused). What the UI replays afterwards is the aggregate's copy: the
// exemplar of each latency bucket and the worst request, each with its
// journey (StageAggregate).
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"

namespace models {

enum class Stage : std::uint8_t {
  kClient,       // wrk's side: an open-loop request due while its connection is busy; wrk's thread on the server host
  kNetwork,      // the network's one-way delay, both ways
  kBacklog,      // in the listen queue, not yet accepted
  kLoopBlocked,  // its event was ready, but its worker's loop was in D for another request
  kLoopBusy,     // its event was ready, but its worker's loop was running other work
  kTimer,        // sendfile_max_chunk's 1 ms timer between chunks
  kRunQueue,     // its handler (worker or pool thread) runnable, waiting for a CPU
  kCpu,          // its handler on a CPU
  kPoolQueue,    // a thread-pool task waiting for a pool thread
  kDiskSlot,     // its handler in D waiting for a block-layer request slot
  kDiskMetadata, // its handler in D on metadata reads or writes (open()'s path walk)
  kDiskData,     // its handler in D on file data (a page-cache miss)
  kReclaim,      // its handler in D in memory reclaim
  kSocket,       // the response in the socket: send buffer full, NIC line rate
  kCount
};
inline constexpr std::size_t kStages = static_cast<std::size_t>(Stage::kCount);

struct StageInfo {
  const char* key;     // JSON key
  const char* server;  // server words
  const char* store;   // store words (the UI's picture)
};
const StageInfo& stage_info(Stage s);

// The time in each stage, nanoseconds.
using StageSplit = std::array<sim::Time, kStages>;
inline sim::Time split_total(const StageSplit& s) {
  sim::Time t = 0;
  for (sim::Time v : s) t += v;
  return t;
}

// Who runs a leg (see the top).
enum class Runner : std::uint8_t {
  kLoop,     // the worker: its loop and its handler (and every stage outside the server: wrk, the network)
  kPool,     // a pool thread (aio threads; io_uring's io-wq workers, before Linux 5.9), its queue included
  kAio,      // the kernel's native AIO (io_submit): the read is in flight, no thread of NGINX waits for it
  kUring,    // io_uring's async buffered read (5.9+): a callback armed on the pages' wait queue, no thread in D
  kPreload,  // FreeBSD: the aio daemon's 1-byte preload read, or sendfile's own read (1.21.5+)
};

// One leg of a journey: `duration` in `stage`, of which `part` went to
// split_into(stage) (0 for a stage that is not split).
struct Leg {
  sim::Time duration = 0;
  sim::Time part = 0;
};

// A request's stages in order (see the top). Sums to the same latency as its split.
struct Journey {
  static constexpr std::size_t kLegs = 24;  // a sendfile response of a few chunks with a pool read fits; more are folded
  std::array<Leg, kLegs> legs{};
  std::array<Stage, kLegs> stages{};
  std::array<Runner, kLegs> runners{};
  std::uint8_t count = 0;    // legs kept
  std::uint32_t folded = 0;  // 0: none; else the legs the last one sums (>= 2; its stage is then kCount)

  void add(Stage s, Runner r, sim::Time duration, sim::Time part) {
    if (duration < 0) return;
    if (count > 0 && last_stage_ == s && last_runner_ == r) {  // the same leg goes on
      join(duration, part);
      last_empty_ = last_empty_ && duration == 0;
      return;
    }
    if (duration == 0 && (count == 0 || last_runner_ == r)) return;  // no time, no change of runner: no leg
    if (count > 0 && last_empty_ && last_runner_ == r) {
      // The 0 ns leg held the change of runner: this one, of the same runner, takes its place.
      if (folded == 0) stages[count - 1] = s;
      join(duration, part);
    } else {
      append(s, r, duration, part);
    }
    last_stage_ = s;
    last_runner_ = r;
    last_empty_ = duration == 0;
  }
  sim::Time total() const {
    sim::Time t = 0;
    for (std::size_t i = 0; i < count; ++i) t += legs[i].duration;
    return t;
  }

 private:
  void join(sim::Time duration, sim::Time part) {
    legs[count - 1].duration += duration;
    if (folded == 0) legs[count - 1].part += part;
  }
  void append(Stage s, Runner r, sim::Time duration, sim::Time part) {
    if (static_cast<std::size_t>(count) < kLegs) {
      stages[count] = s;
      runners[count] = r;
      legs[count] = Leg{duration, part};
      ++count;
      return;
    }
    // Full: the last leg sums this one too and no longer names one stage.
    if (folded == 0) {
      stages[count - 1] = Stage::kCount;
      legs[count - 1].part = 0;
      folded = 1;  // the leg that was there
    }
    legs[count - 1].duration += duration;
    ++folded;
  }
  // The latest leg added, kept or folded: the next one may join it.
  Stage last_stage_ = Stage::kCount;
  Runner last_runner_ = Runner::kLoop;
  bool last_empty_ = false;  // it lasted 0 ns so far (kept for its change of runner)
};

// The stage clocks of the requests in flight, found by connection id (one
// request in flight per connection, as wrk sends them). Shared by the
// client (begin, end) and the server (the stages in between).
class RequestStages {
 public:
  struct Clock {
    sim::Time began = 0;  // when the latency starts
    sim::Time since = 0;  // when the current stage began
    double mark = 0;      // the splitting integral at `since` (seconds)
    Stage stage = Stage::kClient;
    Runner runner = Runner::kLoop;  // who runs the current stage
    StageSplit spent{};
    Journey journey;
  };

  // A request due at `due` is written at `now` (>= due).
  void begin(std::uint32_t id, sim::Time due, sim::Time now) {
    if (slot_of_.size() <= id) slot_of_.resize(id + 1, kNone);
    if (slot_of_[id] == kNone) slot_of_[id] = take_slot();
    Clock& c = clocks_[slot_of_[id]];
    c = Clock{};
    c.began = c.since = due;
    to(id, Stage::kNetwork, now);
  }
  // The request moves to `next`, run by `runner`, at `now`. `split_now`:
  // the current value of the integral that splits the stage being left (see
  // the top); `next_mark`: the value of the one that will split `next`.
  void to(std::uint32_t id, Stage next, sim::Time now, double split_now = 0, double next_mark = 0,
          Runner runner = Runner::kLoop) {
    Clock* found = find(id);
    if (!found) return;
    Clock& c = *found;
    sim::Time elapsed = now - c.since;
    const Stage part_stage = split_into(c.stage);
    if (part_stage != c.stage) {
      // To the nearest nanosecond: the integrals are doubles in seconds.
      const double grown_ns = (split_now - c.mark) * 1e9;
      sim::Time part = grown_ns > 0 ? static_cast<sim::Time>(std::llround(grown_ns)) : 0;
      part = part > elapsed ? elapsed : part;
      c.spent[static_cast<std::size_t>(part_stage)] += part;
      c.journey.add(c.stage, c.runner, elapsed, part);
      elapsed -= part;
    } else {
      c.journey.add(c.stage, c.runner, elapsed, 0);
    }
    c.spent[static_cast<std::size_t>(c.stage)] += elapsed;
    c.stage = next;
    c.runner = runner;
    c.since = now;
    c.mark = next_mark;
  }
  // The response was read at `now`: the clock stops (its split sums to now
  // - began) and is freed. The clock returned stays valid until the next begin().
  const Clock* end(std::uint32_t id, sim::Time now) {
    if (!find(id)) return nullptr;
    to(id, Stage::kClient, now);
    const std::uint32_t slot = slot_of_[id];
    drop(id);
    return &clocks_[slot];
  }
  // The connection closed with its request in flight: its clock is freed.
  void drop(std::uint32_t id) {
    if (!find(id)) return;
    free_.push_back(slot_of_[id]);
    slot_of_[id] = kNone;
  }
  bool active(std::uint32_t id) const { return id < slot_of_.size() && slot_of_[id] != kNone; }
  // Read-only view for front ends: the stage a request is in now.
  const Clock* clock(std::uint32_t id) const { return active(id) ? &clocks_[slot_of_[id]] : nullptr; }
  // Clocks allocated: the most requests in flight at once so far.
  std::size_t clocks_allocated() const { return clocks_.size(); }

  // The stage a split stage gives its split-off part to (itself when none).
  static constexpr Stage split_into(Stage s) {
    return s == Stage::kLoopBusy || s == Stage::kTimer ? Stage::kLoopBlocked
           : s == Stage::kCpu                          ? Stage::kRunQueue
                                                       : s;
  }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  Clock* find(std::uint32_t id) { return active(id) ? &clocks_[slot_of_[id]] : nullptr; }
  std::uint32_t take_slot() {
    if (free_.empty()) {
      clocks_.emplace_back();
      return static_cast<std::uint32_t>(clocks_.size() - 1);
    }
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  std::vector<std::uint32_t> slot_of_;  // per connection id: its clock's slot, or kNone (4 bytes per connection opened)
  std::vector<Clock> clocks_;           // the slots
  std::vector<std::uint32_t> free_;     // slots of no request in flight
};

// One row of the table `clerk run` prints: the mean split of the requests
// in one latency bucket, or one request's exact split.
struct StageRow {
  std::string label;           // "p50", "p99", "p99.9", "max", or a second
  double latency_s = 0;        // the mean latency of the requests in the row
  std::uint64_t requests = 0;  // requests averaged
  std::array<double, kStages> seconds{};
};

// One request's journey, with its latency (requests = 0: none recorded).
struct JourneyRow {
  double latency_s = 0;
  std::uint64_t requests = 0;
  Journey journey;
};

// What a client group reports.
struct StageTable {
  bool recorded = false;  // false: the engine does not record stages
  std::uint64_t requests = 0;
  std::uint64_t mismatches = 0;  // requests whose split did not sum to their latency within 1 us
  // Requests that never waited for the disk: no time in D for their own file
  // data, metadata or a request slot (every page-cache and metadata lookup
  // they made found its data ready). Time behind a loop blocked on another
  // request's read is not their own wait.
  std::uint64_t without_disk_wait = 0;
  std::vector<StageRow> rows;    // p50, p99, p99.9, max
  std::vector<StageRow> worst_per_second;  // the worst request completed in each second
};

// A client group's aggregate of the splits, bounded in memory.
class StageAggregate {
 public:
  // A response read at `now`, `latency` after it was written (or due).
  void record(sim::Time now, sim::Time latency, const StageSplit& split, const Journey& journey = Journey{});
  // Forget everything recorded so far (the end of a warm-up); the per-second
  // worst requests before `now` stay, as other per-second series do.
  void reset() {
    buckets_.clear();
    count_ = 0;
    mismatches_ = 0;
    without_disk_wait_ = 0;
    worst_latency_ = -1;
    worst_ = StageSplit{};
    worst_journey_ = Journey{};
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t mismatches() const { return mismatches_; }
  StageTable table() const;
  // The row of the requests in the bucket that holds the p-th percentile.
  StageRow percentile_row(double p) const;
  // One request of that bucket (its latest), with its exact split: sums to
  // its latency. requests = 1; empty (requests = 0) before any response.
  StageRow percentile_example(double p) const;
  // The worst request so far, with its exact split (requests = 0: none yet).
  StageRow worst() const;
  // The journeys of the same two requests (as recorded: empty when the
  // engine gave none).
  JourneyRow percentile_journey(double p) const;
  JourneyRow worst_journey() const;

  static std::size_t bucket_of(sim::Time latency);

 private:
  struct Bucket {
    std::uint64_t count = 0;
    StageSplit sum{};
    sim::Time example_latency = 0;  // the latest request in the bucket
    StageSplit example{};
    Journey example_journey;
  };
  // The bucket that holds the p-th percentile (rank ceil(p% of count)), or null.
  const Bucket* bucket_at(double p) const;
  struct Worst {
    sim::Time latency = -1;
    StageSplit split{};
  };
  std::vector<Bucket> buckets_;
  std::uint64_t count_ = 0;
  std::uint64_t mismatches_ = 0;
  std::uint64_t without_disk_wait_ = 0;
  sim::Time worst_latency_ = -1;
  StageSplit worst_{};
  Journey worst_journey_;
  std::vector<Worst> per_second_;
};

}  // namespace models
