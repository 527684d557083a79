// A processor-sharing (fair-share) resource: capacity C units/s shared equally
// by the n jobs present, each limited to at most `per_job_cap` units/s
// (a CPU core, say). Each job gets r = min(per_job_cap, C/n).
//
// Implemented with virtual time V (work done by any one job since the last
// idle period): a job that arrives at V0 with work w finishes when V reaches
// V0 + w, whatever comes and goes meanwhile. A binary heap keyed on that
// finish tag gives O(log n) per arrival, extension and departure.
//
// A job may ask to be told when its remaining work falls to a threshold
// (a socket's send buffer draining to its low-water mark, for instance)
// before it completes.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/engine.h"
#include "sim/slot_pool.h"

namespace sim {

class FairShareListener {
 public:
  // `job` has `remaining` units left: 0 when it completed (and is gone),
  // otherwise its threshold was reached (and is cleared).
  virtual void on_share_milestone(std::uint32_t job, std::uint64_t tag, double remaining) = 0;

 protected:
  ~FairShareListener() = default;
};

class FairShare final : public EventTarget {
 public:
  static constexpr double kUncapped = std::numeric_limits<double>::infinity();
  static constexpr std::uint32_t kNoJob = UINT32_MAX;

  FairShare(Engine& engine, double capacity, double per_job_cap = kUncapped);

  std::uint32_t add(double work, FairShareListener* listener, std::uint64_t tag);
  void extend(std::uint32_t job, double more_work);
  // extend() for a caller adding several pieces to one job at one instant:
  // the job's work and remaining() are updated at once, its place in the
  // heap and the next milestone once, by settle(), which must follow before
  // anything else uses this resource. The result is exactly that of calling
  // extend() for each piece (the same heap, the same milestone, the same
  // floating-point sums, the same count of engine events).
  void extend_deferred(std::uint32_t job, double more_work);
  void settle();
  void set_threshold(std::uint32_t job, double remaining);
  void cancel(std::uint32_t job);
  double remaining(std::uint32_t job);

  std::size_t active() const { return heap_.size(); }
  double rate_per_job() const;
  double capacity() const { return capacity_; }
  // Units served since the start (exact up to floating point).
  double served();
  // Time-integral of busy capacity share (0..1), for utilisation.
  double busy_integral();

  void on_event(std::uint64_t arg) override;

 private:
  struct Job {
    double finish = 0;     // virtual finish tag
    double threshold = 0;  // notify when remaining <= threshold (0: only at finish)
    std::uint32_t heap_pos = 0;
    FairShareListener* listener = nullptr;
    std::uint64_t tag = 0;
    bool live = false;
  };
  double key(std::uint32_t j) const { return jobs_[j].finish - jobs_[j].threshold; }
  void check_job(std::uint32_t j) const;  // CLERK_ASSERTs (sim/assert.h)
  void check_settled() const;
  void advance();
  void reschedule();
  Time due(double dv) const;
  void sift_up(std::uint32_t pos);
  void sift_down(std::uint32_t pos);
  void heap_remove(std::uint32_t job);
  void place(std::uint32_t pos, std::uint32_t job) {
    heap_[pos] = job;
    jobs_[job].heap_pos = pos;
  }

  Engine& engine_;
  double capacity_;
  double per_job_cap_;
  double vtime_ = 0;
  Time last_ = 0;
  double served_ = 0;
  double busy_ = 0;
  SlotPool<Job> jobs_;
  std::vector<std::uint32_t> heap_;
  std::uint64_t generation_ = 0;
  std::uint32_t timer_;  // the engine event of the next milestone
  std::uint32_t deferred_job_ = kNoJob;
  bool deferred_front_moves_ = false;  // it is the root and its growth moves the next milestone
  Time deferred_due_ = kNever;     // the milestone the last deferred extend() would have set
  Time replaced_at_ = kNever;      // settings extend() would have made and replaced, not yet told
  std::uint64_t replaced_count_ = 0;
};

}  // namespace sim
