// clerk-disk's view of the server's page cache, so that the metadata blocks
// a FUSE lookup reads (metadata.h) are reclaimed as the model reclaims them:
// under the pressure of the data the server reads.
//
// In the model (page_cache.h) ext4's directory and inode-table blocks are
// block-device pages (sb_bread through the bdev mapping) on the same LRU
// lists, in the same memory, as the data set's pages: every data miss puts
// pages at the inactive list's head, reclaim (shrink_inactive_list) takes
// the inactive tail, and a metadata block no walk has used for a while is
// taken with the data and read again by the next walk that needs it.
//
// Which side's eviction is real, and which is modelled:
//  - data pages: real. The kernel's page cache under the server's memory
//    cgroup decides every data hit and miss; a miss reaches clerk-disk as a
//    FUSE read. clerk-disk's copy of the data's pages decides nothing about
//    data: it is there to push on the metadata blocks;
//  - dentries and FUSE inodes: real. The kernel's dcache, shrunk under the
//    same cgroup with the machine's vfs_cache_pressure, decides which names
//    reach clerk-disk as FUSE lookups (metadata.h says how);
//  - metadata blocks: modelled, here only. A FUSE file system has no block
//    device, so the real page cache holds no directory or inode-table block;
//    whether a lookup's blocks are still cached is clerk-disk's to decide,
//    in the LRU the model would keep: its own PageCache (the model's code),
//    of the scenario's page_cache bytes (the server cgroup's cache), holding
//    these blocks (read_block) beside the data the real cache reads in.
//
// What clerk-disk sees of the real LRU, and how it enters the model's:
//  - a FUSE read: pages the kernel has just added to its page cache
//    (filemap_add_folio, for readahead or a miss): PageCache::fill inserts
//    them at the inactive list's head, reclaiming the oldest pages first,
//    data or metadata, and accesses them, as the model's read() and
//    access_after_wait() leave a unit read from the device;
//  - a FUSE open: NGINX opens the file for each request and reads it whole,
//    so each page of it the real cache holds is accessed (mark_page_accessed
//    on a hit, which never reaches clerk-disk): every unit of the file
//    clerk-disk's view holds is accessed then, as the model's read hits
//    access them. A file requested again while cached (the hot file) is
//    thus promoted to the active list as in the model, and the inactive
//    list, on which a once-used metadata block waits for reclaim, is no
//    longer than the model's. (With open_file_cache NGINX opens a file less
//    often than it serves it, and clerk-disk sees fewer accesses than the
//    model makes; the scenarios run emulated have none.)
//
// Where the two LRUs still differ: the kernel's is per memory cgroup and
// node, with refault detection (5.x's workingset: a page read again soon
// after its eviction goes to the active list), the model's is 3.13's; a
// read's pages enter clerk-disk's view when the read arrives, while they are
// under I/O, where the model lists them when the I/O ends (at most the reads
// outstanding, the newest pages, which reclaim reaches last); and the slab
// (the kernel's dentries and inodes, about 1 KB a name: 1 MB for the scaled
// 9x tree against its 512 MB) is not charged to clerk-disk's view.
//
// On the disk thread only (RealtimeDisk::post), as MetadataReads.
#pragma once
#include <cstdint>

#include "models/os/page_cache.h"

namespace testbed::disk {

struct CachePressureStats {
  std::uint64_t reads = 0;  // FUSE reads entered
  std::uint64_t opens = 0;  // FUSE opens entered
};

class CachePressure {
 public:
  explicit CachePressure(models::PageCache& cache) : cache_(cache) {}

  // The kernel read [offset, offset + length) of the data set's file `file`
  // through FUSE. A file or range outside the data set enters nothing.
  void data_read(std::uint32_t file, std::uint64_t offset, std::uint64_t length);
  // The file `file` was opened: its cached units are accessed.
  void file_opened(std::uint32_t file);
  CachePressureStats stats() const { return stats_; }

 private:
  models::PageCache& cache_;
  CachePressureStats stats_;
};

}  // namespace testbed::disk
