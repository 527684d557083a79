// The files of a scenario as a run finds them at its start, the same in both
// engines: which files the page cache holds (and so which paths the dentry
// and inode caches hold: a file's pages imply its inode), and what a client
// reads for each file.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/clients/popularity.h"
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
MetadataCaches make_metadata_caches(const Scenario& sc, BlockDevice& disk, PageCache& cache,
                                    sim::RandomStream layout_rng, std::uint64_t write_seed);
// The files of the data set on the device (filesystem.h), placed with the
// metadata's ext4 layout; a data set that does not fit is a ConfigError
// naming [dataset] files and both sizes.
std::unique_ptr<Filesystem> make_filesystem(const Scenario& sc, PageCache& cache, std::uint64_t device_capacity,
                                            const MetadataCaches& m, const sim::RandomStreams& streams);
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
