// A hash map from 64-bit keys to 32-bit values, stored in one array (open
// addressing, linear probing, deletion by backward shift). Unlike
// std::unordered_map it allocates only when it grows, never per insert, and
// a lookup touches one or two cache lines. Nothing iterates over it, so the
// order of its slots never shows in any result.
#pragma once
#include <cstdint>
#include <vector>

namespace sim {

class FlatMap {
 public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  explicit FlatMap(std::size_t expected = 16) { rehash(capacity_for(expected)); }

  std::uint32_t find(std::uint64_t key) const {
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == kAbsent) return kAbsent;
      if (s.key == key) return s.value;
    }
  }
  bool contains(std::uint64_t key) const { return find(key) != kAbsent; }

  // Inserts or replaces; `value` must not be kAbsent.
  void put(std::uint64_t key, std::uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    std::size_t i = slot_of(key);
    while (slots_[i].value != kAbsent && slots_[i].key != key) i = (i + 1) & mask_;
    if (slots_[i].value == kAbsent) ++size_;
    slots_[i] = Slot{key, value};
  }

  void erase(std::uint64_t key) {
    std::size_t i = slot_of(key);
    while (slots_[i].value != kAbsent && slots_[i].key != key) i = (i + 1) & mask_;
    if (slots_[i].value == kAbsent) return;
    --size_;
    // Backward shift: move later entries of the probe run into the hole.
    for (std::size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].value == kAbsent) break;
      const std::size_t home = slot_of(slots_[j].key);
      // Entry j may move to i when its home is not cyclically in (i, j].
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].value = kAbsent;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t value = kAbsent;
  };
  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  std::size_t slot_of(std::uint64_t key) const {
    // Fibonacci hashing spreads keys that differ only in low or high bits.
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift_) & mask_;
  }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (const Slot& s : old)
      if (s.value != kAbsent) put(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace sim
