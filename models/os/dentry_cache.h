// The dentry/inode cache: path components already resolved. A plain LRU of
// bounded size; entries are keys chosen by the caller (one per directory
// level and one per file inode). An evicted entry is reported to a listener:
// when Linux evicts an inode it drops the file's pages too.
//
// The LRU list is linked by index through one array, and keys are found
// through an open-addressing map: inserting allocates nothing once the
// arrays have grown (a data set's tens of thousands of paths load in
// milliseconds).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/flat_map.h"

namespace models {

class DentryCache {
 public:
  explicit DentryCache(std::uint64_t capacity) : capacity_(capacity) {}
  void on_evict(std::function<void(std::uint64_t key)> listener) { on_evict_ = std::move(listener); }

  // True on a hit (and the entry becomes most recently used).
  bool lookup(std::uint64_t key) {
    ++lookups_;
    const std::uint32_t n = index_.find(key);
    if (n == kNil) return false;
    unlink(n);
    push_front(n);
    ++hits_;
    return true;
  }
  void insert(std::uint64_t key) {
    if (capacity_ == 0 || index_.contains(key)) return;
    std::uint32_t n;
    if (index_.size() >= capacity_) {
      // The least recently used entry's node takes the new key.
      n = tail_;
      const std::uint64_t victim = nodes_[n].key;
      index_.erase(victim);
      unlink(n);
      if (on_evict_) on_evict_(victim);
    } else {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.emplace_back();
    }
    nodes_[n].key = key;
    push_front(n);
    index_.put(key, n);
  }
  std::uint64_t lookups() const { return lookups_; }
  std::uint64_t hits() const { return hits_; }
  std::size_t size() const { return index_.size(); }

 private:
  static constexpr std::uint32_t kNil = sim::FlatMap::kAbsent;
  struct Node {
    std::uint64_t key = 0;
    std::uint32_t prev = kNil, next = kNil;
  };
  void unlink(std::uint32_t n) {
    Node& node = nodes_[n];
    if (node.prev != kNil) nodes_[node.prev].next = node.next; else head_ = node.next;
    if (node.next != kNil) nodes_[node.next].prev = node.prev; else tail_ = node.prev;
    node.prev = node.next = kNil;
  }
  void push_front(std::uint32_t n) {
    nodes_[n].prev = kNil;
    nodes_[n].next = head_;
    if (head_ != kNil) nodes_[head_].prev = n; else tail_ = n;
    head_ = n;
  }

  std::uint64_t capacity_;
  std::vector<Node> nodes_;  // most recent at head_, least at tail_
  std::uint32_t head_ = kNil, tail_ = kNil;
  sim::FlatMap index_;
  std::function<void(std::uint64_t)> on_evict_;
  std::uint64_t lookups_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace models
