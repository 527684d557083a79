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
    return now > from ? integral(now) / to_seconds(now - from) : value_;
  }
  // Forgets the past: the integral and the maximum count from `now` on (the
  // start of a measured window); the current value stays.
  void restart(Time now) {
    integral_ = 0;
    since_ = now;
    max_ = value_;
  }

 private:
  double value_ = 0;
  double max_ = 0;
  double integral_ = 0;  // value-nanoseconds
  Time since_ = 0;
};

}  // namespace sim
