#include "models/os/path_walk.h"

#include <stdexcept>

namespace models {

bool PathWalk::metadata_writes(std::uint32_t count, WalkWaiter* waiter, std::uint64_t tag) {
  if (count == 0) return true;
  // A walk over fresh keys that nothing caches: each step is one I/O at its
  // own place on the device.
  std::uint64_t keys[8];
  const std::uint32_t n = count > 8 ? 8 : count;
  for (std::uint32_t i = 0; i < n; ++i) keys[i] = (0xfeULL << 56) | write_serial_++;
  writes_ += n;
  start(keys, n, 0, true, waiter, tag);
  return false;
}

bool PathWalk::open(const std::uint64_t* components, std::uint32_t count, WalkWaiter* waiter,
                    std::uint64_t tag) {
  if (count > 8) throw std::invalid_argument("path walk: at most 8 levels");
  std::uint32_t i = 0;
  while (i < count && cache_.lookup(components[i])) ++i;
  if (i == count) return true;
  ++reads_;
  start(components, count, i, false, waiter, tag);
  return false;
}

void PathWalk::start(const std::uint64_t* components, std::uint32_t count, std::uint32_t first, bool writes,
                     WalkWaiter* waiter, std::uint64_t tag) {
  const std::uint32_t w = walks_.take();
  Walk& walk = walks_[w];
  for (std::uint32_t k = 0; k < count; ++k) walk.components[k] = components[k];
  walk.count = count;
  walk.next = first;
  walk.waiter = waiter;
  walk.tag = tag;
  walk.writes = writes;
  device_.submit_read_for(waiter->submitter_task(), location(components[first]), kMetadataRead, this, w);
}

// Directory blocks and inode tables are spread over the device; each
// component's block is at a fixed pseudo-random place.
std::uint64_t PathWalk::location(std::uint64_t key) const {
  std::uint64_t z = key ^ seed_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  const std::uint64_t blocks = device_.capacity() / kMetadataRead;
  return (z % blocks) * kMetadataRead;
}

void PathWalk::on_io_done(std::uint64_t tag) {
  const auto w = static_cast<std::uint32_t>(tag);
  Walk& walk = walks_[w];
  if (!walk.writes) cache_.insert(walk.components[walk.next]);
  ++walk.next;
  while (!walk.writes && walk.next < walk.count && cache_.lookup(walk.components[walk.next])) ++walk.next;
  if (walk.next < walk.count) {
    if (!walk.writes) ++reads_;
    device_.submit_read_for(walk.waiter->submitter_task(), location(walk.components[walk.next]), kMetadataRead,
                            this, w);
    return;
  }
  WalkWaiter* waiter = walk.waiter;
  const std::uint64_t t = walk.tag;
  walks_.release(w);  // before the waiter, which may start a walk in this slot
  waiter->on_walk_done(t);
}

}  // namespace models
