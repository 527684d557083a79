// The time-weighted mean of a piecewise-constant quantity (queue length,
// number of busy servers, a state indicator).
#pragma once
#include "sim/time.h"

namespace sim {

class TimeAverage {
 public:
  void set(Time now, double value) {
    integral_ += value_ * static_cast<double>(now - since_);
    since_ = now;
    value_ = value;
    if (value > max_) max_ = value;
  }
  void add(Time now, double delta) { set(now, value_ + delta); }
  double value() const { return value_; }
  double max() const { return max_; }
  // Integral in value-seconds up to `now`.
  double integral(Time now) const {
    return (integral_ + value_ * static_cast<double>(now - since_)) * 1e-9;
  }
  // The mean over [from, now], where `from` is the start or the last restart.
  double mean(Time from, Time now) const {
    return now > from ? (integral(now) - window_base_) / to_seconds(now - from) : value_;
  }
  // Starts a measured window at `now`: mean() and the maximum count from here
  // on; the current value stays, and integral() goes on counting from the
  // start, since its users take differences of it across the restart (how
  // long a loop was in D while an event waited).
  void restart(Time now) {
    window_base_ = integral(now);
    max_ = value_;
  }

 private:
  double value_ = 0;
  double max_ = 0;
  double integral_ = 0;  // value-nanoseconds
  double window_base_ = 0;  // integral() at the last restart, in value-seconds
  Time since_ = 0;
};

}  // namespace sim
