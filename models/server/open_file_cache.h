// NGINX's open_file_cache (src/core/ngx_open_file_cache.c), per worker: each
// worker process keeps its own cache of open descriptors and their stat()
// results, keyed by the file's name. Clockless: every call is told `now`.
//
// ngx_open_cached_file(), as modelled:
//  - an entry whose descriptor is open and that was created (opened or last
//    checked) less than `open_file_cache_valid` ago is a hit: no open(), no
//    stat(), so no path walk and no dentry or inode lookup;
//  - an entry older than that is retested: ngx_open_and_stat_file() stat()s
//    the name again (a path walk, which may wait for a dentry or inode
//    miss) and keeps the descriptor; it counts as created now;
//  - an entry whose descriptor was closed because it had been used fewer
//    than `open_file_cache_min_uses` times is opened again (a path walk);
//  - a name not cached is opened (a path walk) and inserted; when `max`
//    entries are held, ngx_expire_old_cached_files(cache, 0) first drops
//    the least recently used one by force, and up to two more not accessed
//    for `inactive`.
// When the request is done, ngx_open_file_cleanup() closes the descriptor
// of an entry used fewer than min_uses times (ngx_close_cached_file) and
// drops up to two entries from the LRU end that were not accessed for more
// than `inactive` (ngx_expire_old_cached_files(cache, 1)). An entry past
// `inactive` is dropped only then: a lookup does not test it. The model
// ends the request's use at its lookup (the cleanup runs at once), so a
// descriptor is never held open by a request in progress.
// open_file_cache_errors caches failed lookups; every file the model
// serves exists, so it changes nothing here.
// Times are whole seconds, as NGINX's: ngx_open_cached_file() stamps
// `created` and `accessed` with ngx_time() (a time_t) and compares
// now - created < valid and now - accessed <= inactive in seconds; open()
// floors the run's clock to the second below before doing the same (the
// run's time 0 stands for a whole second of the wall clock).
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

namespace models {

struct OpenFileCacheSpec {
  bool enabled = false;           // open_file_cache off (the default)
  std::uint32_t max = 0;          // open_file_cache max=N (required)
  double inactive_s = 60;         // inactive=time: 60s unless given
  double valid_s = 60;            // open_file_cache_valid 60s (the default)
  std::uint32_t min_uses = 1;     // open_file_cache_min_uses 1 (the default)
  bool errors = false;            // open_file_cache_errors off (the default)
};

struct OpenFileCacheStats {
  std::uint64_t hits = 0;          // no open(), no stat()
  std::uint64_t revalidations = 0; // stat() after `valid`
  std::uint64_t opens = 0;         // open() of a name not cached, or whose descriptor was closed
  std::uint64_t evictions = 0;     // entries dropped (LRU when full, or inactive)
};

class OpenFileCache {
 public:
  explicit OpenFileCache(const OpenFileCacheSpec& spec) : spec_(spec) {}

  enum class Lookup : std::uint8_t {
    kHit,         // served from the cache: no path walk
    kRevalidate,  // stat(): a path walk
    kOpen,        // open() and fstat(): a path walk
  };
  // A request for `file` at `now_s` (seconds, floored): what the worker must do.
  Lookup open(std::uint32_t file, double now_s);

  std::size_t size() const { return lru_.size(); }
  bool holds(std::uint32_t file) const { return index_.count(file) != 0; }
  const OpenFileCacheStats& stats() const { return stats_; }

 private:
  struct Entry {
    std::uint32_t file;
    double created;
    double accessed;
    std::uint64_t uses;
    bool fd_open;
  };
  using List = std::list<Entry>;  // most recently used first
  // ngx_expire_old_cached_files(cache, n): n 0 drops the LRU entry by
  // force, then (and for n 1) up to two more that are inactive.
  void expire(std::uint32_t n, double now);
  void drop(List::iterator it);

  OpenFileCacheSpec spec_;
  List lru_;
  std::unordered_map<std::uint32_t, List::iterator> index_;
  OpenFileCacheStats stats_;
};

}  // namespace models
