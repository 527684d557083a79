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
//    NGINX opens the file on every request. Entries and attributes never
//    expire (timeouts of 10^6 s): the data set never changes, so the kernel's
//    dentry and inode caches keep them as a disk file system's would;
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
// Metadata (lookup, getattr) is answered at once: charging the directory
// and inode block reads the model counts (models/os/path_walk.h) is left to
// do (the kernel's own dentry and inode caches sit in front of it here).
#pragma once
#include <cstdint>
#include <string>

#include "emulated_machine.h"
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
  FsTuning tuning;
};

// The operations; the session's userdata is a DiskFs.
const fuse_lowlevel_ops& disk_fs_ops();

}  // namespace testbed::disk
