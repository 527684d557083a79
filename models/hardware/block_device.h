// What the OS sees of a disk: a device that reads byte ranges and says when
// each read is done. A single drive and an md array both look like this.
#pragma once
#include <cstdint>

namespace models {

class IoListener {
 public:
  virtual void on_io_done(std::uint64_t tag) = 0;

 protected:
  ~IoListener() = default;
};

struct DiskStats {
  std::uint64_t reads = 0;
  std::uint64_t read_bytes = 0;
  double busy_s = 0;           // summed over member drives
  double queue_depth_integral = 0;  // requests (queued + in service) x seconds, summed over drives
  std::uint32_t drives = 1;
};

class BlockDevice {
 public:
  virtual ~BlockDevice() = default;
  virtual void submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                           std::uint64_t tag) = 0;
  virtual std::uint64_t capacity() const = 0;
  // The device's readahead limit (the block layer's ra_pages) in bytes.
  virtual std::uint64_t readahead_bytes() const = 0;
  virtual DiskStats stats() const = 0;
};

}  // namespace models
