#include "models/os/ext4_layout.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace models {

using G = Ext4Geometry;

Ext4Layout::Ext4Layout(const std::vector<std::uint32_t>& tree, std::uint64_t device_bytes,
                       std::uint32_t inode_readahead_blks, sim::RandomStream rng)
    : tree_(tree), readahead_blks_(inode_readahead_blks) {
  if (tree_.empty() || tree_.size() > 8) throw std::invalid_argument("ext4 layout: 1 to 8 levels");
  if (inode_readahead_blks == 0 || (inode_readahead_blks & (inode_readahead_blks - 1)))
    throw std::invalid_argument("ext4 layout: inode_readahead_blks must be a power of two");
  device_blocks_ = std::max<std::uint64_t>(device_bytes / G::kBlock, 1);
  groups_ = groups_of(device_bytes);
  flex_groups_ = (groups_ + G::kFlex - 1) / G::kFlex;
  std::uint64_t count = 1, base = 0;
  for (const std::uint32_t n : tree_) {
    count *= n;
    level_base_.push_back(base);
    base += count;
  }
  ino_.assign(base, 0);
  dirs_.assign(base, Dir{});
  build(rng);
}

std::uint64_t Ext4Layout::groups_of(std::uint64_t device_bytes) {
  return std::max<std::uint64_t>(device_bytes / G::kBlock / G::kBlocksPerGroup, 1);
}

std::uint64_t Ext4Layout::inode_count(std::uint64_t device_bytes) {
  return groups_of(device_bytes) * G::kInodesPerGroup;
}

// Every component of every level (build() gives each its inode) after the
// reserved ones. A loaded tree multiplies to its files (below 2^32), so
// nothing wraps; the counts saturate all the same for any other tree.
std::uint64_t Ext4Layout::inodes_needed(const std::vector<std::uint32_t>& tree) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t count = 1, total = G::kFirstIno;
  for (const std::uint32_t n : tree) {
    count = n != 0 && count > kMax / n ? kMax : count * n;
    total = total > kMax - count ? kMax : total + count;
  }
  return total;
}

std::uint64_t Ext4Layout::dir_blocks_for(std::uint64_t entries) {
  std::uint64_t bytes = 24;  // "." and ".."
  std::uint64_t digits = 1, next_power = 10;
  for (std::uint64_t i = 1; i <= entries; ++i) {
    if (i == next_power) {
      ++digits;
      next_power *= 10;
    }
    bytes += (8 + digits + 3) / 4 * 4;
  }
  return (bytes + G::kBlock - 1) / G::kBlock;
}

std::uint64_t Ext4Layout::inodes_in_flex(std::uint64_t flex) const {
  return std::min<std::uint64_t>(G::kFlex, groups_ - flex * G::kFlex) * G::kInodesPerGroup;
}

Ext4Layout::FlexFill& Ext4Layout::fill(std::uint64_t flex) { return fill_[flex]; }

// A full flex group sends the inode to the next one with room
// (find_group_other's fallback probes the groups in turn).
std::uint64_t Ext4Layout::allocate_inode(std::uint64_t flex) {
  for (std::uint64_t tried = 0; fill(flex).inodes >= inodes_in_flex(flex); ++tried) {
    if (tried == flex_groups_) throw std::invalid_argument("ext4 layout: the file system is out of inodes");
    flex = (flex + 1) % flex_groups_;
  }
  FlexFill& f = fill(flex);
  const std::uint64_t in_flex = f.inodes++;
  const std::uint64_t group = flex * G::kFlex + in_flex / G::kInodesPerGroup;
  const std::uint64_t ino = group * G::kInodesPerGroup + in_flex % G::kInodesPerGroup + 1;
  group_used_[group] = in_flex % G::kInodesPerGroup + 1;
  return ino;
}

Ext4Layout::Dir Ext4Layout::allocate_dir(std::uint64_t flex, std::uint64_t entries) {
  FlexFill& f = fill(flex);
  Dir d;
  d.blocks = dir_blocks_for(entries);
  // After the flex group's bitmaps (2 x 16 blocks) and inode tables.
  d.first_block = flex_start(flex) + 2 * G::kFlex + G::kFlex * G::kTableBlocks + f.dir_blocks;
  f.dir_blocks += d.blocks;
  return d;
}

// Depth-first creation, as a script making the tree would: a directory,
// then its entries.
void Ext4Layout::build(sim::RandomStream& rng) {
  // Flex group 0 holds the reserved inodes 1..10 and lost+found (11, whose
  // directory takes 4 blocks after the root's).
  fill(0).inodes = G::kFirstIno;
  group_used_[0] = G::kFirstIno;
  root_ = allocate_dir(0, tree_[0]);
  fill(0).dir_blocks += 4;
  // find_group_orlov for top-level directories: distinct random flex groups
  // while any is unused (every flex group has as few directories), then
  // again over all of them.
  std::unordered_map<std::uint64_t, bool> used_top;
  auto top_flex = [&]() {
    if (used_top.size() >= flex_groups_) used_top.clear();
    for (;;) {
      const std::uint64_t f = rng.below(flex_groups_);
      if (used_top.emplace(f, true).second) return f;
    }
  };
  const auto levels = static_cast<std::uint32_t>(tree_.size());
  struct Frame {
    std::uint32_t level;
    std::uint64_t prefix;
    std::uint64_t flex;
  };
  std::vector<Frame> stack;
  for (std::uint64_t c = tree_[0]; c-- > 0;) stack.push_back({0, c, 0});
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    const std::uint64_t index = level_base_[f.level] + f.prefix;
    const bool dir = f.level + 1 < levels;
    const std::uint64_t flex = dir && f.level == 0 ? top_flex() : f.flex;
    ino_[index] = allocate_inode(flex);
    if (!dir) continue;
    const std::uint32_t children = tree_[f.level + 1];
    dirs_[index] = allocate_dir(flex, children);
    for (std::uint64_t c = children; c-- > 0;) stack.push_back({f.level + 1, f.prefix * children + c, flex});
  }
}

std::uint64_t Ext4Layout::index_of(std::uint64_t key) const {
  const std::uint64_t level = (key >> 56) - 1;
  if (level >= tree_.size()) throw std::invalid_argument("ext4 layout: not a component key");
  return level_base_[level] + (key & ((1ULL << 56) - 1));
}

std::uint64_t Ext4Layout::parent_key(std::uint64_t key) const {
  const std::uint64_t level = (key >> 56) - 1;
  if (level == 0) return 0;
  return (level << 56) | ((key & ((1ULL << 56) - 1)) / tree_[level]);
}

std::uint32_t Ext4Layout::lookup_blocks(std::uint64_t key, std::uint64_t* out) const {
  const std::uint64_t parent = parent_key(key);
  const Dir& d = parent == 0 ? root_ : dirs_[index_of(parent)];
  const std::uint64_t level = (key >> 56) - 1;
  const std::uint64_t entry = (key & ((1ULL << 56) - 1)) % tree_[level];
  if (d.blocks == 1) {
    out[0] = d.first_block % device_blocks_;
    return 1;
  }
  // htree: the root block, then the leaf that holds the name (hash order is
  // not name order; the entry's share of the leaves stands in for it).
  out[0] = d.first_block % device_blocks_;
  out[1] = (d.first_block + 1 + entry * (d.blocks - 1) / tree_[level]) % device_blocks_;
  return 2;
}

std::uint64_t Ext4Layout::inode_number(std::uint64_t key) const { return ino_[index_of(key)]; }

std::uint64_t Ext4Layout::table_start(std::uint64_t group) const {
  const std::uint64_t flex = group / G::kFlex;
  return flex_start(flex) + 2 * G::kFlex + (group % G::kFlex) * G::kTableBlocks;
}

std::uint64_t Ext4Layout::inode_block(std::uint64_t ino) const {
  const std::uint64_t group = (ino - 1) / G::kInodesPerGroup;
  const std::uint64_t index = (ino - 1) % G::kInodesPerGroup;
  return table_start(group) + index / G::kInodesPerBlock;
}

std::uint64_t Ext4Layout::used_in_group(std::uint64_t group) const {
  const auto it = group_used_.find(group);
  return it == group_used_.end() ? 0 : it->second;
}

InodeRead Ext4Layout::inode_read(std::uint64_t key) const {
  const std::uint64_t ino = inode_number(key);
  const std::uint64_t group = (ino - 1) / G::kInodesPerGroup;
  const std::uint64_t block = inode_block(ino);
  const std::uint64_t table = table_start(group);
  std::uint64_t b = block & ~(std::uint64_t{readahead_blks_} - 1);
  if (table > b) b = table;
  std::uint64_t end = b + readahead_blks_;
  const std::uint64_t table_end = table + used_in_group(group) / G::kInodesPerBlock;
  if (end > table_end) end = table_end;
  InodeRead r;
  r.block = block % device_blocks_;
  r.ra_first = b % device_blocks_;
  r.ra_count = end >= b ? end - b + 1 : 0;
  if (r.ra_first + r.ra_count > device_blocks_) r.ra_count = device_blocks_ - r.ra_first;
  return r;
}

}  // namespace models

namespace models {

Ext4Layout::FreeRuns Ext4Layout::free_data_runs() const {
  FreeRuns free;
  for (std::uint64_t f = 0; f < flex_groups_; ++f) {
    const auto it = fill_.find(f);
    const std::uint64_t dirs = it == fill_.end() ? 0 : it->second.dir_blocks;
    const std::uint64_t start = std::min(flex_start(f) + 2 * G::kFlex + G::kFlex * G::kTableBlocks + dirs, device_blocks_);
    const std::uint64_t second = std::min(flex_start(f) + G::kBlocksPerGroup, device_blocks_);
    const std::uint64_t end = std::min(flex_start(f + 1), device_blocks_);
    if (start < second) free.first_groups.emplace(start, second);
    if (second < end) free.data.emplace(second, end);
  }
  return free;
}

std::uint64_t Ext4Layout::data_goal(std::uint32_t file) const {
  const std::uint64_t ino = ino_[level_base_.back() + file];
  const std::uint64_t group = (ino - 1) / G::kInodesPerGroup;
  // The flex group's first group, and for a regular file the one after it.
  const std::uint64_t goal = (group & ~(G::kFlex - 1)) * G::kBlocksPerGroup + G::kBlocksPerGroup;
  // ext4_mb_new_blocks: a goal outside the device becomes the first data block.
  return goal < device_blocks_ ? goal : 0;
}

namespace {
// The first free run from `pos` on (wrapping once) with room for `blocks`
// after max(its start, pos); end() when there is none.
using Runs = std::map<std::uint64_t, std::uint64_t>;
std::pair<Runs::iterator, std::uint64_t> first_fit(Runs& runs, std::uint64_t pos, std::uint64_t blocks) {
  auto it = runs.upper_bound(pos);
  if (it != runs.begin() && std::prev(it)->second > pos) --it;
  const Runs::iterator stop = it;
  bool wrapped = false;
  for (;;) {
    if (it == runs.end()) {
      if (wrapped) return {runs.end(), 0};
      wrapped = true;
      it = runs.begin();
      pos = 0;
      continue;
    }
    const std::uint64_t at = std::max(it->first, pos);
    if (it->second >= at + blocks) return {it, at};
    if (wrapped && it == stop) return {runs.end(), 0};
    ++it;
  }
}
}  // namespace

std::vector<std::uint64_t> Ext4Layout::place_files(const std::vector<std::uint64_t>& sizes, double fill) const {
  if (sizes.size() != ino_.size() - level_base_.back()) throw std::invalid_argument("ext4 layout: one size per file");
  if (!(fill > 0 && fill <= 1)) throw std::invalid_argument("ext4 layout: the fill factor is above 0, at most 1");
  FreeRuns free = free_data_runs();
  std::uint64_t free_blocks = 0, data_blocks = 0, span_blocks = 0;
  for (const Runs* tier : {&free.data, &free.first_groups})
    for (const auto& [start, end] : *tier) free_blocks += end - start;
  auto blocks_of = [](std::uint64_t bytes) { return std::max<std::uint64_t>((bytes + G::kBlock - 1) / G::kBlock, 1); };
  // The extent and the other data after it (fill factor).
  auto span_of = [fill](std::uint64_t blocks) {
    return std::max(blocks, static_cast<std::uint64_t>(std::ceil(static_cast<double>(blocks) / fill)));
  };
  for (const std::uint64_t s : sizes) {
    data_blocks += blocks_of(s);
    span_blocks += span_of(blocks_of(s));
  }
  auto too_large = [&] {
    return DataSetTooLarge(data_blocks * G::kBlock, span_blocks * G::kBlock, free_blocks * G::kBlock,
                           device_blocks_ * G::kBlock);
  };
  if (span_blocks > free_blocks) throw too_large();
  std::vector<std::uint64_t> offsets(sizes.size());
  std::unordered_map<std::uint64_t, std::uint64_t> next;  // per goal: where its last file ended
  for (std::uint32_t f = 0; f < sizes.size(); ++f) {
    const std::uint64_t goal = data_goal(f);
    const auto cursor = next.find(goal);
    const std::uint64_t blocks = blocks_of(sizes[f]);
    Runs* runs = &free.data;
    std::pair<Runs::iterator, std::uint64_t> fit =
        first_fit(*runs, cursor == next.end() ? goal : cursor->second, blocks);
    if (fit.first == runs->end()) {
      // Only then the first groups of flex groups (ext4_mb_good_group's first pass skips them for data).
      runs = &free.first_groups;
      fit = first_fit(*runs, goal, blocks);
      if (fit.first == runs->end()) throw too_large();  // fragmented: no run holds the file
    }
    const Runs::iterator run = fit.first;
    const std::uint64_t at = fit.second;
    const std::uint64_t start = run->first, end = run->second;
    const std::uint64_t taken_end = std::min(end, at + span_of(blocks));
    runs->erase(run);
    if (start < at) runs->emplace(start, at);
    if (taken_end < end) runs->emplace(taken_end, end);
    offsets[f] = at * G::kBlock;
    if (runs == &free.data) next[goal] = taken_end;
  }
  return offsets;
}

}  // namespace models
