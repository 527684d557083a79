// A first-come first-served waiting line with its time-average length and
// maximum, the two figures every queue in the model reports.
#pragma once
#include "sim/ring.h"

#include "sim/time_average.h"

namespace sim {

template <typename T>
class FifoQueue {
 public:
  void push(Time now, T item) {
    items_.push_back(std::move(item));
    length_.set(now, static_cast<double>(items_.size()));
  }
  T pop(Time now) {
    T item = std::move(items_.front());
    items_.pop_front();
    length_.set(now, static_cast<double>(items_.size()));
    return item;
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& front() const { return items_.front(); }
  T& at(std::size_t i) { return items_[i]; }
  // Removes the item at position i (a scheduler that does not take the head).
  T take(Time now, std::size_t i) {
    T item = std::move(items_[i]);
    items_.erase(i);
    length_.set(now, static_cast<double>(items_.size()));
    return item;
  }
  const TimeAverage& length() const { return length_; }

 private:
  Ring<T> items_;  // no allocation once grown
  TimeAverage length_;
};

}  // namespace sim
