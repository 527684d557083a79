// The files a server serves: a directory tree of equal-sized files under the
// server's root, laid out on the block device, and the dentry keys of each
// file's path for open().
//
// Placement "ext4" (the default): each file takes its own size rounded up to
// 4 KiB blocks, allocated as ext4 does for a data set written once, in
// directory order (Ext4Layout::place_files: from the second block group of
// its inode's flex group on, with a fill factor). A device needs the data
// set's real size; DataSetTooLarge says by how much it falls short.
//
// The older placements, which committed scenarios pin: every file gets a
// slot as large as the largest file, rounded up to a page. "spread": each
// file at a random slot over the whole device, as ext4's Orlov allocator
// spreads directories over all block groups; "packed": slots back to back
// from the start of the device.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/os/ext4_layout.h"
#include "models/os/page_cache.h"
#include "sim/random.h"

namespace models {

enum class Placement { kExt4, kSpread, kPacked };

// One class of a size mix: a share (weight) of the files, with sizes drawn
// uniformly from min to max bytes (one size when min == max).
struct SizeClass {
  SizeClass(std::uint64_t bytes, double w) : min(bytes), max(bytes), weight(w) {}
  SizeClass(std::uint64_t lo, std::uint64_t hi, double w) : min(lo), max(hi), weight(w) {}
  std::uint64_t min, max;
  double weight;
};

struct FilesystemSpec {
  std::uint32_t files = 1;
  std::uint64_t file_size = 4096;
  // A mix of sizes; when set, each file's size is drawn from it.
  std::vector<SizeClass> size_mix;
  std::vector<std::uint32_t> tree;  // entries per level; the product is `files`
  Placement placement = Placement::kExt4;
  double fill_factor = 1.0;  // kExt4: the share of the allocated span that is the data set's
  // When set (a replayed log's data set, models/clients/trace.h): every
  // file's size, in file order, in place of file_size and size_mix.
  std::vector<std::uint64_t> sizes;
};

// Each file's size, as a run draws them: file_size, or from the mix, a class
// by weight (one uniform draw), then, for a class with a range, a size in
// it (a second draw).
std::vector<std::uint64_t> draw_file_sizes(const FilesystemSpec& spec, sim::RandomStream& size_rng);

// The "/1/1/1" style path of file `file` of `files` in a tree (1-based
// names at each level): the URI a client asks for it by.
std::string file_path(const std::vector<std::uint32_t>& tree, std::uint64_t files, std::uint32_t file);

// The file id of a "/1/1/1" style path in a tree (1-based names at each
// level), or -1 when the path names no file of it.
std::int64_t resolve_path(const std::vector<std::uint32_t>& tree, const std::string& path);

// Several disks (models/hardware/disk_set.h): file f's data lives on disk
// disk_of[f]. Disk 0's files are placed as ever (the layout, or slots); the
// files of each other disk back to back in 4 KiB blocks from base[d] (a cache
// directory filled in file order), within capacity[d] bytes.
struct DiskPlacement {
  std::vector<std::uint32_t> disk_of;
  std::vector<std::uint64_t> base, capacity;
};

class Filesystem {
 public:
  // Registers every file with the page cache, in file-id order.
  // `layout`: ext4's (for Placement::kExt4 on a disk); without it, kExt4
  // packs the files by their own sizes from the device's start.
  Filesystem(const FilesystemSpec& spec, PageCache& cache, std::uint64_t device_capacity, sim::RandomStream rng,
             sim::RandomStream size_rng = sim::RandomStream(0),  // size_rng: only for a size mix
             const Ext4Layout* layout = nullptr, const DiskPlacement* disks = nullptr);

  std::uint32_t files() const { return spec_.files; }
  std::uint64_t file_size(std::uint32_t file) const { return sizes_.empty() ? spec_.file_size : sizes_[file]; }
  std::uint64_t largest_file() const;
  // Where the file's data starts on the device.
  std::uint64_t offset(std::uint32_t file) const { return offsets_[file]; }
  // Every file's size (a copy).
  std::vector<std::uint64_t> sizes() const;
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
  std::vector<std::uint64_t> offsets_;  // per file
  void place_in_slots(std::uint64_t capacity, sim::RandomStream& rng);
  void place_on_other_disks(const DiskPlacement& disks);
};

}  // namespace models
