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
// kept beside the sums (Journey): one leg per stage change, a leg entered and
// left at the same instant dropped and two legs in a row in one stage joined,
// so that the UI can replay one customer through the store (issue 16). A
// split stage stays one leg with its split-off part beside it: the integral
// that splits it says how much, never when. Bounded: kLegs legs per request;
// the changes past them are folded into a last leg of no stage (kCount) that
// counts them. The exemplars and the worst request keep their journeys; the
// worst of every second keeps only its split.
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
  std::uint8_t count = 0;    // legs kept
  std::uint32_t folded = 0;  // legs folded into the last leg (its stage then kCount); 0: none

  void add(Stage s, sim::Time duration, sim::Time part) {
    if (duration <= 0) return;
    if (count > 0 && stages[count - 1] == s) {
      legs[count - 1].duration += duration;
      legs[count - 1].part += part;
      return;
    }
    if (static_cast<std::size_t>(count) == kLegs) {  // full: the rest goes to the last leg, which no longer names one stage
      if (stages[count - 1] != Stage::kCount) {
        stages[count - 1] = Stage::kCount;
        legs[count - 1].part = 0;
        folded = 1;  // the leg that was there
      }
      legs[count - 1].duration += duration;
      ++folded;
      return;
    }
    stages[count] = s;
    legs[count] = Leg{duration, part};
    ++count;
  }
  sim::Time total() const {
    sim::Time t = 0;
    for (std::size_t i = 0; i < count; ++i) t += legs[i].duration;
    return t;
  }
};

// Every request's stage clock, indexed by connection id (one request in
// flight per connection, as wrk sends them). Shared by the client (start,
// end) and the server (the stages in between).
class RequestStages {
 public:
  struct Clock {
    sim::Time began = 0;  // when the latency starts
    sim::Time since = 0;  // when the current stage began
    double mark = 0;      // the splitting integral at `since` (seconds)
    Stage stage = Stage::kClient;
    bool active = false;
    StageSplit spent{};
    Journey journey;
  };

  // A request due at `due` is written at `now` (>= due).
  void begin(std::uint32_t id, sim::Time due, sim::Time now) {
    if (clocks_.size() <= id) clocks_.resize(id + 1);
    Clock& c = clocks_[id];
    c = Clock{};
    c.began = c.since = due;
    c.active = true;
    to(id, Stage::kNetwork, now);
  }
  // The request moves to `next` at `now`. `split_now`: the current value of
  // the integral that splits the stage being left (see the top); `next_mark`:
  // the value of the one that will split `next`.
  void to(std::uint32_t id, Stage next, sim::Time now, double split_now = 0, double next_mark = 0) {
    if (id >= clocks_.size()) return;
    Clock& c = clocks_[id];
    if (!c.active) return;
    sim::Time elapsed = now - c.since;
    const Stage part_stage = split_into(c.stage);
    if (part_stage != c.stage) {
      // To the nearest nanosecond: the integrals are doubles in seconds.
      const double grown_ns = (split_now - c.mark) * 1e9;
      sim::Time part = grown_ns > 0 ? static_cast<sim::Time>(std::llround(grown_ns)) : 0;
      part = part > elapsed ? elapsed : part;
      c.spent[static_cast<std::size_t>(part_stage)] += part;
      c.journey.add(c.stage, elapsed, part);
      elapsed -= part;
    } else {
      c.journey.add(c.stage, elapsed, 0);
    }
    c.spent[static_cast<std::size_t>(c.stage)] += elapsed;
    c.stage = next;
    c.since = now;
    c.mark = next_mark;
  }
  // The response was read at `now`: the clock stops; its split sums to now - began.
  const Clock* end(std::uint32_t id, sim::Time now) {
    if (id >= clocks_.size() || !clocks_[id].active) return nullptr;
    to(id, Stage::kClient, now);
    clocks_[id].active = false;
    return &clocks_[id];
  }
  void drop(std::uint32_t id) {
    if (id < clocks_.size()) clocks_[id].active = false;
  }
  bool active(std::uint32_t id) const { return id < clocks_.size() && clocks_[id].active; }
  // Read-only view for front ends: the stage a request is in now.
  const Clock* clock(std::uint32_t id) const { return active(id) ? &clocks_[id] : nullptr; }

  // The stage a split stage gives its split-off part to (itself when none).
  static constexpr Stage split_into(Stage s) {
    return s == Stage::kLoopBusy || s == Stage::kTimer ? Stage::kLoopBlocked
           : s == Stage::kCpu                          ? Stage::kRunQueue
                                                       : s;
  }

 private:
  std::vector<Clock> clocks_;
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
