#include "models/os/component_lookup.h"

namespace models {

void ComponentLookup::start(std::uint64_t key, const Ext4Layout& layout) {
  key_ = key;
  dir_count_ = layout.lookup_blocks(key, dir_blocks_);
  dir_next_ = 0;
  waiting_block_ = 0;
  stage_ = Stage::kDirBlocks;
}

MetadataBlock ComponentLookup::run(const Ext4Layout& layout, PageCache& cache, InodeCacheQuery& inodes,
                                   PageWaiter* waiter, std::uint64_t tag) {
  while (stage_ == Stage::kDirBlocks) {
    if (dir_next_ == dir_count_) {
      stage_ = Stage::kInode;
      break;
    }
    const std::uint64_t block = dir_blocks_[dir_next_++];
    if (cache.read_block(block, block, 1, waiter, tag) == PageCache::Result::kWait) {
      waiting_block_ = block;
      return MetadataBlock::kDirectory;
    }
  }
  if (stage_ != Stage::kInode) return MetadataBlock::kNone;
  stage_ = Stage::kDone;
  if (inodes.inode_cached(key_)) return MetadataBlock::kNone;
  const InodeRead r = layout.inode_read(key_);
  if (cache.read_block(r.block, r.ra_first, r.ra_count, waiter, tag) == PageCache::Result::kReady)
    return MetadataBlock::kNone;
  waiting_block_ = r.block;
  return MetadataBlock::kInodeTable;
}

}  // namespace models
