// What the page-cache, path-walk, direct-I/O and RWF_NOWAIT tests share: a
// block device that records every read and completes them only when the
// test says, in the order they came (reads submitted while completing are
// completed too).
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "models/hardware/block_device.h"

namespace tests {

struct FakeDisk : models::BlockDevice {
  struct Read {
    std::uint64_t offset, length;
    models::IoListener* listener;
    std::uint64_t tag;
  };
  explicit FakeDisk(std::uint64_t readahead = 128 * 1024, std::uint64_t capacity_bytes = 1ULL << 40)
      : ra(readahead), bytes(capacity_bytes) {}

  std::vector<Read> reads;
  std::size_t completed = 0;  // reads[0, completed) are done
  std::uint64_t ra;           // readahead_bytes(), changeable mid-test
  std::uint64_t bytes;

  void submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* who, std::uint64_t tag) override {
    reads.push_back({offset, length, who, tag});
  }
  std::uint64_t capacity() const override { return bytes; }
  std::uint64_t readahead_bytes() const override { return ra; }
  models::DiskStats stats() const override { return {}; }

  bool all_done() const { return completed == reads.size(); }
  void complete_all() {
    while (completed < reads.size()) {
      const Read r = reads[completed++];
      r.listener->on_io_done(r.tag);
    }
  }
};

}  // namespace tests
