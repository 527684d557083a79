#include "models/os/page_cache.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>

#include "sim/assert.h"

namespace models {

PageCache::PageCache(BlockDevice& device, const PageCacheSpec& spec) : device_(device), spec_(spec) {
  if (spec.unit_bytes == 0 || spec.unit_bytes % kPage != 0)
    throw std::invalid_argument("page cache: unit must be a multiple of 4 KiB");
  pages_per_unit_ = spec.unit_bytes / kPage;
  capacity_units_ = spec.capacity_bytes / spec.unit_bytes;
  if (capacity_units_ == 0) throw std::invalid_argument("page cache: capacity below one unit");
  capacity_pages_ = capacity_units_ * pages_per_unit_;
}

std::uint32_t PageCache::add_file(std::uint64_t device_offset, std::uint64_t size) {
  const std::uint64_t units = (size + spec_.unit_bytes - 1) / spec_.unit_bytes;
  grow_slots(slot_count_ + units);
  files_.push_back(File{device_offset, size, units, slot_count_});
  slot_count_ += units;
  return static_cast<std::uint32_t>(files_.size() - 1);
}

// Doubling, as a vector grows; while no entry exists the new array needs no
// copy (calloc gives zeros).
void PageCache::grow_slots(std::uint64_t needed) {
  if (needed <= slot_capacity_) return;
  const std::uint64_t capacity = std::max<std::uint64_t>({needed, slot_capacity_ * 2, 1024});
  auto* fresh = static_cast<std::uint32_t*>(std::calloc(capacity, sizeof(std::uint32_t)));
  if (fresh == nullptr) throw std::bad_alloc();
  if (entries_.size() > 0) std::memcpy(fresh, slots_.get(), slot_count_ * sizeof(std::uint32_t));
  slots_.reset(fresh);
  slot_capacity_ = capacity;
}

std::uint64_t PageCache::units_of(std::uint32_t file) const { return files_[file].units; }

std::uint64_t PageCache::unit_length(std::uint32_t file, std::uint64_t unit) const {
  if (file == kBlockFile) return kPage;
  const std::uint64_t start = unit * spec_.unit_bytes;
  return std::min(spec_.unit_bytes, files_[file].size - start);
}

bool PageCache::cached(std::uint32_t file, std::uint64_t unit) const {
  const std::uint32_t e = find(file, unit);
  return e != kNil && entries_[e].uptodate;
}

// get_init_ra_size(): small first reads get a window 4x their size, medium 2x.
std::int64_t PageCache::init_ra_pages(std::int64_t request, std::int64_t max) const {
  std::int64_t size = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(request, 1))));
  if (size <= max / 32) return size * 4;
  if (size <= max / 4) return size * 2;
  return max;
}

// get_next_ra_size(): each further window doubles (quadruples while small).
std::int64_t PageCache::next_ra_pages(std::int64_t current, std::int64_t max) const {
  const std::int64_t size = current < max / 16 ? 4 * current : 2 * current;
  return std::min(size, max);
}

PageCache::Result PageCache::read(std::uint32_t file, std::uint64_t unit, std::uint64_t request_units,
                                  ReadaheadState& ra, PageWaiter* waiter, std::uint64_t tag) {
  std::uint32_t e = find(file, unit);
  const PageWaiter* outer = reader_;  // a read nested in a completion
  reader_ = waiter;
  if (e == kNil) {
    ondemand_readahead(file, unit, request_units, ra, false);
    e = find(file, unit);
    if (e == kNil) {
      // Readahead moved past this unit (it was read ahead once, then
      // evicted before use: thrashing): read it alone, as filemap_get_pages()
      // falls back to filemap_create_folio() for the one missing page.
      submit_window(file, static_cast<std::int64_t>(unit * pages_per_unit_), static_cast<std::int64_t>(pages_per_unit_), -1);
      ++stats_.thrashed_units;
      e = find(file, unit);
    }
  } else if (entries_[e].marker) {
    entries_[e].marker = false;
    // page_cache_async_readahead() (3.13): the mark is cleared, and on a
    // congested queue the window is not read (bdi_read_congested).
    if (!device_.read_congested_at(files_[file].device_offset)) ondemand_readahead(file, unit, request_units, ra, true);
  }
  reader_ = outer;
  ra.prev_page = static_cast<std::int64_t>((unit + 1) * pages_per_unit_) - 1;
  ++stats_.lookups;
  Entry& entry = entries_[e];
  if (entry.uptodate) {
    ++stats_.hits;
    touch(e);
    return Result::kReady;
  }
  ++stats_.waits;
  bios_[entry.bio].waiters.push_back(Waiter{waiter, tag});
  return Result::kWait;
}

void PageCache::access_after_wait(std::uint32_t file, std::uint64_t unit) {
  const std::uint32_t e = find(file, unit);
  if (e != kNil && entries_[e].uptodate) touch(e);
}

void PageCache::ondemand_readahead(std::uint32_t file, std::uint64_t unit, std::uint64_t request_units,
                                   ReadaheadState& ra, bool hit_marker) {
  const std::int64_t max = static_cast<std::int64_t>(std::max<std::uint64_t>(device_.readahead_bytes_at(files_[file].device_offset) / kPage, pages_per_unit_));
  const std::int64_t offset = static_cast<std::int64_t>(unit * pages_per_unit_);
  const std::int64_t request = static_cast<std::int64_t>(std::max<std::uint64_t>(request_units, 1) * pages_per_unit_);
  bool initial = false;
  if (offset == 0) {
    initial = true;
  } else if (ra.size > 0 && (offset == ra.start + ra.size - ra.async_size || offset == ra.start + ra.size)) {
    // The expected next step of a sequential stream.
    ra.start += ra.size;
    ra.size = next_ra_pages(ra.size, max);
    ra.async_size = ra.size;
  } else if (hit_marker) {
    // A marker left by another reader of the same file: continue after the
    // cached run that follows.
    std::int64_t start = offset + static_cast<std::int64_t>(pages_per_unit_);
    const std::int64_t limit = offset + max;
    while (start < limit && find(file, static_cast<std::uint64_t>(start) / pages_per_unit_) != kNil)
      start += static_cast<std::int64_t>(pages_per_unit_);
    if (start >= limit) return;
    ra.start = start;
    ra.size = next_ra_pages(start - offset + request, max);
    ra.async_size = ra.size;
  } else if (request > max || offset - ra.prev_page <= 1) {
    initial = true;  // a large read, or a sequential miss
  } else {
    // A random read: read what was asked for, no more.
    submit_window(file, offset, request, -1);
    return;
  }
  if (initial) {
    ra.start = offset;
    ra.size = init_ra_pages(request, max);
    ra.async_size = ra.size > request ? ra.size - request : ra.size;
  }
  if (offset == ra.start && ra.size == ra.async_size) {
    ra.async_size = next_ra_pages(ra.size, max);
    ra.size += ra.async_size;
  }
  if (submit_window(file, ra.start, ra.size, ra.start + ra.size - ra.async_size)) ++stats_.readahead_windows;
}

// read_pages() submits a window under the task's plug (blk_start_plug /
// blk_finish_plug), so that its bios reach the request queue together.
bool PageCache::submit_window(std::uint32_t file, std::int64_t start_page, std::int64_t pages,
                              std::int64_t marker_page) {
  device_.start_plug(reader_ ? reader_->submitter_task() : kNoTask);
  const bool any = submit_window_plugged(file, start_page, pages, marker_page);
  device_.finish_plug();
  return any;
}

bool PageCache::submit_window_plugged(std::uint32_t file, std::int64_t start_page, std::int64_t pages,
                                      std::int64_t marker_page) {
  const std::uint64_t total_units = units_of(file);
  const std::uint64_t first = static_cast<std::uint64_t>(start_page) / pages_per_unit_;
  const std::uint64_t last = std::min<std::uint64_t>(
      total_units, (static_cast<std::uint64_t>(start_page + pages) + pages_per_unit_ - 1) / pages_per_unit_);
  const std::uint64_t marker_unit =
      marker_page < 0 ? UINT64_MAX : static_cast<std::uint64_t>(marker_page) / pages_per_unit_;
  const std::uint32_t task = reader_ ? reader_->submitter_task() : kNoTask;
  std::uint64_t run_start = 0, run_len = 0;
  bool any = false;
  for (std::uint64_t u = first; u < last; ++u) {
    if (find(file, u) != kNil) {
      if (run_len) submit_run(file, run_start, run_len, task);
      run_len = 0;
      continue;
    }
    const std::uint32_t e = allocate(file, u);
    if (u == marker_unit) entries_[e].marker = true;
    if (run_len == 0) run_start = u;
    ++run_len;
    any = true;
  }
  if (run_len) submit_run(file, run_start, run_len, task);
  return any;
}

// Reclaim until `pages` more fit beside the resident pages and the slab.
void PageCache::make_room(std::uint64_t pages) {
  while (resident_pages_ + slab_pages_ + pages > capacity_pages_ &&
         (lists_[kInactive].count + lists_[kActive].count) > 0)
    reclaim_one();
}

std::uint32_t PageCache::allocate(std::uint32_t file, std::uint64_t unit) {
  if (file == kBlockFile) return allocate_block(unit);
  make_room(pages_per_unit_);
  const std::uint32_t e = entries_.take();
  entries_[e] = Entry{};
  entries_[e].slot = files_[file].first_slot + unit;
  slots_[entries_[e].slot] = e + 1;
  ++resident_;
  resident_pages_ += pages_per_unit_;
  ++stats_.inserted_units;
  return e;
}

std::uint32_t PageCache::allocate_block(std::uint64_t block) {
  make_room(1);
  const std::uint32_t e = entries_.take();
  entries_[e] = Entry{};
  entries_[e].slot = block;
  entries_[e].block = true;
  block_index_.put(block, e);
  ++resident_;
  ++resident_pages_;
  ++block_stats_.blocks_read;
  return e;
}

std::uint64_t PageCache::device_offset(std::uint32_t file, std::uint64_t unit) const {
  if (file == kBlockFile) return unit * kPage;
  return files_[file].device_offset + unit * spec_.unit_bytes;
}

bool PageCache::block_cached(std::uint64_t block) const {
  const std::uint32_t e = find(kBlockFile, block);
  return e != kNil && entries_[e].uptodate;
}

PageCache::Result PageCache::read_block(std::uint64_t block, std::uint64_t ra_first, std::uint64_t ra_count,
                                        PageWaiter* waiter, std::uint64_t tag) {
  ++block_stats_.lookups;
  std::uint32_t e = find(kBlockFile, block);
  if (e != kNil && entries_[e].uptodate) {
    ++block_stats_.hits;
    touch(e);
    return Result::kReady;
  }
  if (e == kNil) submit_blocks(block, ra_first, ra_count, waiter ? waiter->submitter_task() : kNoTask);
  e = find(kBlockFile, block);
  if (e != kNil && entries_[e].uptodate) {  // a device that completes at once
    touch(e);
    return Result::kReady;
  }
  if (e == kNil || entries_[e].bio == kNil) throw std::logic_error("page cache: a metadata block neither cached nor under I/O");
  bios_[entries_[e].bio].waiters.push_back(Waiter{waiter, tag});
  return Result::kWait;
}

// sb_breadahead() of each block of the window, then the block itself: the
// missing ones are read as contiguous runs, as the elevator merges them.
void PageCache::submit_blocks(std::uint64_t block, std::uint64_t ra_first, std::uint64_t ra_count, std::uint32_t task) {
  device_.start_plug(task);
  std::uint64_t run_start = 0, run_len = 0;
  auto consider = [&](std::uint64_t b) {
    if (find(kBlockFile, b) != kNil) {
      if (run_len) submit_run(kBlockFile, run_start, run_len, task);
      run_len = 0;
      return;
    }
    allocate_block(b);
    if (run_len == 0) run_start = b;
    ++run_len;
  };
  if (block < ra_first || block >= ra_first + ra_count) {
    consider(block);
    if (run_len) submit_run(kBlockFile, run_start, run_len, task);
    run_len = 0;
  }
  for (std::uint64_t b = ra_first; b < ra_first + ra_count; ++b) consider(b);
  if (run_len) submit_run(kBlockFile, run_start, run_len, task);
  device_.finish_plug();
}

void PageCache::access_block_after_wait(std::uint64_t block) {
  const std::uint32_t e = find(kBlockFile, block);
  if (e != kNil && entries_[e].uptodate) touch(e);
}

void PageCache::submit_run(std::uint32_t file, std::uint64_t first_unit, std::uint64_t units, std::uint32_t task) {
  const std::uint64_t unit = file == kBlockFile ? kPage : spec_.unit_bytes;
  const std::uint64_t units_per_bio = std::max<std::uint64_t>(1, spec_.max_bio_bytes / unit);
  while (units > 0) {
    const std::uint64_t n = std::min(units, units_per_bio);
    const std::uint32_t b = bios_.take();  // a released bio keeps its waiters' buffer
    bios_[b].file = file;
    bios_[b].first_unit = first_unit;
    bios_[b].units = n;
    bios_[b].waiters.clear();
    bios_[b].direct = false;
    std::uint64_t bytes = 0;
    for (std::uint64_t u = first_unit; u < first_unit + n; ++u) {
      entries_[find(file, u)].bio = b;
      bytes += unit_length(file, u);
    }
    bios_[b].bytes = bytes;
    bios_[b].fill_note = fill_sink_ ? fill_sink_->submitted(task) : 0;
    submitted_bytes_ += bytes;
    ++stats_.bios;
    device_.submit_read(device_offset(file, first_unit), bytes, this, b);
    first_unit += n;
    units -= n;
  }
}

void PageCache::read_direct(std::uint32_t file, std::uint64_t offset, std::uint64_t length, PageWaiter* waiter,
                            std::uint64_t tag) {
  const std::uint32_t b = bios_.take();
  Bio& bio = bios_[b];
  bio.file = file;
  bio.first_unit = 0;
  bio.units = 0;  // no page of the cache is filled
  bio.bytes = length;
  bio.fill_note = 0;
  bio.direct = true;
  bio.waiters.clear();
  bio.waiters.push_back(Waiter{waiter, tag});
  ++stats_.direct_reads;
  stats_.direct_bytes += length;
  const std::uint32_t task = waiter ? waiter->submitter_task() : kNoTask;
  device_.submit_read_for(task, files_[file].device_offset + offset, length, this, b);
}

void PageCache::on_io_done(std::uint64_t tag) {
  const auto b = static_cast<std::uint32_t>(tag);
  const Bio& bio = bios_[b];
  if (!bio.direct && fill_sink_ && fill_sink_->filled(bio.bytes, bio.fill_note, b)) return;  // fill_done() when the completion has run
  finish_read(b);
}

// The read's pages are uptodate and its waiters are woken (folio_end_read()).
void PageCache::finish_read(std::uint32_t b) {
  Bio& bio = bios_[b];
  for (std::uint64_t u = bio.first_unit; u < bio.first_unit + bio.units; ++u) {
    const std::uint32_t e = find(bio.file, u);
    if (e == kNil) continue;
    entries_[e].uptodate = true;
    entries_[e].bio = kNil;
    push_head(kInactive, e);
  }
  if (engine_ != nullptr) {
    const std::size_t n = bio.waiters.size();
    for (const Waiter& w : bio.waiters) deferred_.push_back(w);
    bio.waiters.clear();
    bios_.release(b);
    if (n > 0) engine_->schedule_at(engine_->now(), this, n);
    return;
  }
  // Waiters may start new reads (and new bios, in this very slot) at once:
  // call them from a copy, in buffers kept from call to call (one per level
  // of nesting), so that neither the copy nor the bio's list allocates.
  const std::size_t depth = waking_depth_++;
  if (waking_.size() <= depth) waking_.emplace_back();
  waking_[depth].assign(bio.waiters.begin(), bio.waiters.end());
  bio.waiters.clear();
  bios_.release(b);
  for (std::size_t i = 0; i < waking_[depth].size(); ++i) {
    const Waiter w = waking_[depth][i];
    w.waiter->on_page_ready(w.tag);
  }
  --waking_depth_;
}

// Events fire in the order they were scheduled: this one's waiters are at
// the front.
void PageCache::on_event(std::uint64_t waiters) {
  for (std::uint64_t i = 0; i < waiters; ++i) {
    const Waiter w = deferred_.front();
    deferred_.pop_front();
    w.waiter->on_page_ready(w.tag);
  }
}

// A unit in memory without a read from the device (preload, fill).
std::uint32_t PageCache::insert_uptodate(std::uint32_t file, std::uint64_t unit) {
  const std::uint32_t e = allocate(file, unit);
  entries_[e].uptodate = true;
  push_head(kInactive, e);
  return e;
}

// Twice the preload: the run goes on to cache more (reads, metadata blocks),
// and the first entry past an exact reservation would copy them all, as the
// vector's own doubling would. Reserved and untouched memory costs no RSS.
void PageCache::reserve_units(std::uint64_t units) {
  const std::uint64_t peak = std::min(entries_.size() + 2 * units, capacity_pages_ + 1);
  entries_.reserve(static_cast<std::size_t>(peak));
}

void PageCache::preload(std::uint32_t file) {
  for (std::uint64_t u = 0; u < units_of(file); ++u)
    if (find(file, u) == kNil) insert_uptodate(file, u);
}

void PageCache::fill(std::uint32_t file, std::uint64_t first_unit, std::uint64_t units) {
  if (file >= files_.size() || first_unit >= files_[file].units) return;
  const std::uint64_t end = first_unit + std::min(units, files_[file].units - first_unit);
  for (std::uint64_t u = first_unit; u < end; ++u) {
    std::uint32_t e = find(file, u);
    if (e == kNil) e = insert_uptodate(file, u);
    if (entries_[e].uptodate) touch(e);  // under I/O (the model's own read): accessed when it ends
  }
}

void PageCache::drop_file(std::uint32_t file) {
  for (std::uint64_t u = 0; u < units_of(file); ++u) {
    const std::uint32_t e = find(file, u);
    if (e == kNil || !entries_[e].uptodate) continue;
    unlink(e);
    free_entry(e);
    ++stats_.evicted_units;
  }
}

void PageCache::touch(std::uint32_t e) {
  Entry& entry = entries_[e];
  if (entry.list == kInactive) {
    if (entry.referenced) {
      unlink(e);
      entry.referenced = false;
      push_head(kActive, e);
    } else {
      entry.referenced = true;
    }
  } else if (entry.list == kActive) {
    entry.referenced = true;
  }
}

void PageCache::reclaim_one() {
  // shrink_active_list() when inactive_file_is_low(): reclaim first moves the
  // active list's oldest page to the inactive list while the active list is
  // the larger.
  if (lists_[kActive].count > lists_[kInactive].count || lists_[kInactive].count == 0) {
    const std::uint32_t tail = lists_[kActive].tail;
    unlink(tail);
    entries_[tail].referenced = false;
    push_head(kInactive, tail);
  }
  const std::uint32_t victim = lists_[kInactive].tail;
  const std::uint64_t scanned = entry_pages(victim);
  unlink(victim);
  ++(entries_[victim].block ? block_stats_.blocks_evicted : stats_.evicted_units);
  free_entry(victim);
  // shrink_slab() after the scan, with the LRU's size (the slab shrinkers
  // may free inodes, and with them file pages: drop_file).
  if (reclaim_listener_) reclaim_listener_->on_reclaim_scan(scanned, resident_pages_);
}

void PageCache::free_entry(std::uint32_t e) {
  resident_pages_ -= entry_pages(e);
  if (entries_[e].block)
    block_index_.erase(entries_[e].slot);
  else
    slots_[entries_[e].slot] = 0;
  entries_.release(e);
  --resident_;
}

void PageCache::unlink(std::uint32_t e) {
  Entry& entry = entries_[e];
  CLERK_ASSERT(entry.list != kNone, "PageCache: unlinking an entry on no LRU list");
  ListHead& l = lists_[entry.list];
  CLERK_ASSERT(l.count > 0, "PageCache: unlinking from an empty LRU list");
  CLERK_ASSERT(entry.prev == kNil ? l.head == e : entries_[entry.prev].next == e,
               "PageCache: an LRU entry's predecessor does not lead back to it");
  CLERK_ASSERT(entry.next == kNil ? l.tail == e : entries_[entry.next].prev == e,
               "PageCache: an LRU entry's successor does not lead back to it");
  if (entry.prev != kNil) entries_[entry.prev].next = entry.next; else l.head = entry.next;
  if (entry.next != kNil) entries_[entry.next].prev = entry.prev; else l.tail = entry.prev;
  entry.prev = entry.next = kNil;
  --l.count;
  entry.list = kNone;
}

void PageCache::push_head(List list, std::uint32_t e) {
  ListHead& l = lists_[list];
  Entry& entry = entries_[e];
  CLERK_ASSERT(list != kNone && entry.list == kNone, "PageCache: an entry put on two LRU lists");
  CLERK_ASSERT((l.head == kNil) == (l.count == 0) && (l.tail == kNil) == (l.count == 0),
               "PageCache: an LRU list's ends disagree with its count");
  entry.list = list;
  entry.prev = kNil;
  entry.next = l.head;
  if (l.head != kNil) entries_[l.head].prev = e; else l.tail = e;
  l.head = e;
  ++l.count;
}

PageCacheStats PageCache::stats() const {
  PageCacheStats s = stats_;
  s.resident_units = resident_ - block_index_.size();  // file units (blocks: block_stats)
  s.active_units = lists_[kActive].count;
  return s;
}

}  // namespace models
