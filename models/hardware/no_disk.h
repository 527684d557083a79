// No disk: for servers whose responses come from memory (`return 200 "OK"`,
// or a small file that is always cached). Every file is in the page cache
// from the start; a read reaching this device is a bug in the scenario.
#pragma once
#include <stdexcept>

#include "models/hardware/block_device.h"

namespace models {

// It has no figures.
struct NoDiskSpec {};

class NoDisk final : public BlockDevice {
 public:
  void submit_read(std::uint64_t, std::uint64_t, IoListener*, std::uint64_t) override {
    throw std::logic_error("a read reached a scenario with disk type \"none\"");
  }
  std::uint64_t capacity() const override { return 1ULL << 50; }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  DiskStats stats() const override { return {}; }
};

}  // namespace models
