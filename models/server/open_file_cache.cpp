#include "models/server/open_file_cache.h"

#include <cmath>

namespace models {

OpenFileCache::Lookup OpenFileCache::open(std::uint32_t file, double now_s) {
  // ngx_open_cached_file reads the clock as ngx_time(): whole seconds.
  const double now = std::floor(now_s);
  Lookup result = Lookup::kOpen;
  auto found = index_.find(file);
  if (found != index_.end()) {
    Entry& e = *found->second;
    ++e.uses;
    lru_.splice(lru_.begin(), lru_, found->second);  // ngx_queue_remove, then insert_head at `found:`
    if (!e.fd_open) {
      // "file was not used often enough to keep open": open it again.
      e.fd_open = true;
      e.created = now;
    } else if (now - e.created < spec_.valid_s) {
      result = Lookup::kHit;
    } else {
      result = Lookup::kRevalidate;  // "retest open file"
      e.created = now;
    }
    e.accessed = now;
  } else {
    if (lru_.size() >= spec_.max) expire(0, now);
    lru_.push_front(Entry{file, now, now, 1, true});
    index_[file] = lru_.begin();
  }
  if (result == Lookup::kHit) ++stats_.hits;
  else if (result == Lookup::kRevalidate) ++stats_.revalidations;
  else ++stats_.opens;
  // The request's cleanup (ngx_open_file_cleanup): close a descriptor used
  // fewer than min_uses times, then drop up to two inactive entries.
  Entry& e = *index_[file];
  if (e.uses < spec_.min_uses) e.fd_open = false;
  expire(1, now);
  return result;
}

void OpenFileCache::expire(std::uint32_t n, double now) {
  while (n < 3) {
    if (lru_.empty()) return;
    auto last = std::prev(lru_.end());
    if (n++ != 0 && now - last->accessed <= spec_.inactive_s) return;
    drop(last);
  }
}

void OpenFileCache::drop(List::iterator it) {
  index_.erase(it->file);
  lru_.erase(it);
  ++stats_.evictions;
}

}  // namespace models
