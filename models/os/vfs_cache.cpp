#include "models/os/vfs_cache.h"

#include <algorithm>
#include <stdexcept>

#include "sim/assert.h"

namespace models {

VfsCache::VfsCache(const VfsCacheSpec& spec, PageCache* memory) : spec_(spec), memory_(memory) {}

bool VfsCache::lookup_dentry(std::uint64_t key) {
  ++stats_.dentry_lookups;
  const std::uint32_t o = find(key);
  if (o == kNil || !objs_[o].dentry) return false;
  ++stats_.dentry_hits;
  return true;
}

bool VfsCache::lookup_inode(std::uint64_t key) {
  ++stats_.inode_lookups;
  const std::uint32_t o = find(key);
  if (o == kNil || !objs_[o].inode) return false;
  ++stats_.inode_hits;
  return true;
}

std::uint32_t VfsCache::get_or_create(std::uint64_t key) {
  std::uint32_t o = find(key);
  if (o != kNil) return o;
  if (!free_.empty()) {
    o = free_.back();
    free_.pop_back();
    objs_[o] = Obj{};
  } else {
    o = static_cast<std::uint32_t>(objs_.size());
    objs_.emplace_back();
  }
  objs_[o].key = key;
  index_.put(key, o);
  return o;
}

void VfsCache::release_if_empty(std::uint32_t o) {
  Obj& obj = objs_[o];
  if (obj.dentry || obj.inode) return;
  index_.erase(obj.key);
  free_.push_back(o);
}

void VfsCache::instantiate(std::uint64_t key, std::uint64_t parent) {
  if (key == kRoot) throw std::invalid_argument("vfs cache: the root is not instantiated");
  std::uint32_t p = kNil;
  if (parent != kRoot) {
    p = find(parent);
    if (p == kNil || !objs_[p].dentry) throw std::logic_error("vfs cache: a dentry's parent must be present");
  }
  const std::uint32_t o = get_or_create(key);
  if (objs_[o].dentry) return;
  if (!objs_[o].inode) {
    objs_[o].inode = true;  // iget read it; i_count 1, held by the dentry
    ++inodes_;
  }
  // (an inode left on the inode LRU stays there, in use: isolate removes it)
  objs_[o].dentry = true;
  objs_[o].parent = p;
  ++dentries_;
  if (p != kNil) ++objs_[p].refs;  // d_alloc: dget(parent)
  // d_alloc gives the walk a reference; dropping it is dput(): the new
  // dentry joins the LRU referenced.
  dput_last(o);
  charge();
}

void VfsCache::pin(std::uint64_t key) {
  const std::uint32_t o = find(key);
  if (o == kNil || !objs_[o].dentry) throw std::logic_error("vfs cache: pin of an absent dentry");
  ++objs_[o].refs;
}

void VfsCache::unpin(std::uint64_t key) {
  const std::uint32_t o = find(key);
  if (o == kNil || !objs_[o].dentry || objs_[o].refs == 0) throw std::logic_error("vfs cache: unpin without pin");
  if (--objs_[o].refs == 0) dput_last(o);
}

void VfsCache::drop(std::uint64_t key) {
  const std::uint32_t o = find(key);
  if (o == kNil || !objs_[o].dentry || objs_[o].refs > 0) return;
  if (objs_[o].d.listed) list_del(dentry_lru_, &Obj::d, o);
  kill_dentry(o);
  charge();
}

// dput() of the last reference: DCACHE_REFERENCED, and onto the LRU's tail
// unless already listed (3.13 dput, dentry_lru_add).
void VfsCache::dput_last(std::uint32_t o) {
  objs_[o].d_referenced = true;
  if (!objs_[o].d.listed) list_add_tail(dentry_lru_, &Obj::d, o);
}

bool VfsCache::has_dentry(std::uint64_t key) const {
  const std::uint32_t o = find(key);
  return o != kNil && objs_[o].dentry;
}

bool VfsCache::has_inode(std::uint64_t key) const {
  const std::uint32_t o = find(key);
  return o != kNil && objs_[o].inode;
}

bool VfsCache::dentry_referenced(std::uint64_t key) const {
  const std::uint32_t o = find(key);
  return o != kNil && objs_[o].dentry && objs_[o].d_referenced;
}

std::uint64_t VfsCache::freeable() const {
  // vfs_pressure_ratio(): mult_frac(count, sysctl_vfs_cache_pressure, 100).
  return (dentry_lru_.count + inode_lru_.count) * spec_.vfs_cache_pressure / 100;
}

void VfsCache::on_reclaim_scan(std::uint64_t scanned_pages, std::uint64_t lru_pages) {
  const std::uint64_t freeable_now = freeable();
  if (freeable_now == 0) return;  // nr_deferred is kept for a later call
  const std::uint64_t divisor = lru_pages + 1;
  const std::uint64_t numerator = (4 * scanned_pages / VfsCacheSpec::kSeeks) * freeable_now + delta_rest_;
  const std::uint64_t delta = numerator / divisor;
  delta_rest_ = numerator % divisor;
  std::uint64_t total = deferred_ + delta;
  deferred_ = 0;
  if (delta < freeable_now / 4) total = std::min(total, freeable_now / 2);
  total = std::min(total, 2 * freeable_now);
  while (total >= VfsCacheSpec::kBatch) {
    scan(VfsCacheSpec::kBatch);
    total -= VfsCacheSpec::kBatch;
  }
  deferred_ = total;
}

// super_cache_scan(): the batch split between the two LRUs in proportion.
void VfsCache::scan(std::uint64_t nr) {
  ++stats_.shrinker_batches;
  const std::uint64_t total = dentry_lru_.count + inode_lru_.count + 1;
  const std::uint64_t dentries = nr * dentry_lru_.count / total;
  const std::uint64_t inodes = nr * inode_lru_.count / total;
  prune_dentries(dentries);
  prune_inodes(inodes);
  charge();
}

// list_lru_walk over the dentry LRU with dentry_lru_isolate.
void VfsCache::prune_dentries(std::uint64_t nr) {
  for (std::uint64_t i = 0; i < nr && dentry_lru_.head != kNil; ++i) {
    const std::uint32_t o = dentry_lru_.head;
    ++stats_.dentries_scanned;
    Obj& obj = objs_[o];
    list_del(dentry_lru_, &Obj::d, o);
    if (obj.refs > 0) continue;  // in use: off the list (LRU_REMOVED)
    if (obj.d_referenced) {      // second chance (LRU_ROTATE)
      obj.d_referenced = false;
      list_add_tail(dentry_lru_, &Obj::d, o);
      continue;
    }
    kill_dentry(o);
  }
}

// dentry_kill(): the parent is put, the inode is put (iput_final: unused,
// I_REFERENCED, onto the inode LRU).
void VfsCache::kill_dentry(std::uint32_t o) {
  Obj& obj = objs_[o];
  obj.dentry = false;
  --dentries_;
  ++stats_.dentries_freed;
  const std::uint32_t p = obj.parent;
  obj.parent = kNil;
  obj.i_referenced = true;
  if (!obj.i.listed) list_add_tail(inode_lru_, &Obj::i, o);
  if (p != kNil && --objs_[p].refs == 0) dput_last(p);
}

// list_lru_walk over the inode LRU with inode_lru_isolate.
void VfsCache::prune_inodes(std::uint64_t nr) {
  for (std::uint64_t i = 0; i < nr && inode_lru_.head != kNil; ++i) {
    const std::uint32_t o = inode_lru_.head;
    ++stats_.inodes_scanned;
    Obj& obj = objs_[o];
    list_del(inode_lru_, &Obj::i, o);
    if (obj.dentry) continue;  // i_count > 0: in use again
    if (obj.i_referenced) {
      obj.i_referenced = false;
      list_add_tail(inode_lru_, &Obj::i, o);
      continue;
    }
    evict_inode(o);
  }
}

void VfsCache::evict_inode(std::uint32_t o) {
  const std::uint64_t key = objs_[o].key;
  objs_[o].inode = false;
  --inodes_;
  ++stats_.inodes_freed;
  release_if_empty(o);
  if (evict_listener_) evict_listener_->on_inode_evicted(key);
}

void VfsCache::list_add_tail(List& list, LinkOf link, std::uint32_t o) {
  Link& l = objs_[o].*link;
  CLERK_ASSERT(!l.listed, "VfsCache: an object added to an LRU it is on");
  CLERK_ASSERT((list.head == kNil) == (list.count == 0) && (list.tail == kNil) == (list.count == 0),
               "VfsCache: an LRU's ends disagree with its count");
  l.listed = true;
  l.next = kNil;
  l.prev = list.tail;
  if (list.tail != kNil) (objs_[list.tail].*link).next = o; else list.head = o;
  list.tail = o;
  ++list.count;
}

void VfsCache::list_del(List& list, LinkOf link, std::uint32_t o) {
  Link& l = objs_[o].*link;
  CLERK_ASSERT(l.listed && list.count > 0, "VfsCache: removing an object from an LRU it is not on");
  CLERK_ASSERT(l.prev == kNil ? list.head == o : (objs_[l.prev].*link).next == o,
               "VfsCache: an LRU object's predecessor does not lead back to it");
  CLERK_ASSERT(l.next == kNil ? list.tail == o : (objs_[l.next].*link).prev == o,
               "VfsCache: an LRU object's successor does not lead back to it");
  if (l.prev != kNil) (objs_[l.prev].*link).next = l.next; else list.head = l.next;
  if (l.next != kNil) (objs_[l.next].*link).prev = l.prev; else list.tail = l.prev;
  l.prev = l.next = kNil;
  l.listed = false;
  --list.count;
}

std::uint64_t VfsCache::slab_bytes() const {
  return dentries_ * spec_.dentry_objsize + inodes_ * spec_.inode_objsize;
}

void VfsCache::charge() {
  if (memory_) memory_->set_slab_pages((slab_bytes() + PageCache::kPage - 1) / PageCache::kPage);
}

VfsCacheStats VfsCache::stats() const {
  VfsCacheStats s = stats_;
  s.dentries = dentries_;
  s.inodes = inodes_;
  s.dentry_lru = dentry_lru_.count;
  s.inode_lru = inode_lru_.count;
  return s;
}

}  // namespace models
