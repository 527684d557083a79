#include "metadata.h"

namespace testbed::disk {

bool MetadataReads::lookup(std::uint64_t key, std::uint64_t tag) {
  ++stats_.lookups;
  const std::uint32_t slot = pending_.take();
  pending_[slot].lookup.start(key, layout_);
  pending_[slot].tag = tag;
  if (!advance(slot)) return false;
  pending_.release(slot);
  return true;
}

bool MetadataReads::advance(std::uint32_t slot) {
  // run() on a copy: a read may start another lookup, which can grow
  // pending_ and move its slots (sim/slot_pool.h), as in the model's walk.
  models::ComponentLookup lookup = pending_[slot].lookup;
  const models::MetadataBlock wait = lookup.run(layout_, cache_, inodes_, this, slot);
  pending_[slot].lookup = lookup;
  if (wait == models::MetadataBlock::kNone) return true;
  ++stats_.waits;
  ++(wait == models::MetadataBlock::kDirectory ? stats_.dir_reads : stats_.inode_reads);
  return false;
}

void MetadataReads::on_page_ready(std::uint64_t tag) {
  const auto slot = static_cast<std::uint32_t>(tag);
  pending_[slot].lookup.resume(cache_);
  if (!advance(slot)) return;
  const std::uint64_t done = pending_[slot].tag;
  pending_.release(slot);  // before the listener, which may start a lookup in this slot
  listener_.lookup_done(done);
}

KernelInodes::KernelInodes(const EmulatedMachine& machine)
    : machine_(machine), lookups_(new std::atomic<std::uint64_t>[machine.nodes() + 1]) {
  for (std::size_t i = 0; i <= machine.nodes(); ++i) lookups_[i].store(0);
}

void KernelInodes::looked_up(std::uint64_t ino) {
  if (ino >= 1 && ino <= machine_.nodes()) lookups_[ino].fetch_add(1);
}

// A forget of more lookups than were counted (the kernel's word against
// ours) leaves 0, not a wrapped count.
void KernelInodes::forget(std::uint64_t ino, std::uint64_t lookups) {
  if (ino < 1 || ino > machine_.nodes()) return;
  std::uint64_t now = lookups_[ino].load();
  while (!lookups_[ino].compare_exchange_weak(now, now > lookups ? now - lookups : 0)) {
  }
}

bool KernelInodes::held(std::uint64_t ino) const {
  if (ino == 1) return true;  // the root: the mount holds it
  return ino >= 1 && ino <= machine_.nodes() && lookups_[ino].load() > 0;
}

Ext4Inodes::Ext4Inodes(const EmulatedMachine& machine, const KernelInodes& kernel, models::VfsCache& vfs)
    : machine_(machine), kernel_(kernel), vfs_(vfs), pinned_(machine.nodes() + 1, false) {}

void Ext4Inodes::sync(std::uint64_t ino) {
  if (ino <= 1 || ino > machine_.nodes()) return;  // not an inode of the tree, or the root (the mount's)
  if (kernel_.held(ino))
    hold(ino);
  else
    release(ino);
}

// d_add of the kernel's lookup: the dentry (its parents first, which the
// kernel holds too, as a child dentry holds its parent), pinned.
void Ext4Inodes::hold(std::uint64_t ino) {
  if (pinned_[ino]) return;
  ensure_dentry(ino);
  vfs_.pin(key(ino));
  pinned_[ino] = true;
}

void Ext4Inodes::ensure_dentry(std::uint64_t ino) {
  if (ino == 1 || vfs_.has_dentry(key(ino))) return;
  ensure_dentry(parent(ino));  // at most the tree's depth
  vfs_.instantiate(key(ino), key(parent(ino)));
}

// The kernel forgot the name: the dentry goes, and each parent the kernel
// no longer holds with it (a forget may arrive before a child's).
void Ext4Inodes::release(std::uint64_t ino) {
  if (!pinned_[ino]) return;
  pinned_[ino] = false;
  vfs_.unpin(key(ino));
  for (std::uint64_t i = ino; i != 1 && !pinned_[i] && vfs_.has_dentry(key(i)); i = parent(i)) {
    vfs_.drop(key(i));
    if (vfs_.has_dentry(key(i))) break;  // a child still holds it
  }
}

bool Ext4Inodes::inode_cached(std::uint64_t key) {
  if (kernel_.held(machine_.ino_of_key(key))) return true;
  if (!vfs_.has_inode(key)) return false;
  ++ext4_only_hits_;
  return true;
}

}  // namespace testbed::disk
