#include "testbed/realrun/wait_causes.h"

#include <sstream>

namespace testbed::realrun {
namespace {

using enum BlockCause;

// The mapping. Names are from Linux's sources: mm/, fs/, block/ of 6.x (this
// machine's kernel) and 3.13 (the 2015 server's); both spellings are kept
// where the function was renamed. The scheduler's own functions (schedule,
// io_schedule, bit_wait_io: marked __sched) never appear in a stack or wchan.
constexpr CauseRule kRules[] = {
    // 1. Memory reclaim (mm/vmscan.c, mm/memcontrol.c, mm/page_alloc.c, fs/super.c).
    {"shrink_*", kReclaim, "mm/vmscan.c: shrink_node, shrink_lruvec, shrink_folio_list (3.13: shrink_page_list), shrink_slab"},
    {"do_try_to_free_pages", kReclaim, "mm/vmscan.c: the direct-reclaim loop"},
    {"try_to_free_pages", kReclaim, "mm/vmscan.c: direct reclaim of an allocation"},
    {"try_to_free_mem_cgroup_pages", kReclaim, "mm/vmscan.c: reclaim of a memory cgroup over its limit"},
    {"balance_pgdat", kReclaim, "mm/vmscan.c: kswapd's reclaim"},
    {"reclaim_throttle", kReclaim, "mm/vmscan.c (5.16+): reclaim waiting for writeback or progress"},
    {"throttle_direct_reclaim", kReclaim, "mm/vmscan.c: direct reclaim throttled until kswapd catches up"},
    {"__alloc_pages_direct_reclaim", kReclaim, "mm/page_alloc.c: the allocator's slow path entering reclaim"},
    {"__perform_reclaim", kReclaim, "mm/page_alloc.c: the same, one level down"},
    {"try_charge_memcg", kReclaim, "mm/memcontrol.c (5.14+): a page charged to a cgroup at its limit"},
    {"mem_cgroup_reclaim", kReclaim, "mm/memcontrol.c (3.13): the same"},
    {"mem_cgroup_handle_over_high", kReclaim, "mm/memcontrol.c: reclaim on return to user space over memory.high"},
    {"reclaim_high", kReclaim, "mm/memcontrol.c: the same, one level down"},
    {"super_cache_scan", kReclaim, "fs/super.c: the dentry and inode shrinker"},
    {"prune_dcache_sb", kReclaim, "fs/dcache.c: dentries freed by the shrinker"},
    {"prune_icache_sb", kReclaim, "fs/inode.c: inodes freed by the shrinker"},
    // 2. Request slots (block/blk-mq-tag.c, block/blk-core.c).
    {"blk_mq_get_tag", kRequestSlot, "block/blk-mq-tag.c: every tag (nr_requests) in use, sleeps for one"},
    {"get_request", kRequestSlot, "block/blk-core.c (legacy queue, 3.13): every request in use"},
    {"get_request_wait", kRequestSlot, "block/blk-core.c (2.6): the same"},
    // 3. Metadata: buffer heads, the journal, ext4's inode and directory reads, the path walk.
    {"__wait_on_buffer", kDiskMetadata, "fs/buffer.c: a buffer_head under read (inode table, directory, extent block)"},
    {"sleep_on_buffer", kDiskMetadata, "fs/buffer.c (3.13): the same"},
    {"__lock_buffer", kDiskMetadata, "fs/buffer.c: a buffer_head locked for I/O"},
    {"__bread_gfp", kDiskMetadata, "fs/buffer.c: a metadata block read"},
    {"__bh_read", kDiskMetadata, "fs/buffer.c (6.1+): the same"},
    {"jbd2_*", kDiskMetadata, "fs/jbd2/: the journal (commits, checkpoints, handles)"},
    {"start_this_handle", kDiskMetadata, "fs/jbd2/transaction.c: waits for a journal transaction"},
    {"ext4_read_bh", kDiskMetadata, "fs/ext4/super.c (5.10+): ext4's metadata block reads"},
    {"ext4_read_bh_lock", kDiskMetadata, "fs/ext4/super.c: the same"},
    {"__ext4_get_inode_loc", kDiskMetadata, "fs/ext4/inode.c: the inode-table block of an inode (inode_readahead_blks)"},
    {"ext4_get_inode_loc", kDiskMetadata, "fs/ext4/inode.c: the same"},
    {"__ext4_iget", kDiskMetadata, "fs/ext4/inode.c: an inode read into the inode cache (3.13: ext4_iget)"},
    {"ext4_iget", kDiskMetadata, "fs/ext4/inode.c (3.13)"},
    {"ext4_lookup", kDiskMetadata, "fs/ext4/namei.c: a name looked up in a directory"},
    {"__ext4_find_entry", kDiskMetadata, "fs/ext4/namei.c: directory blocks searched"},
    {"ext4_find_entry", kDiskMetadata, "fs/ext4/namei.c (3.13)"},
    {"ext4_dx_find_entry", kDiskMetadata, "fs/ext4/namei.c: an htree directory searched"},
    {"dx_probe", kDiskMetadata, "fs/ext4/namei.c: htree index blocks"},
    {"ext4_bread", kDiskMetadata, "fs/ext4/inode.c: a directory block read"},
    {"ext4_bread_batch", kDiskMetadata, "fs/ext4/inode.c: directory blocks read together"},
    {"__ext4_read_dirblock", kDiskMetadata, "fs/ext4/namei.c: a directory block read and checked"},
    {"ext4_readdir", kDiskMetadata, "fs/ext4/dir.c"},
    {"ext4_find_extent", kDiskMetadata, "fs/ext4/extents.c: the extent tree of a file (3.13: ext4_ext_find_extent)"},
    {"ext4_ext_find_extent", kDiskMetadata, "fs/ext4/extents.c (3.13)"},
    {"__read_extent_tree_block", kDiskMetadata, "fs/ext4/extents.c: an extent block read"},
    {"read_extent_tree_block", kDiskMetadata, "fs/ext4/extents.c (3.13..5.x)"},
    {"ext4_read_block_bitmap", kDiskMetadata, "fs/ext4/balloc.c"},
    {"ext4_read_inode_bitmap", kDiskMetadata, "fs/ext4/ialloc.c"},
    {"lookup_slow", kDiskMetadata, "fs/namei.c: a name not in the dentry cache (the directory's i_rwsem held)"},
    {"__lookup_slow", kDiskMetadata, "fs/namei.c (4.19+): the same"},
    {"d_alloc_parallel", kDiskMetadata, "fs/dcache.c: another thread is looking the same name up"},
    {"walk_component", kDiskMetadata, "fs/namei.c: one step of the path walk"},
    {"link_path_walk", kDiskMetadata, "fs/namei.c: the path walk"},
    {"path_lookupat", kDiskMetadata, "fs/namei.c: stat()'s walk"},
    {"path_openat", kDiskMetadata, "fs/namei.c: open()'s walk (nothing in it reads file data)"},
    {"filename_lookup", kDiskMetadata, "fs/namei.c"},
    {"vfs_statx", kDiskMetadata, "fs/stat.c: stat() (3.13: vfs_fstatat)"},
    {"vfs_fstatat", kDiskMetadata, "fs/stat.c (3.13)"},
    // 4. File data in the page cache (mm/filemap.c, mm/readahead.c, fs/mpage.c, fs/splice.c).
    {"folio_wait_bit_common", kDiskData, "mm/filemap.c (5.16+): a folio locked while it is read"},
    {"folio_wait_bit", kDiskData, "mm/filemap.c"},
    {"folio_wait_bit_killable", kDiskData, "mm/filemap.c"},
    {"__folio_lock", kDiskData, "mm/filemap.c"},
    {"__folio_lock_killable", kDiskData, "mm/filemap.c"},
    {"__folio_lock_or_retry", kDiskData, "mm/filemap.c: page faults on file pages"},
    {"wait_on_page_bit_common", kDiskData, "mm/filemap.c (4.10..5.15)"},
    {"wait_on_page_bit", kDiskData, "mm/filemap.c (..5.15)"},
    {"wait_on_page_bit_killable", kDiskData, "mm/filemap.c (..5.15)"},
    {"__lock_page", kDiskData, "mm/filemap.c (..5.15)"},
    {"__lock_page_killable", kDiskData, "mm/filemap.c (..5.15)"},
    {"__lock_page_or_retry", kDiskData, "mm/filemap.c (..5.15)"},
    {"sleep_on_page", kDiskData, "mm/filemap.c (3.13): the page wait itself"},
    {"sleep_on_page_killable", kDiskData, "mm/filemap.c (3.13)"},
    {"filemap_*", kDiskData, "mm/filemap.c: filemap_read, filemap_get_pages, filemap_update_page, filemap_splice_read, filemap_fault"},
    {"do_generic_file_read", kDiskData, "mm/filemap.c (3.13): read()'s page-cache loop"},
    {"generic_file_buffered_read", kDiskData, "mm/filemap.c (4.20..5.11)"},
    {"generic_file_splice_read", kDiskData, "fs/splice.c (..6.4): sendfile()'s page-cache read"},
    {"__generic_file_splice_read", kDiskData, "fs/splice.c (3.13)"},
    {"page_cache_sync_ra", kDiskData, "mm/readahead.c (5.10+): synchronous readahead"},
    {"page_cache_sync_readahead", kDiskData, "mm/readahead.c (3.13)"},
    {"page_cache_async_ra", kDiskData, "mm/readahead.c"},
    {"page_cache_ra_unbounded", kDiskData, "mm/readahead.c"},
    {"page_cache_ra_order", kDiskData, "mm/readahead.c"},
    {"ondemand_readahead", kDiskData, "mm/readahead.c (..6.9)"},
    {"do_page_cache_ra", kDiskData, "mm/readahead.c"},
    {"__do_page_cache_readahead", kDiskData, "mm/readahead.c (3.13)"},
    {"read_pages", kDiskData, "mm/readahead.c: readahead handed to the filesystem"},
    {"ext4_mpage_readpages", kDiskData, "fs/ext4/readpage.c: file pages read"},
    {"mpage_readahead", kDiskData, "fs/mpage.c"},
    {"mpage_readpages", kDiskData, "fs/mpage.c (3.13)"},
};

bool matches(const char* rule, const std::string& function) {
  const std::string r = rule;
  if (!r.empty() && r.back() == '*') return function.compare(0, r.size() - 1, r, 0, r.size() - 1) == 0;
  return function == r;
}

}  // namespace

const char* block_cause_key(BlockCause cause) {
  switch (cause) {
    case kReclaim: return "reclaim";
    case kRequestSlot: return "request_slot";
    case kDiskMetadata: return "disk_metadata";
    case kDiskData: return "disk_data";
    case kOther:
    case kCount: break;
  }
  return "other";
}

std::span<const CauseRule> cause_rules() { return kRules; }

std::string frame_function(const std::string& line) {
  std::size_t begin = line.find("] ");
  begin = begin == std::string::npos ? 0 : begin + 2;
  while (begin < line.size() && line[begin] == ' ') ++begin;
  std::size_t end = begin;
  while (end < line.size() && line[end] != '+' && line[end] != ' ' && line[end] != '\n' && line[end] != '.') ++end;
  return line.substr(begin, end - begin);
}

std::vector<std::string> stack_functions(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string f = frame_function(line);
    if (!f.empty()) out.push_back(std::move(f));
  }
  return out;
}

BlockCause cause_of_function(const std::string& function) {
  for (const CauseRule& r : kRules)
    if (matches(r.function, function)) return r.cause;
  return kOther;
}

BlockCause cause_of_stack(const std::vector<std::string>& functions) {
  BlockCause best = kOther;  // the causes are declared in priority order
  for (const std::string& f : functions) {
    const BlockCause c = cause_of_function(f);
    if (static_cast<int>(c) < static_cast<int>(best)) best = c;
  }
  return best;
}

}  // namespace testbed::realrun
