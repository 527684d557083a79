// The page cache over file data, with Linux's two-list LRU and on-demand
// readahead (mm/filemap.c, mm/readahead.c of Linux 3.x, reduced to what
// decides hits, misses and I/O sizes).
//
// Granularity: the cache tracks `unit_bytes` blocks (a multiple of the 4 KiB
// page). sendfile() pulls file data through a pipe 64 KiB at a time and every
// readahead window of a sequential read is a multiple of 64 KiB, so 64 KiB
// units give the same I/O as 4 KiB pages at a sixteenth of the bookkeeping.
//
// LRU: new pages enter the inactive list; a second access to an inactive
// page moves it to the active list (mark_page_accessed). Reclaim first moves
// the active list's tail back while the active list is the larger
// (inactive_file_is_low), then frees the inactive tail. Pages under I/O are
// not reclaimable.
//
// The block device's own pages (the buffer cache: ext4's directory blocks
// and inode-table blocks, read with sb_bread / sb_breadahead through the
// block device's mapping) live in the same LRU lists and the same memory as
// file pages, so reclaim takes both together, oldest first. They are kept
// at their true 4 KiB granularity (read_block): a metadata block is one
// page, found through a hash of block numbers (a per-block slot array over a
// 2 TB device would take 2 GB), while a file unit is unit_bytes. Memory is
// counted in 4 KiB pages; capacity is the page_cache bytes less what the
// slab caches (dentries, inodes: vfs_cache.h) take, told with set_slab_pages.
//
// Reclaim reports each page it scans to a ReclaimListener (shrink_slab() is
// driven by shrink_inactive_list's nr_scanned in mm/vmscan.c of 3.13).
//
// Readahead (ondemand_readahead): a miss at the start of a file, or right
// after the previous read, starts a window of get_init_ra_size(); reaching the
// window's marker page starts the next window asynchronously, twice (or four
// times) as large, up to the device's readahead limit. Reads then wait only
// for pages still under I/O.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "models/hardware/block_device.h"
#include "sim/engine.h"
#include "sim/flat_map.h"
#include "sim/ring.h"
#include "sim/slot_pool.h"

namespace models {

class PageWaiter {
 public:
  virtual void on_page_ready(std::uint64_t tag) = 0;
  // The task that reads (the kernel's `current`): its readahead is submitted
  // under its plug, and a request-slot sleep is its (kNoTask: nobody known).
  virtual std::uint32_t submitter_task() const { return kNoTask; }

 protected:
  ~PageWaiter() = default;
};

// Per open file (struct file_ra_state), in 4 KiB pages.
struct ReadaheadState {
  std::int64_t start = 0;
  std::int64_t size = 0;
  std::int64_t async_size = 0;
  std::int64_t prev_page = -1;
};

struct PageCacheSpec {
  std::uint64_t capacity_bytes = 0;
  std::uint64_t unit_bytes = 64 * 1024;
  std::uint64_t max_bio_bytes = 1024 * 1024;  // BIO_MAX_PAGES (256) x 4 KiB
};

struct PageCacheStats {
  std::uint64_t lookups = 0;
  std::uint64_t hits = 0;
  std::uint64_t waits = 0;
  std::uint64_t inserted_units = 0;
  std::uint64_t thrashed_units = 0;  // read ahead, evicted unused, then read again on their own
  std::uint64_t evicted_units = 0;
  std::uint64_t readahead_windows = 0;
  std::uint64_t bios = 0;
  std::uint64_t resident_units = 0;
  std::uint64_t active_units = 0;
  // O_DIRECT reads (read_direct): they pass the cache by, so none of them
  // is a lookup, a hit or an inserted unit.
  std::uint64_t direct_reads = 0;
  std::uint64_t direct_bytes = 0;
};

// Told of every read the page cache submits and of every one the device
// completes (the kernel's work to take the data in).
class CacheFillSink {
 public:
  // `task` (kNoTask: unknown) submits a read: the sink's note of it (where
  // its completion will run), handed back to filled().
  virtual std::uint32_t submitted(std::uint32_t task) = 0;
  // The device has read `bytes`. false: its pages are uptodate now. true:
  // the completion still has work to do first, and the pages are uptodate
  // (and their waiters woken, as folio_end_read() does at the end of
  // bio_endio()) only when the sink calls PageCache::fill_done(tag).
  virtual bool filled(std::uint64_t bytes, std::uint32_t note, std::uint64_t tag) = 0;

 protected:
  ~CacheFillSink() = default;
};

// Told how many pages reclaim scanned on the inactive list, and how many
// pages the LRU lists hold (shrink_slab()'s nr_pages_scanned and lru_pages).
class ReclaimListener {
 public:
  virtual void on_reclaim_scan(std::uint64_t scanned_pages, std::uint64_t lru_pages) = 0;

 protected:
  ~ReclaimListener() = default;
};

struct MetadataBlockStats {
  std::uint64_t lookups = 0;
  std::uint64_t hits = 0;
  std::uint64_t blocks_read = 0;  // blocks read from the device, readahead included
  std::uint64_t blocks_evicted = 0;  // blocks reclaim took
};

class PageCache final : public IoListener, public sim::EventTarget {
 public:
  static constexpr std::uint64_t kPage = 4096;

  PageCache(BlockDevice& device, const PageCacheSpec& spec);

  // Files are contiguous extents on the device.
  std::uint32_t add_file(std::uint64_t device_offset, std::uint64_t size);
  std::uint32_t files() const { return static_cast<std::uint32_t>(files_.size()); }
  std::uint64_t file_size(std::uint32_t file) const { return files_[file].size; }
  std::uint64_t units_of(std::uint32_t file) const;
  std::uint64_t unit_bytes() const { return spec_.unit_bytes; }
  // Bytes of unit `unit` of `file` (the last unit may be short).
  std::uint64_t unit_length(std::uint32_t file, std::uint64_t unit) const;

  enum class Result { kReady, kWait };
  // One step of a sequential read: unit `unit` of `file`, as part of a read
  // call asking for `request_units` units from here. Triggers readahead as
  // Linux would. kReady: the unit is cached and was accessed. kWait: it is
  // under I/O; `waiter` is called with `tag` when it is ready, and the reader
  // must then call `access_after_wait`.
  Result read(std::uint32_t file, std::uint64_t unit, std::uint64_t request_units, ReadaheadState& ra,
              PageWaiter* waiter, std::uint64_t tag);
  void access_after_wait(std::uint32_t file, std::uint64_t unit);
  bool cached(std::uint32_t file, std::uint64_t unit) const;

  // A read of a file opened with O_DIRECT (direct_io.h): `length` bytes at
  // `offset` of `file`, already rounded out to the alignment, go from the
  // device to the reader's buffer with no lookup, no page cache entry and no
  // readahead (generic_file_read_iter's IOCB_DIRECT branch). Always waits:
  // `waiter` is called with `tag` when the device is done.
  void read_direct(std::uint32_t file, std::uint64_t offset, std::uint64_t length, PageWaiter* waiter,
                   std::uint64_t tag);

  // Loads a file as if it had been read before the run (a warm cache).
  void preload(std::uint32_t file);
  // Room for a preload of `units` cached units and as many more (at most the
  // cache's capacity in pages), made once before it, so that the entries are
  // not copied as they grow. Changes no behaviour.
  void reserve_units(std::uint64_t units);
  // Units of `file` that I/O outside this model brought in (clerk-disk: the
  // real kernel's page cache, filled through FUSE, testbed/disk/
  // cache_pressure.h), left as read() and access_after_wait() leave a unit
  // read from the device: a missing unit is inserted (room reclaimed first,
  // as for a read) at the inactive list's head, uptodate, then accessed;
  // a cached one is accessed. Submits nothing. Units past the file's end,
  // and a file never added, are ignored.
  void fill(std::uint32_t file, std::uint64_t first_unit, std::uint64_t units);
  // Drops a file's cached pages (its inode was evicted); pages under I/O stay.
  void drop_file(std::uint32_t file);

  // On an event heap: a read's waiters are told in an event of their own at
  // the same instant, after every event already due then, as SimGrid ends
  // every activity of an instant before any actor resumes. Without it, a
  // reader woken by one read could look up the pages of another read that
  // ends at the same instant before that read is marked done, and count a
  // miss that waits zero seconds.
  void defer_wakeups(sim::Engine& engine) { engine_ = &engine; }

  // The block device's block `block` (4 KiB), as sb_bread() reads it: kReady
  // when cached (and accessed); otherwise every missing block of
  // [ra_first, ra_first + ra_count) and `block` itself is read (contiguous
  // runs under one plug), and kWait: `waiter` is called with `tag` when
  // `block` is ready; the reader then calls access_block_after_wait.
  Result read_block(std::uint64_t block, std::uint64_t ra_first, std::uint64_t ra_count, PageWaiter* waiter,
                    std::uint64_t tag);
  void access_block_after_wait(std::uint64_t block);
  bool block_cached(std::uint64_t block) const;
  MetadataBlockStats block_stats() const { return block_stats_; }

  // Memory the slab caches hold, in pages: taken from the same budget.
  void set_slab_pages(std::uint64_t pages) { slab_pages_ = pages; }
  std::uint64_t capacity_pages() const { return capacity_pages_; }
  std::uint64_t resident_pages() const { return resident_pages_; }
  void set_reclaim_listener(ReclaimListener* listener) { reclaim_listener_ = listener; }

  PageCacheStats stats() const;
  void on_io_done(std::uint64_t tag) override;
  void on_event(std::uint64_t waiters) override;
  void set_fill_sink(CacheFillSink* sink) { fill_sink_ = sink; }
  // The completion of the read `tag` (CacheFillSink::filled) has run.
  void fill_done(std::uint64_t tag) { finish_read(static_cast<std::uint32_t>(tag)); }
  // Bytes submitted to the device so far (every bio's length).
  std::uint64_t submitted_bytes() const { return submitted_bytes_; }

 private:
  enum List : std::uint8_t { kNone, kInactive, kActive };
  struct Entry {
    std::uint64_t slot = 0;  // its place in slots_
    std::uint32_t prev = kNil, next = kNil;
    std::uint32_t bio = kNil;
    List list = kNone;
    bool uptodate = false;
    bool referenced = false;
    bool marker = false;
    bool block = false;  // a block device page (slot is its block number)
  };
  struct ListHead {
    std::uint32_t head = kNil, tail = kNil;
    std::uint64_t count = 0;
  };
  struct File {
    std::uint64_t device_offset;
    std::uint64_t size;
    std::uint64_t units;
    std::uint64_t first_slot;  // its units' places in slots_
  };
  struct Waiter {
    PageWaiter* waiter;
    std::uint64_t tag;
  };
  struct Bio {
    std::uint32_t file;
    std::uint64_t first_unit;
    std::uint64_t units;
    std::uint64_t bytes;  // what the device reads (the file's last unit may be short)
    std::uint32_t fill_note;  // CacheFillSink::submitted()'s
    bool direct = false;      // read_direct's: fills no page
    std::vector<Waiter> waiters;
  };
  static constexpr std::uint32_t kNil = UINT32_MAX;
  struct FreeSlots {
    void operator()(std::uint32_t* p) const { std::free(p); }
  };

  // The block device's pseudo-file (read_block): units are 4 KiB blocks.
  static constexpr std::uint32_t kBlockFile = UINT32_MAX - 1;

  // The entry holding unit `unit` of `file`, or kNil.
  std::uint32_t find(std::uint32_t file, std::uint64_t unit) const {
    if (file == kBlockFile) return block_index_.find(unit);
    const File& f = files_[file];
    // Slots hold entry + 1, so an empty slot (0) gives kNil.
    return unit < f.units ? slots_[f.first_slot + unit] - 1 : kNil;
  }
  void grow_slots(std::uint64_t needed);
  void ondemand_readahead(std::uint32_t file, std::uint64_t unit, std::uint64_t request_units,
                          ReadaheadState& ra, bool hit_marker);
  bool submit_window(std::uint32_t file, std::int64_t start_page, std::int64_t pages, std::int64_t marker_page);
  bool submit_window_plugged(std::uint32_t file, std::int64_t start_page, std::int64_t pages, std::int64_t marker_page);
  std::uint32_t allocate(std::uint32_t file, std::uint64_t unit);
  std::uint32_t allocate_block(std::uint64_t block);
  std::uint32_t insert_uptodate(std::uint32_t file, std::uint64_t unit);
  void make_room(std::uint64_t pages);
  void submit_blocks(std::uint64_t block, std::uint64_t ra_first, std::uint64_t ra_count, std::uint32_t task);
  std::uint64_t entry_pages(std::uint32_t e) const { return entries_[e].block ? 1 : pages_per_unit_; }
  std::uint64_t device_offset(std::uint32_t file, std::uint64_t unit) const;
  void submit_run(std::uint32_t file, std::uint64_t first_unit, std::uint64_t units, std::uint32_t task);
  void finish_read(std::uint32_t bio);
  void reclaim_one();
  void touch(std::uint32_t e);
  void unlink(std::uint32_t e);
  void push_head(List list, std::uint32_t e);
  void free_entry(std::uint32_t e);
  std::int64_t init_ra_pages(std::int64_t request, std::int64_t max) const;
  std::int64_t next_ra_pages(std::int64_t current, std::int64_t max) const;

  BlockDevice& device_;
  PageCacheSpec spec_;
  std::uint64_t capacity_units_;
  std::uint64_t pages_per_unit_;
  std::vector<File> files_;
  // One slot per unit of every file, in file order: a file's units are
  // neighbours, so a sequential read walks one cache line after another (a
  // hash of 700,000 units spread them over 32 MB). Zeroed by calloc, so the
  // slots of files never read are never touched.
  std::unique_ptr<std::uint32_t[], FreeSlots> slots_;
  std::uint64_t slot_count_ = 0;
  std::uint64_t slot_capacity_ = 0;
  sim::SlotPool<Entry> entries_;
  sim::SlotPool<Bio> bios_;
  std::vector<std::vector<Waiter>> waking_;  // on_io_done's copies of the waiters
  std::size_t waking_depth_ = 0;
  sim::Engine* engine_ = nullptr;  // defer_wakeups()
  const PageWaiter* reader_ = nullptr;  // read()'s caller while it runs
  sim::Ring<Waiter> deferred_;     // waiters of reads done, in order, until their event
  ListHead lists_[3];
  std::uint64_t resident_ = 0;        // entries
  std::uint64_t resident_pages_ = 0;  // their 4 KiB pages
  std::uint64_t capacity_pages_ = 0;
  std::uint64_t slab_pages_ = 0;
  sim::FlatMap block_index_;  // block number -> entry
  MetadataBlockStats block_stats_;
  ReclaimListener* reclaim_listener_ = nullptr;
  PageCacheStats stats_;
  CacheFillSink* fill_sink_ = nullptr;
  std::uint64_t submitted_bytes_ = 0;
};

}  // namespace models
