#include "open_file_cache.h"

namespace clerk::serve {

OpenOutcome outcome_of(ResolvedFile&& opened) {
  OpenOutcome outcome;
  outcome.status = opened.status;
  if (opened.status != 200) return outcome;
  auto file = std::make_shared<OpenFile>();
  file->fd = std::move(opened.fd);
  file->size = opened.size;
  file->dev = opened.dev;
  file->ino = opened.ino;
  outcome.file = std::move(file);
  return outcome;
}

OpenFileCache::Lookup OpenFileCache::lookup(const std::string& name, std::int64_t now) {
  Lookup result;
  const auto found = index_.find(name);
  if (found == index_.end()) {
    ++stats_.opens;
    return result;  // kOpen, not counted: complete() creates the entry
  }
  Entry& e = *found->second;
  ++e.uses;
  result.counted = true;
  if (e.status == 200 && !e.file) {
    ++stats_.opens;  // "file was not used often enough to keep open"
    return result;
  }
  if (now - e.created < options_.valid_s) {
    ++stats_.hits;
    result.action = Action::kHit;
    result.hit.status = e.status;
    result.hit.file = e.file;  // nginx's file->count++
    touch(found->second, now);
    return result;
  }
  ++stats_.retests;  // "retest open file"
  result.action = Action::kRetest;
  return result;
}

OpenOutcome OpenFileCache::complete(const std::string& name, ResolvedFile&& opened, bool counted, std::int64_t now) {
  OpenOutcome outcome = outcome_of(std::move(opened));
  const bool keep_error = options_.errors && cacheable_error(outcome.status);
  const auto found = index_.find(name);
  if (found != index_.end()) {
    Entry& e = *found->second;
    if (!counted) ++e.uses;
    if (outcome.status != 200 && !keep_error) {
      drop(found->second);  // the file is gone, or became unreadable: nginx's `failed:`
      return outcome;
    }
    store(e, outcome, now);
    touch(found->second, now);
    return outcome;
  }
  if (outcome.status != 200 && !keep_error) return outcome;
  if (options_.max == 0) return outcome;
  if (lru_.size() >= options_.max) expire(0, now);
  lru_.push_front(Entry{name, 200, nullptr, now, now, 1});
  index_[name] = lru_.begin();
  store(lru_.front(), outcome, now);
  return outcome;
}

// nginx's `update:` label: the entry takes the open's result, and the
// outcome the entry's descriptor when the file is the one already held.
void OpenFileCache::store(Entry& e, OpenOutcome& outcome, std::int64_t now) {
  e.created = now;
  e.status = outcome.status;
  if (outcome.status != 200) {
    e.file.reset();
    return;
  }
  if (e.file && e.file->dev == outcome.file->dev && e.file->ino == outcome.file->ino)
    outcome.file = e.file;  // the same file: the new descriptor closes here
  else
    e.file = outcome.file;  // new, reopened, or changed: an old descriptor closes with its last response
}

void OpenFileCache::release(const std::string& name, OpenFileRef&& file, std::int64_t now) {
  const OpenFile* const sent = file.get();
  file.reset();  // this response's use ends (nginx's file->count--)
  const auto found = index_.find(name);
  if (found != index_.end() && found->second->file.get() == sent && sent != nullptr) {
    Entry& e = *found->second;
    touch(found->second, now);
    // ngx_close_cached_file: used fewer than min_uses times and by no other response.
    if (e.uses < options_.min_uses && e.file.use_count() == 1) e.file.reset();
  }
  expire(1, now);  // "drop one or two expired open files"
}

void OpenFileCache::clear() {
  stats_.evictions += lru_.size();
  index_.clear();
  lru_.clear();
}

std::size_t OpenFileCache::descriptors() const {
  std::size_t n = 0;
  for (const Entry& e : lru_) n += e.file ? 1 : 0;
  return n;
}

void OpenFileCache::touch(List::iterator it, std::int64_t now) {
  it->accessed = now;
  lru_.splice(lru_.begin(), lru_, it);
}

void OpenFileCache::expire(unsigned n, std::int64_t now) {
  // n 0: the least recently used entry by force, then up to two inactive
  // ones; n 1: up to two inactive ones.
  while (n < 3) {
    if (lru_.empty()) return;
    const auto last = std::prev(lru_.end());
    if (n++ != 0 && now - last->accessed <= options_.inactive_s) return;
    drop(last);
  }
}

void OpenFileCache::drop(List::iterator it) {
  index_.erase(it->name);
  lru_.erase(it);
  ++stats_.evictions;
}

}  // namespace clerk::serve
