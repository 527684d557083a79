// clerk-disk's file system: libfuse3's low-level API over an
// EmulatedMachine's tree, read-only, each read answered asynchronously once
// the RealtimeDisk says the scenario's disk would have finished it.
//
// The FUSE pitfalls (issue 17), each handled here or in mount_tuning.h:
//  - no direct_io (fi->direct_io stays 0): reads, splice and sendfile go
//    through the page cache, and a miss puts the reading thread in D
//    (folio_wait_locked) as a real disk's would;
//  - keep_cache (fi->keep_cache = 1, FOPEN_KEEP_CACHE): without it every
//    open() invalidates the file's cached pages (fuse_finish_open), and
//    NGINX opens the file on every request;
//  - entry_timeout and attr_timeout are 10^6 s (never, for a run): the data
//    set never changes, and a dentry the kernel caches must cost no disk
//    read, as the model's dentry-cache hit (path_walk.h). With a finite
//    timeout the kernel would send FUSE_LOOKUP (fuse_dentry_revalidate) or
//    FUSE_GETATTR again for a dentry it still holds, and clerk-disk would
//    charge reads the model never makes. So the kernel's own dcache decides:
//    a cached dentry never reaches clerk-disk, and one its shrinker reclaimed
//    (under the server's memory cgroup: dentries and inodes are charged to
//    it) is looked up again and charged;
//  - asynchronous reads (FUSE_CAP_ASYNC_READ, libfuse's default, kept):
//    readahead's pages go as background requests, many at once;
//  - max_readahead (conn->max_readahead) can only lower the bdi's
//    readahead, so it is set to the profile's value and the bdi's
//    read_ahead_kb is written after mounting (mount_tuning.h);
//  - max_background and congestion_threshold (conn->max_background,
//    conn->congestion_threshold; the kernel's defaults are 12 and 9) are
//    raised to the block queue's nr_requests and 3/4 of it, the kernel's
//    own ratio (FUSE_DEFAULT_CONGESTION_THRESHOLD), so that the model sees as
//    many reads outstanding as the kernel would queue for a real disk;
//  - max_pages: libfuse derives it from conn->max_write ((max_write - 1) /
//    page size + 1), which is set to the block queue's max_sectors_kb, the
//    largest request the model's device is sent.
// Metadata. A lookup is answered once the disk model has read what the
// model's path walk reads for a dentry miss: the directory block(s) and,
// unless the kernel still holds the inode, the inode-table block with
// ext4's inode readahead, through a buffer cache (metadata.h says how each
// cache relates to the model's). forget and batch forget keep the count of
// the inodes the kernel holds. getattr, open and opendir read nothing: in
// the model (and in ext4) the inode is read once, by the walk's iget, which
// is the FUSE lookup here (its reply carries the attributes), and stat() or
// open() of a looked-up inode finds it in memory; getattr comes only for an
// inode the kernel holds, as its attributes never expire. A name longer
// than ext4's 255 bytes is ENAMETOOLONG (ext4_lookup), a missing one ENOENT
// (not cached: the kernel asks again), both at once and without a read.
// The metadata blocks share clerk-disk's view of the page cache with the
// data the kernel reads and the files it opens (cache_pressure.h), so that
// the data's reads reclaim them as the model's do.
#pragma once
#include <cstdint>
#include <string>

#include "cache_pressure.h"
#include "emulated_machine.h"
#include "metadata.h"
#include "realtime_disk.h"

struct fuse_lowlevel_ops;

namespace testbed::disk {

struct FsTuning {
  std::uint32_t max_background = 128;
  std::uint32_t congestion_threshold = 96;
  std::uint64_t max_readahead = 128 * 1024;
  std::uint64_t max_request = 512 * 1024;  // max_pages * page size
};

struct DiskFs {
  EmulatedMachine& machine;
  RealtimeDisk& disk;
  MetadataReads& metadata;  // on the disk's thread (a job of `disk`)
  CachePressure& pressure;  // on the disk's thread (a note to `disk`)
  KernelInodes& inodes;
  Ext4Inodes& ext4_inodes;  // on the disk's thread (a note to `disk`)
  FsTuning tuning;
};

// MetadataReads' lookups, done, end the disk's jobs.
class DiskJobs final : public LookupListener {
 public:
  explicit DiskJobs(RealtimeDisk& disk) : disk_(disk) {}
  void lookup_done(std::uint64_t tag) override { disk_.job_done(tag); }

 private:
  RealtimeDisk& disk_;
};

// What a lookup of `name` in directory `parent` answers, before any read:
// an errno (ENOENT: no such parent or name; ENOTDIR: the parent is a file;
// ENAMETOOLONG: longer than ext4's 255 bytes), or the child's inode.
struct LookupAnswer {
  int error = 0;
  std::uint64_t ino = 0;
};
LookupAnswer resolve_lookup(const EmulatedMachine& machine, std::uint64_t parent, const char* name);

// The operations; the session's userdata is a DiskFs.
const fuse_lowlevel_ops& disk_fs_ops();

}  // namespace testbed::disk
