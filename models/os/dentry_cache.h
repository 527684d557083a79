// The dentry/inode cache: path components already resolved. A plain LRU of
// bounded size; entries are keys chosen by the caller (one per directory
// level and one per file inode). An evicted entry is reported to a listener:
// when Linux evicts an inode it drops the file's pages too.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <unordered_map>

namespace models {

class DentryCache {
 public:
  explicit DentryCache(std::uint64_t capacity) : capacity_(capacity) {}
  void on_evict(std::function<void(std::uint64_t key)> listener) { on_evict_ = std::move(listener); }

  // True on a hit (and the entry becomes most recently used).
  bool lookup(std::uint64_t key) {
    ++lookups_;
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    order_.splice(order_.begin(), order_, it->second);
    ++hits_;
    return true;
  }
  void insert(std::uint64_t key) {
    if (capacity_ == 0 || index_.count(key)) return;
    if (index_.size() >= capacity_) {
      const std::uint64_t victim = order_.back();
      index_.erase(victim);
      order_.pop_back();
      if (on_evict_) on_evict_(victim);
    }
    order_.push_front(key);
    index_.emplace(key, order_.begin());
  }
  std::uint64_t lookups() const { return lookups_; }
  std::uint64_t hits() const { return hits_; }
  std::size_t size() const { return index_.size(); }

 private:
  std::uint64_t capacity_;
  std::list<std::uint64_t> order_;
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> index_;
  std::function<void(std::uint64_t)> on_evict_;
  std::uint64_t lookups_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace models
