// The files a server serves: a directory tree of equal-sized files under the
// server's root, laid out on the block device, and the dentry keys of each
// file's path for open().
//
// Placement "spread": each file is a contiguous extent at a random
// file-aligned slot over the whole device, as ext4's Orlov allocator spreads
// directories over all block groups. "packed": files back to back from the
// start of the device.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/os/page_cache.h"
#include "sim/random.h"

namespace models {

struct FilesystemSpec {
  std::uint32_t files = 1;
  std::uint64_t file_size = 4096;
  // A mix of sizes (bytes, weight); when set, each file's size is drawn from it.
  std::vector<std::pair<std::uint64_t, double>> size_mix;
  std::vector<std::uint32_t> tree;  // entries per level; the product is `files`
  bool spread = true;
};

// The file id of a "/1/1/1" style path in a tree (1-based names at each
// level), or -1 when the path names no file of it.
std::int64_t resolve_path(const std::vector<std::uint32_t>& tree, const std::string& path);

class Filesystem {
 public:
  // Registers every file with the page cache, in file-id order.
  Filesystem(const FilesystemSpec& spec, PageCache& cache, std::uint64_t device_capacity, sim::RandomStream rng,
             sim::RandomStream size_rng = sim::RandomStream(0));  // size_rng: only for a size mix

  std::uint32_t files() const { return spec_.files; }
  std::uint64_t file_size(std::uint32_t file) const { return sizes_.empty() ? spec_.file_size : sizes_[file]; }
  std::uint64_t largest_file() const;
  std::uint32_t depth() const { return static_cast<std::uint32_t>(spec_.tree.size()); }
  // Dentry keys of each level of the file's path, outermost first.
  std::uint32_t components(std::uint32_t file, std::uint64_t* out) const;
  // "/1/1/1" style path (1-based names at each level), and back; -1 if none.
  std::string path(std::uint32_t file) const;
  // The file whose inode a dentry key names, or -1 for a directory's key.
  std::int64_t file_of_key(std::uint64_t key) const {
    return (key >> 56) == spec_.tree.size() ? static_cast<std::int64_t>(key & ((1ULL << 56) - 1)) : -1;
  }
  std::int64_t file_of(const std::string& path) const;

 private:
  FilesystemSpec spec_;
  std::vector<std::uint64_t> sizes_;  // per file, when the sizes are a mix
};

}  // namespace models
