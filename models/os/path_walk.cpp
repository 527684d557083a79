#include "models/os/path_walk.h"

#include <stdexcept>

namespace models {

bool PathWalk::metadata_writes(std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag) {
  if (count == 0) return true;
  const std::uint32_t n = count > 8 ? 8 : count;
  const std::uint32_t w = walks_.take();
  Walk& walk = walks_[w];
  walk = Walk{};
  walk.writes = true;
  walk.writes_left = n - 1;
  walk.waiter = waiter;
  walk.tag = tag;
  writes_ += n;
  device_.submit_read(write_location(write_serial_++), kMetadataWrite, this, w);
  return false;
}

// A new cache file's directory and inode blocks: each at its own place.
std::uint64_t PathWalk::write_location(std::uint64_t serial) const {
  std::uint64_t z = ((0xfeULL << 56) | serial) ^ seed_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  const std::uint64_t blocks = device_.capacity() / kMetadataWrite;
  return (z % blocks) * kMetadataWrite;
}

void PathWalk::on_io_done(std::uint64_t tag) {
  const auto w = static_cast<std::uint32_t>(tag);
  Walk& walk = walks_[w];
  if (walk.writes_left > 0) {
    --walk.writes_left;
    device_.submit_read(write_location(write_serial_++), kMetadataWrite, this, w);
    return;
  }
  WalkWaiter* waiter = walk.waiter;
  const std::uint64_t t = walk.tag;
  walks_.release(w);  // before the waiter, which may start a walk in this slot
  waiter->on_walk_done(t);
}

bool PathWalk::open(const std::uint64_t* components, std::uint32_t count, WalkWaiter* waiter,
                    std::uint64_t tag) {
  if (count > 8) throw std::invalid_argument("path walk: at most 8 levels");
  ++stats_.walks;
  const std::uint32_t w = walks_.take();
  Walk& walk = walks_[w];
  walk = Walk{};
  for (std::uint32_t k = 0; k < count; ++k) walk.components[k] = components[k];
  walk.count = count;
  walk.waiter = waiter;
  walk.tag = tag;
  if (!advance(w)) return false;
  finish(w);
  return true;
}

// Each component: a dentry hit, or lookup_slow until it waits (false) or
// the name and inode are in memory, then d_add.
bool PathWalk::advance(std::uint32_t w) {
  while (walks_[w].next < walks_[w].count) {
    Walk& walk = walks_[w];
    const std::uint64_t key = walk.components[walk.next];
    if (!walk.slow) {
      if (vfs_.lookup_dentry(key)) {
        vfs_.pin(key);
        ++walk.next;
        continue;
      }
      walk.lookup.start(key, layout_);
      walk.slow = true;
    }
    reading_task_ = walk.waiter->submitter_task();  // the plug and any slot sleep are this task's
    // run() on a copy, and walks_[w] looked up again after it: a read can
    // start another walk (a waiter the block layer wakes), which may grow
    // walks_ and move every slot (sim/slot_pool.h), `walk` with them.
    ComponentLookup lookup = walk.lookup;
    const MetadataBlock wait = lookup.run(layout_, cache_, *this, this, w);
    walks_[w].lookup = lookup;
    if (wait != MetadataBlock::kNone) {
      ++stats_.waits;
      ++(wait == MetadataBlock::kDirectory ? stats_.dir_reads : stats_.inode_reads);
      return false;
    }
    vfs_.instantiate(key, layout_.parent_key(key));
    vfs_.pin(key);
    walks_[w].slow = false;
    ++walks_[w].next;
  }
  return true;
}

// The walk's references are put, innermost first (dput).
void PathWalk::finish(std::uint32_t w) {
  Walk& walk = walks_[w];
  for (std::uint32_t k = walk.count; k-- > 0;) vfs_.unpin(walk.components[k]);
  walks_.release(w);
}

void PathWalk::on_page_ready(std::uint64_t tag) {
  const auto w = static_cast<std::uint32_t>(tag);
  walks_[w].lookup.resume(cache_);
  if (!advance(w)) return;
  WalkWaiter* waiter = walks_[w].waiter;
  const std::uint64_t t = walks_[w].tag;
  finish(w);  // before the waiter, which may start a walk in this slot
  waiter->on_walk_done(t);
}

}  // namespace models
