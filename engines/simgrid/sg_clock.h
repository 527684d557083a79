// Time and waiting on SimGrid.
//
// SimGrid's clock is a double in seconds; the models count integer
// nanoseconds (sim::Time). Rounding to the nearest nanosecond gives back the
// integer for every instant both engines can represent; a clock past what
// int64 nanoseconds hold reads as sim::kNever (never a wrapped, negative
// time: sg_run.cpp refuses runs that long, and the models bound every span).
//
// An actor that waits for another to tell it something (a page is ready, an
// event arrived) waits on a Wakeup: a semaphore that gets a token only while
// its actor waits, so a notification is never left over for a later wait.
// Actors run one at a time, so checking a condition and then waiting cannot
// miss a notification given in between.
#pragma once
#include <cmath>
#include <cstdint>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/time.h"

namespace sgengine {

inline sim::Time now_ns() {
  const double ns = simgrid::s4u::Engine::get_clock() * 1e9;
  if (!(ns < 9.2e18)) return sim::kNever;  // 2^63 is 9.22e18; NaN too
  return static_cast<sim::Time>(std::llround(ns));
}

// Times an actor resumed after blocking: the SimGrid engine's counterpart
// of the native engine's event count (one process runs one SimGrid engine).
inline std::uint64_t& resumptions() {
  static std::uint64_t n = 0;
  return n;
}

class Wakeup {
 public:
  Wakeup() : sem_(simgrid::s4u::Semaphore::create(0)) {}

  // Blocks until notify() (true) or until `timeout` seconds have passed
  // (false); a negative timeout waits for ever.
  bool wait(double timeout = -1) {
    waiting_ = true;
    bool notified = true;
    if (timeout < 0)
      sem_->acquire();
    else
      notified = !sem_->acquire_timeout(timeout);
    if (!notified && !waiting_) {
      // Notified at the very instant the timeout fired: take the token.
      sem_->acquire();
      notified = true;
    }
    waiting_ = false;
    ++resumptions();
    return notified;
  }

  void notify() {
    if (!waiting_) return;
    waiting_ = false;
    sem_->release();
  }
  bool waiting() const { return waiting_; }

 private:
  simgrid::s4u::SemaphorePtr sem_;
  bool waiting_ = false;
};

}  // namespace sgengine
