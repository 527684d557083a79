// Two ways for an event loop to read cached file data itself and hand only
// the misses elsewhere; neither was ever in NGINX.
//
// The RWF_NOWAIT probe ([nginx] aio_nowait, with a thread pool). Linux 4.14
// added preadv2()'s RWF_NOWAIT (IOCB_NOWAIT): a buffered read returns what
// the page cache holds and stops at the first page that is missing or not
// uptodate, with -EAGAIN when that is the first (generic_file_buffered_read
// in mm/filemap.c of 4.14: `if (!page) { if (iocb->ki_flags & IOCB_NOWAIT)
// goto would_block; ...}`, so a missing page starts no readahead; later
// filemap_get_pages() does the same through filemap_update_page()). The
// loop probes a chunk with one preadv2(RWF_NOWAIT) of its range into a
// scratch buffer (one call: 1-byte calls per page cost 0.55 us a page
// against 0.04 ns/B for the range, cpu_costs in host.h); a full read means
// the whole chunk is resident and the loop sendfile()s it; a short read or
// EAGAIN sends the chunk to the pool, as aio threads does every chunk. The
// race: the pages can be evicted between the probe and the sendfile(), which
// then blocks the loop on the disk as aio off would. The probe costs
// nowait_probe plus read_copy_byte for each byte it copied (up to the first
// miss). Here the probe tests residency without touching the LRU (the
// sendfile() that follows does); the kernel's probe would mark the pages
// accessed a few microseconds earlier.
//
// io_uring (aio = "io_uring", Linux 5.1). A ring per worker; a read is an
// SQE submitted by io_uring_enter(), which first issues it inline with
// IOCB_NOWAIT (io_uring/rw.c io_read, the `force_nonblock` issue). Cached:
// it completes inline and its CQE is there when io_uring_enter() returns.
// Would block (-EAGAIN), on a file whose f_mode has FMODE_BUF_RASYNC (ext4,
// XFS and btrfs set it since Linux 5.9, with io_uring's "async buffered
// reads"): io_rw_should_retry() arms a wait_page_queue callback, the read
// starts the readahead and returns -EIOCBQUEUED; when the page is unlocked
// io_async_buf_func() queues task_work that retries the read, and the CQE
// follows. No thread blocks. Before 5.9 (or on another file system) the
// request is punted to io-wq (io_queue_async_work): a bounded worker runs
// the blocking read. A ring's bounded workers are at most min(SQ entries,
// 4 x online CPUs) (io_init_wq_offload: "Do QD, or 4 * CPUS, whatever is
// smallest"), per NUMA node before 5.15, and IORING_REGISTER_IOWQ_MAX_WORKERS
// (5.15) lowers it. Both non-inline paths run here on the worker's pool
// (thread_pool.h): io-wq with that many threads; the callbacks with as many
// "threads" as the ring has entries, each an armed wait entry (they block
// no CPU while waiting). What this does not capture: the callback's retry
// copies the data in the submitting task's task_work, charged here to the
// pool's thread instead of the loop (at read_copy_byte, small).
//
// The loop's costs: uring_op per read (the SQE and its CQE) and
// read_copy_byte for the copy into the buffer, then the buffer's send(),
// priced as sendfile()'s bytes (sendfile_byte), as directio's writev() is.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "models/os/page_cache.h"

namespace models {

// "5.9" or "5.10.0-28-amd64" (uname -r): major and minor.
struct LinuxRelease {
  int major = 0;
  int minor = 0;
  bool at_least(const LinuxRelease& o) const { return major != o.major ? major > o.major : minor >= o.minor; }
};
std::optional<LinuxRelease> parse_linux_release(const std::string& release);

// RWF_NOWAIT's first release (include/uapi/linux/fs.h, 4.14).
inline constexpr LinuxRelease kRwfNowaitSince{4, 14};
// io_uring's async buffered reads with callbacks (io_rw_should_retry, 5.9).
inline constexpr LinuxRelease kAsyncBufferedSince{5, 9};

// Bytes from `position` that the page cache holds uptodate, contiguously,
// up to `length` or the end of the file: what preadv2(RWF_NOWAIT) of that
// range copies before it stops.
std::uint64_t resident_prefix(const PageCache& cache, std::uint32_t file, std::uint64_t position,
                              std::uint64_t length);
// The bytes a chunk of `limit` from `position` covers (the file may end first).
std::uint64_t chunk_bytes(const PageCache& cache, std::uint32_t file, std::uint64_t position, std::uint64_t limit);

enum class UringPath {
  kInline,         // every page cached: completes in io_uring_enter()
  kPageCallback,   // 5.9+: waits on the pages' wait queues, no thread blocked
  kIoWq,           // before 5.9: a bounded io-wq worker runs the read
};
// What a ring does with a read whose range is (or is not) all resident, on
// a kernel with or without async buffered reads.
UringPath uring_read_path(bool resident, bool async_buffered_reads);
// Whether `release` (empty: not named, a current kernel) has async buffered reads.
bool has_async_buffered_reads(const std::string& release);
// The pool that stands for a ring's non-inline reads: io-wq's bounded
// workers (min(entries, 4 x cpus), or max_workers when lower and not 0), or
// one wait entry per SQ entry with callbacks.
std::uint32_t uring_pool_threads(UringPath path, std::uint32_t entries, std::uint32_t cpus,
                                 std::uint32_t max_workers);

}  // namespace models
