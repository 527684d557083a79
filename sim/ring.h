// A first-in first-out ring buffer over one array that doubles when full.
// Unlike std::deque, which allocates and frees a block whenever the queue
// crosses a block boundary, it allocates only when it grows past its
// largest size so far: a queue that fills and drains costs nothing.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "sim/assert.h"

namespace sim {

template <typename T>
class Ring {
 public:
  void push_back(T item) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = std::move(item);
    ++size_;
  }
  void pop_front() {
    CLERK_ASSERT(size_ > 0, "Ring::pop_front on an empty ring");
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  T& front() {
    CLERK_ASSERT(size_ > 0, "Ring::front of an empty ring");
    return buf_[head_];
  }
  const T& front() const {
    CLERK_ASSERT(size_ > 0, "Ring::front of an empty ring");
    return buf_[head_];
  }
  T& operator[](std::size_t i) {
    CLERK_ASSERT(i < size_, "Ring index past the last item");
    return buf_[(head_ + i) & (buf_.size() - 1)];
  }
  const T& operator[](std::size_t i) const {
    CLERK_ASSERT(i < size_, "Ring index past the last item");
    return buf_[(head_ + i) & (buf_.size() - 1)];
  }
  // Removes item i, keeping the order of the others.
  void erase(std::size_t i) {
    CLERK_ASSERT(i < size_, "Ring::erase past the last item");
    for (std::size_t k = i; k + 1 < size_; ++k) (*this)[k] = std::move((*this)[k + 1]);
    --size_;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void grow() {
    std::vector<T> bigger(buf_.empty() ? 8 : 2 * buf_.size());
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    buf_.swap(bigger);
    head_ = 0;
    // The index arithmetic masks with size - 1.
    CLERK_ASSERT((buf_.size() & (buf_.size() - 1)) == 0, "Ring capacity not a power of two");
  }

  std::vector<T> buf_;  // capacity a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace sim
