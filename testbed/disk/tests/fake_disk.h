// A block device for clerk-disk's tests: it records every read and completes
// them when the test says (tests/fake_disk.h is the model tests' own; the
// layering test keeps testbed/ from including tests/).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "models/hardware/block_device.h"

namespace disk_tests {

struct Read {
  std::uint64_t offset, length;
  bool operator==(const Read& o) const { return offset == o.offset && length == o.length; }
};

struct FakeDisk final : models::BlockDevice {
  std::vector<std::pair<models::IoListener*, std::uint64_t>> pending;
  std::vector<Read> reads;
  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* l, std::uint64_t tag) override {
    reads.push_back({offset, length});
    pending.emplace_back(l, tag);
  }
  void complete_all() {
    while (!pending.empty()) {
      auto [l, t] = pending.front();
      pending.erase(pending.begin());
      l->on_io_done(t);
    }
  }
  std::uint64_t capacity() const override { return 1ULL << 41; }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  models::DiskStats stats() const override { return {}; }
};

}  // namespace disk_tests
