// Where an ext4 file system keeps the metadata a path walk reads: each
// directory's blocks and each inode's inode-table block, for the data set's
// tree (Filesystem's keys), on a file system made with mke2fs's defaults.
//
// Geometry (mke2fs.conf [defaults] and "default" fs type, e2fsprogs 1.42;
// a 2 TB device is below the 4 TiB of the "big" type):
//   blocksize 4096, blocks per group 32768 (128 MiB), inode_ratio 16384 so
//   8192 inodes per group, inode_size 256 (16 inodes per block, 512
//   inode-table blocks per group), flex_bg 16: the bitmaps and inode tables
//   of 16 groups lie together at the start of the flex group's first group
//   (16 block bitmaps, 16 inode bitmaps, then 16 x 512 inode-table blocks).
//   The superblock and group-descriptor blocks before them in flex group 0
//   are left out (about a thousand blocks: a shift, not a change of order).
//
// Inodes (fs/ext4/ialloc.c, 3.13). The data set was created depth first (a
// directory, then what it holds). A directory directly under the root goes
// where find_group_orlov() puts top-level directories: a flex group drawn at
// random among those with fewest directories (here: a random flex group not
// yet used, while there are any). Deeper directories stay in their parent's
// flex group (find_group_orlov's non-top-level branch, far below max_dirs),
// and files go to their parent's flex group (find_group_other with
// flex_bg); a full flex group sends them on to the next one with room. Within a flex group, inodes are packed from its first group on,
// in creation order (the inode bitmap's first free bit).
//
// Directory blocks. ext4_inode_to_goal_block() puts a directory's blocks in
// the first group of its flex group (EXT4_FLEX_SIZE_DIR_ALLOC_SCHEME), here
// right after the flex group's inode tables, in creation order. A directory
// of n entries named 1..n takes 24 bytes for "." and ".." plus
// 8 + name length rounded up to 4 per entry (struct ext4_dir_entry_2); one
// block holds about 340 such names. A lookup in a one-block directory reads
// that block (ext4_find_entry); a larger directory is an htree (dir_index,
// a default feature): dx_probe reads the root block (block 0), then the
// leaf block that holds the name (ext4_dx_find_entry).
//
// The root directory (inode 2) is the mount's: its dentry and inode are
// always cached; its block is in flex group 0.
//
// Inode-table reads (__ext4_get_inode_loc, 3.13): when the block is not
// cached, sb_breadahead() of blocks b..end, inclusive, with
// b = block & ~(inode_readahead_blks - 1) (not before the table's start) and
// end = min(b + inode_readahead_blks, table start + used inodes / 16), the
// used inodes being inodes_per_group less bg_itable_unused.
//
// File data (place_files): a data set written once, file after file in the
// order it was created (depth first, as the inodes above). With delayed
// allocation, ext4_inode_to_goal_block() (fs/ext4/inode.c, 3.13) gives a
// regular file the first block of the second group of its inode's flex
// group (the first group is kept for directories and metadata when flex_bg
// is 16 or more, EXT4_FLEX_SIZE_DIR_ALLOC_SCHEME = 4); mballoc
// (fs/ext4/mballoc.c) takes free blocks from that goal on, group after
// group, wrapping at the end of the device; its first pass over the groups
// (criterion 0 of ext4_mb_good_group) skips a flex group's first group for
// data, so that space is used only once the others are full. Modelled as: each file's size
// rounded up to 4 KiB blocks, one contiguous extent at the first free run
// from its goal that holds it (groups past a flex group's first carry no
// metadata with flex_bg, so consecutive groups are contiguous; the sparse
// superblock backups are left out, as above); a file that does not fit in
// what is left before the next flex group's metadata goes past it, and the
// next file of that goal continues after it (mballoc's per-inode goal and
// the stream allocation move on; the few blocks left behind are used only
// once the search wraps). Small files (under s_mb_stream_request = 16
// blocks) go through a per-CPU locality group's preallocation in mballoc;
// written by one writer in order they end up packed in order too.
// Fill factor f: each file's extent is followed by (1/f - 1) of its size
// taken by other data (a file system also holding other files, or aged by
// deletions): the data set spreads over 1/f of its size. 1 is a data set
// written alone onto a fresh file system.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "sim/random.h"

namespace models {

struct Ext4Geometry {
  static constexpr std::uint64_t kBlock = 4096;
  static constexpr std::uint64_t kBlocksPerGroup = 32768;
  static constexpr std::uint64_t kInodesPerGroup = 8192;
  static constexpr std::uint64_t kInodeSize = 256;
  static constexpr std::uint64_t kInodesPerBlock = kBlock / kInodeSize;
  static constexpr std::uint64_t kTableBlocks = kInodesPerGroup / kInodesPerBlock;
  static constexpr std::uint64_t kFlex = 16;
  static constexpr std::uint64_t kFirstIno = 11;  // EXT4_GOOD_OLD_FIRST_INO; 11 is lost+found
};

struct InodeRead {
  std::uint64_t block = 0;     // the inode's inode-table block
  std::uint64_t ra_first = 0;  // the readahead window, inclusive of both ends
  std::uint64_t ra_count = 0;
};

// The data set does not fit on the device: its size in 4 KiB blocks, the
// span it needs with its fill factor, and what the device offers to file
// data (its blocks less ext4's metadata), all in bytes.
class DataSetTooLarge : public std::runtime_error {
 public:
  DataSetTooLarge(std::uint64_t data, std::uint64_t span, std::uint64_t free, std::uint64_t device)
      : std::runtime_error("ext4 layout: the data set does not fit on the device"),
        data_bytes(data), span_bytes(span), free_bytes(free), device_bytes(device) {}
  std::uint64_t data_bytes, span_bytes, free_bytes, device_bytes;
};

class Ext4Layout {
 public:
  // `tree`: entries per level (Filesystem's); `device_bytes`: the device's
  // capacity; `rng`: Orlov's random choice of flex groups.
  Ext4Layout(const std::vector<std::uint32_t>& tree, std::uint64_t device_bytes, std::uint32_t inode_readahead_blks,
             sim::RandomStream rng);

  // The key of a component's parent directory (kRoot = 0 for the top level).
  std::uint64_t parent_key(std::uint64_t key) const;
  // The directory blocks read to find the component's name in its parent:
  // returns how many (1 or 2), written to out.
  std::uint32_t lookup_blocks(std::uint64_t key, std::uint64_t* out) const;
  InodeRead inode_read(std::uint64_t key) const;
  std::uint64_t inode_number(std::uint64_t key) const;
  std::uint64_t inode_block(std::uint64_t ino) const;
  std::uint64_t flex_groups() const { return flex_groups_; }
  // The block groups of a device of `device_bytes` (one per 128 MiB, at
  // least one), and the inodes they hold: what the layout can allocate.
  static std::uint64_t groups_of(std::uint64_t device_bytes);
  static std::uint64_t inode_count(std::uint64_t device_bytes);
  // The inodes a tree takes: the reserved ones (1 to kFirstIno, lost+found
  // the last), then one per directory and per file. The layout is out of
  // inodes (and its constructor throws) when this exceeds inode_count.
  static std::uint64_t inodes_needed(const std::vector<std::uint32_t>& tree);
  // Blocks of a directory holding `entries` names 1..entries.
  static std::uint64_t dir_blocks_for(std::uint64_t entries);
  // Where each file's data starts (bytes), for the files' sizes in file-id
  // order, written once with fill factor `fill` (0 < fill <= 1; see above).
  // Throws DataSetTooLarge.
  std::vector<std::uint64_t> place_files(const std::vector<std::uint64_t>& sizes, double fill) const;
  // The file data's goal block for a file (ext4_inode_to_goal_block).
  std::uint64_t data_goal(std::uint32_t file) const;

 private:
  struct Dir {
    std::uint64_t first_block = 0;
    std::uint64_t blocks = 1;
  };
  std::uint64_t index_of(std::uint64_t key) const;
  std::uint64_t table_start(std::uint64_t group) const;
  std::uint64_t flex_start(std::uint64_t flex) const { return flex * Ext4Geometry::kFlex * Ext4Geometry::kBlocksPerGroup; }
  void build(sim::RandomStream& rng);
  std::uint64_t allocate_inode(std::uint64_t flex);
  Dir allocate_dir(std::uint64_t flex, std::uint64_t entries);

  std::vector<std::uint32_t> tree_;
  std::vector<std::uint64_t> level_base_;  // index of each level's first component
  std::uint64_t groups_ = 1;
  std::uint64_t flex_groups_ = 1;
  std::uint64_t inodes_in_flex(std::uint64_t flex) const;
  std::uint64_t device_blocks_ = 0;
  std::uint32_t readahead_blks_;
  std::vector<std::uint64_t> ino_;   // per component: its inode number
  std::vector<Dir> dirs_;            // per component (directories only used)
  Dir root_;
  // Per flex group in use: the next inode (counted from its first group) and
  // the next directory block; and per group, the inodes used.
  struct FlexFill {
    std::uint64_t inodes = 0;
    std::uint64_t dir_blocks = 0;
  };
  FlexFill& fill(std::uint64_t flex);
  std::unordered_map<std::uint64_t, FlexFill> fill_;          // flex groups in use (looked up, never iterated)
  std::unordered_map<std::uint64_t, std::uint64_t> group_used_;  // group -> inodes used
  std::uint64_t used_in_group(std::uint64_t group) const;
  // Free runs of blocks [start, end) once the metadata and directories are
  // in: in the data groups, and what the first group of each flex group has
  // left after its metadata and directories.
  struct FreeRuns {
    std::map<std::uint64_t, std::uint64_t> data, first_groups;
  };
  FreeRuns free_data_runs() const;
};

}  // namespace models
