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

// Reads `block` through the buffer cache; false when the walk must wait.
bool PathWalk::read_block(std::uint32_t w, std::uint64_t block, std::uint64_t ra_first, std::uint64_t ra_count) {
  reading_task_ = walks_[w].waiter->submitter_task();  // the plug and any slot sleep are this task's
  if (cache_.read_block(block, ra_first, ra_count, this, w) == PageCache::Result::kReady) return true;
  walks_[w].waiting_block = block;
  ++stats_.waits;
  return false;
}

bool PathWalk::advance(std::uint32_t w) {
  while (walks_[w].next < walks_[w].count) {
    Walk& walk = walks_[w];
    const std::uint64_t key = walk.components[walk.next];
    switch (walk.stage) {
      case Stage::kLookup:
        if (vfs_.lookup_dentry(key)) {
          vfs_.pin(key);
          ++walk.next;
          break;
        }
        walk.dir_count = layout_.lookup_blocks(key, walk.dir_blocks);
        walk.dir_next = 0;
        walk.stage = Stage::kDirBlocks;
        break;
      case Stage::kDirBlocks: {
        if (walk.dir_next == walk.dir_count) {
          walk.stage = Stage::kInode;
          break;
        }
        const std::uint64_t block = walk.dir_blocks[walk.dir_next++];
        if (!read_block(w, block, block, 1)) {
          ++stats_.dir_reads;
          return false;
        }
        break;
      }
      case Stage::kInode: {
        walk.stage = Stage::kInodeRead;
        if (vfs_.lookup_inode(key)) break;
        const InodeRead r = layout_.inode_read(key);
        if (!read_block(w, r.block, r.ra_first, r.ra_count)) {
          ++stats_.inode_reads;
          return false;
        }
        break;
      }
      case Stage::kInodeRead:
        vfs_.instantiate(key, layout_.parent_key(key));
        vfs_.pin(key);
        walk.stage = Stage::kLookup;
        ++walk.next;
        break;
    }
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
  cache_.access_block_after_wait(walks_[w].waiting_block);
  if (!advance(w)) return;
  WalkWaiter* waiter = walks_[w].waiter;
  const std::uint64_t t = walks_[w].tag;
  finish(w);  // before the waiter, which may start a walk in this slot
  waiter->on_walk_done(t);
}

}  // namespace models
