#include "models/scenario/dataset_fit.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

#include "models/os/ext4_layout.h"
#include "models/scenario/disk_kinds.h"

namespace models {

namespace {

// Whatever the placement, the run lays the tree out as ext4 would on the
// disk ([disk]'s capacity; Ext4Layout, for the metadata a path walk reads),
// and ext4 has a fixed number of inodes: one per directory and file, after
// the reserved ones. Counted here, so that no layout is built to find out.
std::string inodes_misfit(const FilesystemSpec& f, std::uint64_t capacity) {
  const std::uint64_t needed = Ext4Layout::inodes_needed(f.tree);
  const std::uint64_t inodes = Ext4Layout::inode_count(capacity);
  if (needed <= inodes) return "";
  const std::uint64_t directories = needed - Ext4Geometry::kFirstIno - f.files;
  return fmt::format("the data set needs {} inodes ({} files, {} directories and ext4's {} reserved ones), but ext4 "
                     "on the disk's {} bytes has {} ({} per block group of {} bytes): give a larger disk, or fewer "
                     "files",
                     needed, f.files, directories, Ext4Geometry::kFirstIno, capacity, inodes,
                     Ext4Geometry::kInodesPerGroup, Ext4Geometry::kBlock * Ext4Geometry::kBlocksPerGroup);
}

// With no disk, every file lives in the page cache from the start, in
// whole cache units, and a read that misses would have nowhere to go.
std::string page_cache_misfit(const Scenario& sc, const DiskKind& disk, std::uint64_t largest) {
  const FilesystemSpec& f = sc.filesystem;
  const std::uint64_t unit = sc.hardware.cache_unit_bytes;
  const std::uint64_t units = sc.hardware.page_cache_bytes / unit;
  const std::uint64_t per_file = (largest + unit - 1) / unit;
  if (per_file <= units && f.files <= units / per_file) return "";
  return fmt::format("with disk.type = \"{}\" every file is served from the page cache, and {} files of up to {} "
                     "bytes need {} bytes of it, but memory.page_cache is {}: give the data set a disk, or make it "
                     "smaller",
                     disk.name, f.files, largest, static_cast<double>(f.files) * per_file * unit,
                     sc.hardware.page_cache_bytes);
}

std::uint64_t in_blocks(std::uint64_t bytes) { return (bytes + 4095) / 4096 * 4096; }

// What is certain before the sizes are drawn (they depend on the run's
// seed): every file takes at least its class's smallest size in 4 KiB
// blocks; the run checks the drawn sizes (world_files.h). Sizes given file
// by file (an access log's) are counted whole. With [disks.NAME] the files
// spread over every disk (the run checks each).
std::string ext4_misfit(const Scenario& sc, std::uint64_t capacity, std::uint64_t smallest) {
  const FilesystemSpec& f = sc.filesystem;
  for (const HardwareSpec::NamedDisk& d : sc.hardware.disks) capacity += disk_kind(d.spec).capacity(d.spec);
  double least = static_cast<double>(f.files) * static_cast<double>(in_blocks(smallest));
  if (!f.sizes.empty()) {
    least = static_cast<double>(f.files - std::min<std::uint64_t>(f.files, f.sizes.size())) * 4096.0;
    for (const std::uint64_t s : f.sizes) least += static_cast<double>(in_blocks(s));
  }
  if (least / f.fill_factor <= static_cast<double>(capacity)) return "";
  return fmt::format("the data set does not fit on the disk: its {} files take {}{:.0f} bytes in 4 KiB "
                     "blocks{}, but the device has {} bytes",
                     f.files, f.sizes.empty() ? "at least " : "", least,
                     f.fill_factor < 1
                         ? fmt::format(" ({:.0f} with fill_factor = {:g})", least / f.fill_factor, f.fill_factor)
                         : std::string(),
                     capacity);
}

// Every file gets a slot as large as the largest file, rounded up to a
// page (Filesystem).
std::string spread_misfit(const FilesystemSpec& f, std::uint64_t capacity, std::uint64_t largest) {
  const std::uint64_t slot = in_blocks(largest);
  if (capacity / slot >= f.files) return "";
  return fmt::format("{} files of up to {} bytes do not fit on the disk ({} bytes; each file takes a slot of the "
                     "largest file's size)",
                     f.files, largest, capacity);
}

}  // namespace

std::string dataset_misfit(const Scenario& sc) {
  const FilesystemSpec& f = sc.filesystem;
  std::uint64_t largest = f.file_size, smallest = f.file_size;
  for (const SizeClass& c : f.size_mix) {
    largest = std::max(largest, c.max);
    smallest = std::min(smallest, c.min);
  }
  for (const std::uint64_t s : f.sizes) largest = std::max(largest, s);
  const DiskKind& disk = disk_kind(sc.hardware.disk);
  if (disk.in_memory) return page_cache_misfit(sc, disk, largest);
  const std::uint64_t capacity = disk.capacity(sc.hardware.disk);
  if (std::string m = inodes_misfit(f, capacity); !m.empty()) return m;
  if (f.placement == Placement::kExt4) return ext4_misfit(sc, capacity, smallest);
  return spread_misfit(f, capacity, largest);
}

}  // namespace models
