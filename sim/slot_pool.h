// A vector whose freed slots are handed out again, the latest freed first.
// An index is a stable handle for as long as its slot is taken (a T& is not:
// take() may move every slot), and nothing
// is allocated once the pool has grown to its peak: the jobs of a shared
// resource, the reads of a disk, the cached units of a page cache.
//
// With assertions on (sim/assert.h) the pool also remembers which slots are
// taken, and a slot released twice, or an index it never handed out, stops
// the run.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/assert.h"

namespace sim {

template <class T>
class SlotPool {
 public:
  // A slot to fill: a fresh T, or one released earlier (holding what it held).
  std::uint32_t take() {
    if (!free_.empty()) {
      const std::uint32_t i = free_.back();
      free_.pop_back();
      mark(i, true);
      return i;
    }
    items_.emplace_back();
    const auto i = static_cast<std::uint32_t>(items_.size() - 1);
    mark(i, true);
    return i;
  }
  void release(std::uint32_t i) {
    CLERK_ASSERT(i < items_.size(), "SlotPool::release of a slot it never handed out");
    CLERK_ASSERT(is_taken(i), "SlotPool::release of a slot already free");
    mark(i, false);
    free_.push_back(i);
  }

  T& operator[](std::uint32_t i) {
    CLERK_ASSERT(i < items_.size(), "SlotPool index past every slot");
    return items_[i];
  }
  const T& operator[](std::uint32_t i) const {
    CLERK_ASSERT(i < items_.size(), "SlotPool index past every slot");
    return items_[i];
  }
  // Room for `n` slots without moving any: for a pool whose peak is known
  // before it fills (a page cache's preloaded units).
  void reserve(std::size_t n) { items_.reserve(n); }
  // Slots ever made, taken or released.
  std::size_t size() const { return items_.size(); }
  // Slots taken now.
  std::size_t taken() const { return items_.size() - free_.size(); }

 private:
#ifdef CLERK_ASSERTS
  void mark(std::uint32_t i, bool taken) {
    if (taken_.size() <= i) taken_.resize(i + 1, false);
    taken_[i] = taken;
  }
  bool is_taken(std::uint32_t i) const { return i < taken_.size() && taken_[i]; }
  std::vector<bool> taken_;  // only where assertions are checked
#else
  void mark(std::uint32_t, bool) {}
  bool is_taken(std::uint32_t) const { return true; }
#endif

  std::vector<T> items_;
  std::vector<std::uint32_t> free_;
};

}  // namespace sim
