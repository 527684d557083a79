#include "sim/fair_share.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/assert.h"

namespace sim {

namespace {
// Work below this is finished: finish tags are sums of doubles.
constexpr double kEpsilon = 1e-6;
}  // namespace

// A job a caller names is one in the heap, at the place it records.
void FairShare::check_job(std::uint32_t j) const {
  CLERK_ASSERT(j < jobs_.size() && jobs_[j].live, "FairShare: a job that is not running");
  CLERK_ASSERT(jobs_[j].heap_pos < heap_.size() && heap_[jobs_[j].heap_pos] == j,
               "FairShare: a job's heap position does not lead back to it");
}

// extend_deferred() promises a settle() before anything else uses the resource.
void FairShare::check_settled() const {
  CLERK_ASSERT(deferred_job_ == kNoJob, "FairShare: used between extend_deferred() and settle()");
}

FairShare::FairShare(Engine& engine, double capacity, double per_job_cap)
    : engine_(engine), capacity_(capacity), per_job_cap_(per_job_cap), timer_(engine.add_timer(this)) {
  // An infinite capacity would finish work in no time, which a clock that
  // measures progress by elapsed time cannot represent (the milestone would
  // be due now, for ever): the scenario loader keeps rates below
  // models::limits::kMaxRateBytesPerSecond.
  if (!(capacity > 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FairShare: capacity must be positive and finite");
}

double FairShare::rate_per_job() const {
  if (heap_.empty()) return 0;
  return std::min(per_job_cap_, capacity_ / static_cast<double>(heap_.size()));
}

void FairShare::advance() {
  const Time now = engine_.now();
  if (now > last_ && !heap_.empty()) {
    const double dt = to_seconds(now - last_);
    const double r = rate_per_job();
    vtime_ += r * dt;
    served_ += r * dt * static_cast<double>(heap_.size());
    busy_ += dt * (r * static_cast<double>(heap_.size()) / capacity_);
  }
  last_ = now;
}

double FairShare::served() {
  advance();
  return served_;
}

double FairShare::busy_integral() {
  advance();
  return busy_;
}

std::uint32_t FairShare::add(double work, FairShareListener* listener, std::uint64_t tag) {
  check_settled();
  CLERK_ASSERT(listener != nullptr, "FairShare: a job without a listener");
  advance();
  if (heap_.empty()) vtime_ = 0;  // restart virtual time when idle: keeps tags small
  const std::uint32_t j = jobs_.take();
  Job& job = jobs_[j];
  job.finish = vtime_ + std::max(work, 0.0);
  job.threshold = 0;
  job.listener = listener;
  job.tag = tag;
  job.live = true;
  heap_.push_back(j);
  job.heap_pos = static_cast<std::uint32_t>(heap_.size() - 1);
  sift_up(job.heap_pos);
  reschedule();
  return j;
}

void FairShare::extend(std::uint32_t j, double more) {
  check_settled();
  check_job(j);
  advance();
  jobs_[j].finish += more;
  sift_down(jobs_[j].heap_pos);
  reschedule();
}

void FairShare::extend_deferred(std::uint32_t j, double more) {
  check_job(j);
  CLERK_ASSERT(deferred_job_ == kNoJob || deferred_job_ == j, "FairShare: deferred extensions of two jobs at once");
  advance();
  const bool first = deferred_job_ == kNoJob;
  if (first) {
    deferred_job_ = j;
    deferred_front_moves_ = jobs_[j].heap_pos == 0;
  } else if (deferred_due_ == replaced_at_) {
    // The setting extend() made for the previous piece, which this one replaces.
    ++replaced_count_;
  } else {
    if (replaced_count_) engine_.note_replaced(replaced_at_, replaced_count_);
    replaced_at_ = deferred_due_;
    replaced_count_ = 1;
  }
  jobs_[j].finish += more;
  // The milestone extend() would set: from the smallest key, which only this
  // job's growth can move, and only while it is the root and below both of
  // the root's children (the rest of the heap is still in order).
  if (!first && !deferred_front_moves_) return;
  double front = key(heap_.front());
  if (deferred_front_moves_) {
    double rest = std::numeric_limits<double>::infinity();
    for (std::uint32_t c = 1; c <= 2 && c < heap_.size(); ++c) rest = std::min(rest, key(heap_[c]));
    front = std::min(key(j), rest);
    if (key(j) >= rest) deferred_front_moves_ = false;
  }
  deferred_due_ = due(std::max(0.0, front - vtime_));
}

void FairShare::settle() {
  if (deferred_job_ == kNoJob) return;
  // Sifting once with the final key ends where sifting after each piece
  // would: the path follows the smaller child whatever the key.
  sift_down(jobs_[deferred_job_].heap_pos);
  if (replaced_count_) engine_.note_replaced(replaced_at_, replaced_count_);
  replaced_count_ = 0;
  replaced_at_ = kNever;
  deferred_job_ = kNoJob;
  deferred_due_ = kNever;
  reschedule();
}

void FairShare::set_threshold(std::uint32_t j, double remaining_units) {
  check_settled();
  check_job(j);
  advance();
  jobs_[j].threshold = std::max(remaining_units, 0.0);
  sift_up(jobs_[j].heap_pos);
  sift_down(jobs_[j].heap_pos);
  reschedule();
}

void FairShare::cancel(std::uint32_t j) {
  check_settled();
  check_job(j);
  advance();
  heap_remove(j);
  reschedule();
}

double FairShare::remaining(std::uint32_t j) {
  check_job(j);
  advance();
  return std::max(0.0, jobs_[j].finish - vtime_);
}

void FairShare::heap_remove(std::uint32_t j) {
  const std::uint32_t pos = jobs_[j].heap_pos;
  const std::uint32_t last = heap_.back();
  heap_.pop_back();
  if (last != j) {
    place(pos, last);
    sift_up(pos);
    sift_down(jobs_[last].heap_pos);
  }
  jobs_[j].live = false;
  jobs_.release(j);
}

// The next milestone moves at every change: one timer, set again in place.
void FairShare::reschedule() {
  ++generation_;
  if (heap_.empty()) {
    engine_.cancel_timer(timer_);
    return;
  }
  engine_.set_timer(timer_, due(std::max(0.0, key(heap_.front()) - vtime_)), generation_);
}

// When virtual time will have grown by dv. Work left (dv > 0) is never due
// now: advance() measures progress by elapsed time, so a milestone due at
// the same instant would find no progress and be set again, for ever. With a
// finite rate dv / r is never below a nanosecond where it matters (on_event
// treats anything within kEpsilon as reached), so the floor of 1 ns only
// guards against rounding. The sum saturates at kNever (sim::later).
Time FairShare::due(double dv) const {
  Time delay = from_seconds_ceil(dv / rate_per_job());
  if (dv > 0 && delay == 0) delay = 1;
  return later(engine_.now(), delay);
}

void FairShare::on_event(std::uint64_t arg) {
  if (arg != generation_) return;  // superseded by a later change
  check_settled();
  advance();
  // Collect every milestone reached now; call listeners after the heap is
  // consistent, since they may add or extend jobs.
  struct Reached {
    std::uint32_t job;
    std::uint64_t tag;
    FairShareListener* listener;
    double remaining;
  };
  Reached reached[64];
  std::size_t count = 0;
  while (!heap_.empty() && count < 64) {
    const std::uint32_t j = heap_.front();
    const double k = key(j);
    if (k > vtime_ + kEpsilon * std::max(1.0, std::fabs(k))) break;
    Job& job = jobs_[j];
    const double rem = job.finish - vtime_;
    if (job.threshold > 0 && rem > kEpsilon * std::max(1.0, std::fabs(job.finish))) {
      reached[count++] = {j, job.tag, job.listener, rem};
      job.threshold = 0;
      sift_down(job.heap_pos);
    } else {
      reached[count++] = {j, job.tag, job.listener, 0.0};
      heap_remove(j);
    }
  }
  reschedule();
  for (std::size_t i = 0; i < count; ++i)
    reached[i].listener->on_share_milestone(reached[i].job, reached[i].tag, reached[i].remaining);
}

void FairShare::sift_up(std::uint32_t pos) {
  const std::uint32_t j = heap_[pos];
  const double k = key(j);
  while (pos > 0) {
    const std::uint32_t parent = (pos - 1) / 2;
    if (key(heap_[parent]) <= k) break;
    place(pos, heap_[parent]);
    pos = parent;
  }
  place(pos, j);
  CLERK_ASSERT(pos == 0 || key(heap_[(pos - 1) / 2]) <= k, "FairShare: heap out of order after sift_up");
}

void FairShare::sift_down(std::uint32_t pos) {
  const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
  const std::uint32_t j = heap_[pos];
  const double k = key(j);
  for (;;) {
    std::uint32_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && key(heap_[child + 1]) < key(heap_[child])) ++child;
    if (key(heap_[child]) >= k) break;
    place(pos, heap_[child]);
    pos = child;
  }
  place(pos, j);
  CLERK_ASSERT(2 * pos + 1 >= n || key(heap_[2 * pos + 1]) >= k, "FairShare: heap out of order after sift_down");
}

}  // namespace sim
