// A worker's cache of open files, after NGINX's open_file_cache
// (src/core/ngx_open_file_cache.c): descriptors and their fstat() results,
// keyed by the path under the root, so that a hit sends the file with no
// path walk, no open() and no fstat(). Used on the event loop's thread only;
// clockless, every call is told `now` in whole seconds (ngx_time()).
//
// ngx_open_cached_file(), as mirrored:
//  - a name held with its descriptor, created (opened or last retested)
//    less than `valid` seconds ago, is a hit: its descriptor is shared with
//    the response (nginx's file->count++), and it moves to the LRU's head;
//  - older than that, it is retested: the caller opens the name again (a
//    walk) and complete() keeps the old descriptor if the file is the same
//    (st_dev, st_ino: ngx_file_uniq), else takes the new one ("file was
//    changed"); either way the entry counts as created now;
//  - a name whose descriptor was closed for `min_uses` ("file was not used
//    often enough to keep open") is opened again;
//  - a name not held is opened; when `max` entries are held,
//    ngx_expire_old_cached_files(cache, 0) first drops the least recently
//    used entry by force, and up to two more not accessed for over
//    `inactive` seconds;
//  - a failed open (404, 403) removes the entry, or with `errors`
//    (open_file_cache_errors) is kept and answered from the cache until
//    `valid` runs out. 500s (EMFILE and the like) are never kept: nginx
//    keeps any errno, but a worker out of descriptors should not answer 500
//    for a minute after it has recovered.
// At each response's end ngx_open_file_cleanup() -> release(): the entry is
// accessed now and goes to the head, its descriptor is closed when the entry
// was used fewer than `min_uses` times and no other response uses it, then
// ngx_expire_old_cached_files(cache, 1) drops up to two entries from the LRU
// end not accessed for over `inactive`. An entry past `inactive` is dropped
// only then or when the cache is full: a lookup does not test it.
//
// Descriptors are shared (std::shared_ptr): an entry dropped while responses
// still send its file is closed when the last of them ends, as nginx marks
// such a file `close` and closes it when its count falls to 0. Destroying the
// cache, or clear(), closes every descriptor no response holds.
//
// Where it differs from nginx: with --aio-open the open runs in the pool, so
// two requests for one name can both miss before either is stored;
// complete() then finds the entry the first one stored and treats the second
// open as its retest. No kqueue vnode events (Linux has none).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

#include "file_resolver.h"
#include "unique_fd.h"

namespace clerk::serve {

struct OpenFileCacheOptions {
  std::size_t max = 0;          // open_file_cache max=N (0: off)
  std::int64_t inactive_s = 60;  // open_file_cache ... inactive= (60s unless given)
  std::int64_t valid_s = 60;     // open_file_cache_valid (60s)
  std::uint64_t min_uses = 1;    // open_file_cache_min_uses (1)
  bool errors = false;           // open_file_cache_errors (off)
};

// A file opened for responses: its descriptor and what fstat() said then.
struct OpenFile {
  UniqueFd fd;
  off_t size = 0;
  dev_t dev = 0;
  ino_t ino = 0;
};
using OpenFileRef = std::shared_ptr<const OpenFile>;

// What a request gets: 200 with the file, or the status to answer instead.
struct OpenOutcome {
  int status = 500;
  OpenFileRef file;  // set when status is 200
};

// A fresh open's result as an outcome, for a worker without a cache.
OpenOutcome outcome_of(ResolvedFile&& opened);

struct OpenFileCacheStats {
  std::uint64_t hits = 0;       // answered with no walk (error hits included)
  std::uint64_t retests = 0;    // a walk after `valid`
  std::uint64_t opens = 0;      // a walk for a name not held, or whose descriptor was closed
  std::uint64_t evictions = 0;  // entries dropped (full, inactive, or a failed retest)
};

class OpenFileCache {
 public:
  explicit OpenFileCache(const OpenFileCacheOptions& options) : options_(options) {}
  OpenFileCache(const OpenFileCache&) = delete;
  OpenFileCache& operator=(const OpenFileCache&) = delete;

  enum class Action : std::uint8_t { kHit, kRetest, kOpen };
  struct Lookup {
    Action action = Action::kOpen;
    OpenOutcome hit;      // with kHit
    bool counted = false; // the entry's uses already count this request (pass to complete())
  };
  Lookup lookup(const std::string& name, std::int64_t now);

  // The walk that lookup() asked for is done (on the loop or in the pool):
  // stores its result and says what the request answers.
  OpenOutcome complete(const std::string& name, ResolvedFile&& opened, bool counted, std::int64_t now);

  // The response that sent `file` (from lookup() or complete()) is done.
  void release(const std::string& name, OpenFileRef&& file, std::int64_t now);

  // Drops every entry (a descriptor a response still holds closes with it).
  void clear();

  std::size_t size() const { return lru_.size(); }
  bool holds(const std::string& name) const { return index_.count(name) != 0; }
  // Entries that keep a descriptor open.
  std::size_t descriptors() const;
  const OpenFileCacheStats& stats() const { return stats_; }

 private:
  struct Entry {
    std::string name;
    int status = 200;  // 200, or a cached error (errors on)
    OpenFileRef file;  // null: closed for min_uses, or an error
    std::int64_t created = 0;
    std::int64_t accessed = 0;
    std::uint64_t uses = 0;
  };
  using List = std::list<Entry>;  // most recently used first

  static bool cacheable_error(int status) { return status == 403 || status == 404; }
  void touch(List::iterator it, std::int64_t now);
  void store(Entry& e, OpenOutcome& outcome, std::int64_t now);
  // ngx_expire_old_cached_files(cache, n).
  void expire(unsigned n, std::int64_t now);
  void drop(List::iterator it);

  OpenFileCacheOptions options_;
  List lru_;
  std::unordered_map<std::string, List::iterator> index_;
  OpenFileCacheStats stats_;
};

}  // namespace clerk::serve
