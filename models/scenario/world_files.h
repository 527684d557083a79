// The files of a scenario as a run finds them at its start, the same in both
// engines: which files the page cache holds (and so which paths the dentry
// and inode caches hold: a file's pages imply its inode), and what a client
// reads for each file.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/clients/popularity.h"
#include "models/hardware/disk_set.h"
#include "models/os/ext4_layout.h"
#include "models/os/filesystem.h"
#include "models/os/path_walk.h"
#include "models/os/page_cache.h"
#include "models/os/vfs_cache.h"
#include "models/scenario/scenario.h"

namespace models {

// Evicting a file's inode drops its pages (Linux: evict() ->
// truncate_inode_pages_final; 3.13's inode_lru_isolate invalidates them
// first).
class InodePages final : public InodeEvictListener {
 public:
  InodePages(const Filesystem& files, PageCache& cache) : files_(files), cache_(cache) {}
  void on_inode_evicted(std::uint64_t key) override {
    const std::int64_t file = files_.file_of_key(key);
    if (file >= 0) cache_.drop_file(static_cast<std::uint32_t>(file));
  }

 private:
  const Filesystem& files_;
  PageCache& cache_;
};

// The kernel's metadata caches of a scenario: the dentry and inode caches
// (sharing the page cache's memory, reclaimed with it), ext4's layout of the
// tree on the device, and the path walk over them.
struct MetadataCaches {
  std::unique_ptr<VfsCache> vfs;
  std::unique_ptr<Ext4Layout> layout;
  std::unique_ptr<PathWalk> walk;
  std::unique_ptr<InodePages> inode_pages;
};
// The machine's disks: [disk]'s device alone, or with [disks.NAME] a
// DiskSet (disk_set.h) of [disk] then each of them, in the scenario's order;
// `set` points at it then. Each further disk draws from streams of its own
// (kStreamMoreDisks), so [disk]'s draws are those of a machine without them.
struct MachineDisks {
  std::unique_ptr<BlockDevice> device;
  const DiskSet* set = nullptr;
  // What the first disk offers: ext4's layout of the tree (directories,
  // inodes, [disk]'s files) spans it alone.
  std::uint64_t first_capacity = 0;
};
MachineDisks make_disks(const HardwareSpec& hw, sim::Engine& engine, const sim::RandomStreams& streams);
// Where each file lives on a set of disks: the disk of its proxy_cache zone's
// path (the longest mount point that holds it), the zone chosen per file by
// split_clients over its URI as a request would (pool_choice.h); [disk] for a
// file with no zone. Empty (no disk_of) with one disk.
DiskPlacement disk_placement(const Scenario& sc, const MachineDisks& disks);

MetadataCaches make_metadata_caches(const Scenario& sc, BlockDevice& disk, std::uint64_t layout_capacity,
                                    PageCache& cache, sim::RandomStream layout_rng, std::uint64_t write_seed);
// The files of the data set on the device (filesystem.h), placed with the
// metadata's ext4 layout; a data set that does not fit is a ConfigError
// naming [dataset] files and both sizes.
std::unique_ptr<Filesystem> make_filesystem(const Scenario& sc, PageCache& cache, std::uint64_t device_capacity,
                                            const MetadataCaches& m, const sim::RandomStreams& streams,
                                            const DiskPlacement* disks = nullptr);
// Ties the inode cache to the files' pages (once the files exist).
void tie_inodes_to_pages(MetadataCaches& m, const Filesystem& files, PageCache& cache);

// Fills the page cache as the scenario says (preload_fraction, preload), and
// the dentry and inode caches with the paths of the files preloaded. A
// preload larger than the page cache is a ConfigError with both sizes (it
// would evict itself as it loads).
void warm_caches(const Scenario& sc, const Filesystem& files, VfsCache& vfs, PageCache& cache);

// What a client reads for each file: NGINX's response header and the file.
// Nothing for a warm-up to settle (warmup.h): no disk, or every file's data
// fits in the page cache and every path in the dentry cache.
bool nothing_to_settle(const Scenario& sc, const Filesystem& files);
// Every file's data fits in the page cache: it never reclaims.
bool data_fits(const Scenario& sc, const Filesystem& files);

std::vector<std::uint64_t> response_bytes(const Scenario& sc, const Filesystem& files);

// Each client group's file picker (popularity.h): the ranking comes from
// kStreamPopularity, drawn only when a group needs it.
std::vector<FilePicker> file_pickers(const Scenario& sc, const Filesystem& files, const sim::RandomStreams& streams);

// The server's configuration: the scenario's, with each client group's
// recorded placement (clerk realrun) for the listen sockets.
NginxConfig server_config(const Scenario& sc);

}  // namespace models
