// A vector whose freed slots are handed out again, the latest freed first.
// An index is a stable handle for as long as its slot is taken (a T& is not:
// take() may move every slot), and nothing
// is allocated once the pool has grown to its peak: the jobs of a shared
// resource, the reads of a disk, the cached units of a page cache.
#pragma once
#include <cstdint>
#include <vector>

namespace sim {

template <class T>
class SlotPool {
 public:
  // A slot to fill: a fresh T, or one released earlier (holding what it held).
  std::uint32_t take() {
    if (!free_.empty()) {
      const std::uint32_t i = free_.back();
      free_.pop_back();
      return i;
    }
    items_.emplace_back();
    return static_cast<std::uint32_t>(items_.size() - 1);
  }
  void release(std::uint32_t i) { free_.push_back(i); }

  T& operator[](std::uint32_t i) { return items_[i]; }
  const T& operator[](std::uint32_t i) const { return items_[i]; }
  // Slots ever made, taken or released.
  std::size_t size() const { return items_.size(); }

 private:
  std::vector<T> items_;
  std::vector<std::uint32_t> free_;
};

}  // namespace sim
