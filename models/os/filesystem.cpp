#include "models/os/filesystem.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "sim/flat_map.h"

namespace models {

std::vector<std::uint64_t> draw_file_sizes(const FilesystemSpec& spec, sim::RandomStream& size_rng) {
  if (!spec.sizes.empty()) return spec.sizes;
  if (spec.size_mix.empty()) return std::vector<std::uint64_t>(spec.files, spec.file_size);
  double total = 0;
  for (const SizeClass& c : spec.size_mix) total += c.weight;
  std::vector<std::uint64_t> sizes;
  sizes.reserve(spec.files);
  for (std::uint32_t f = 0; f < spec.files; ++f) {
    double u = size_rng.uniform() * total;
    const SizeClass* pick = &spec.size_mix.back();
    for (const SizeClass& c : spec.size_mix) {
      if (u < c.weight) {
        pick = &c;
        break;
      }
      u -= c.weight;
    }
    // A one-size class takes no second draw: older mixes draw as before.
    sizes.push_back(pick->min == pick->max ? pick->min : pick->min + size_rng.below(pick->max - pick->min + 1));
  }
  return sizes;
}

Filesystem::Filesystem(const FilesystemSpec& spec, PageCache& cache, std::uint64_t capacity, sim::RandomStream rng,
                       sim::RandomStream size_rng, const Ext4Layout* layout, const DiskPlacement* disks)
    : spec_(spec) {
  if (!spec.size_mix.empty() || !spec.sizes.empty()) sizes_ = draw_file_sizes(spec, size_rng);
  if (!sizes_.empty() && sizes_.size() != spec.files) throw std::invalid_argument("filesystem: sizes for a different file count");
  if (spec_.tree.empty()) spec_.tree = {spec.files};
  std::uint64_t product = 1;
  for (auto n : spec_.tree) product *= n;
  if (product != spec.files) throw std::invalid_argument("filesystem: tree does not multiply to the file count");
  if (disks && disks->disk_of.size() != spec.files) throw std::invalid_argument("filesystem: one disk per file");
  if (spec.placement != Placement::kExt4) {
    place_in_slots(capacity, rng);
  } else if (layout) {
    std::vector<std::uint64_t> on_first = sizes();
    if (disks)  // another disk's file takes no room on the first (ext4 still gives it an inode)
      for (std::uint32_t i = 0; i < spec.files; ++i)
        if (disks->disk_of[i] != 0) on_first[i] = 0;
    offsets_ = layout->place_files(on_first, spec.fill_factor);
  } else {
    // Back to back by their own sizes in 4 KiB blocks (no disk: where does not matter).
    offsets_.resize(spec.files);
    std::uint64_t at = 0;
    for (std::uint32_t i = 0; i < spec.files; ++i) {
      offsets_[i] = at;
      at += (file_size(i) + Ext4Geometry::kBlock - 1) / Ext4Geometry::kBlock * Ext4Geometry::kBlock;
    }
  }
  if (disks) place_on_other_disks(*disks);
  for (std::uint32_t i = 0; i < spec.files; ++i) cache.add_file(offsets_[i], file_size(i));
}

void Filesystem::place_on_other_disks(const DiskPlacement& disks) {
  std::vector<std::uint64_t> at(disks.base.begin(), disks.base.end());
  for (std::uint32_t i = 0; i < spec_.files; ++i) {
    const std::uint32_t d = disks.disk_of[i];
    if (d == 0) continue;
    const std::uint64_t blocks = std::max<std::uint64_t>((file_size(i) + Ext4Geometry::kBlock - 1) / Ext4Geometry::kBlock, 1);
    offsets_[i] = at[d];
    at[d] += blocks * Ext4Geometry::kBlock;
  }
  for (std::size_t d = 1; d < at.size(); ++d)
    if (at[d] - disks.base[d] > disks.capacity[d])
      throw DataSetTooLarge(at[d] - disks.base[d], at[d] - disks.base[d], disks.capacity[d], disks.capacity[d]);
}

void Filesystem::place_in_slots(std::uint64_t capacity, sim::RandomStream& rng) {
  const FilesystemSpec& spec = spec_;
  const std::uint64_t slot = (largest_file() + PageCache::kPage - 1) / PageCache::kPage * PageCache::kPage;
  const std::uint64_t slots = capacity / slot;
  if (slots < spec.files) throw std::invalid_argument("filesystem: the files do not fit on the device");
  offsets_.resize(spec.files);
  if (spec.placement == Placement::kSpread) {
    // A random injection of files into slots (sampling without replacement):
    // a partial Fisher-Yates shuffle when the files fill much of the device,
    // otherwise draws with repeats rejected.
    std::vector<std::uint64_t> order;
    if (slots <= 4 * std::uint64_t{spec.files}) {
      order.resize(slots);
      std::iota(order.begin(), order.end(), 0);
      for (std::uint32_t i = 0; i < spec.files; ++i) std::swap(order[i], order[i + rng.below(slots - i)]);
    } else {
      // Sparse case: draw slots and reject repeats; memory stays O(files).
      sim::FlatMap taken(spec.files);  // one allocation, not a node per file
      order.reserve(spec.files);
      while (order.size() < spec.files) {
        const std::uint64_t s = rng.below(slots);
        if (taken.contains(s)) continue;
        taken.put(s, 0);
        order.push_back(s);
      }
    }
    for (std::uint32_t i = 0; i < spec.files; ++i) offsets_[i] = order[i] * slot;
  } else {
    for (std::uint32_t i = 0; i < spec.files; ++i) offsets_[i] = std::uint64_t{i} * slot;
  }
}

std::vector<std::uint64_t> Filesystem::sizes() const {
  if (!sizes_.empty()) return sizes_;
  return std::vector<std::uint64_t>(spec_.files, spec_.file_size);
}

std::uint64_t Filesystem::largest_file() const {
  if (sizes_.empty()) return spec_.file_size;
  return *std::max_element(sizes_.begin(), sizes_.end());
}

std::uint32_t Filesystem::components(std::uint32_t file, std::uint64_t* out) const {
  // Key of level L: (L+1) in the top byte, then the index of the path prefix.
  const auto levels = static_cast<std::uint32_t>(spec_.tree.size());
  std::uint64_t below = spec_.files;
  for (std::uint32_t level = 0; level < levels; ++level) {
    below /= spec_.tree[level];
    const std::uint64_t prefix = file / below;
    out[level] = (std::uint64_t{level + 1} << 56) | prefix;
  }
  return levels;
}

std::string Filesystem::path(std::uint32_t file) const { return file_path(spec_.tree, spec_.files, file); }

std::string file_path(const std::vector<std::uint32_t>& tree, std::uint64_t files, std::uint32_t file) {
  std::string out;
  std::uint64_t below = files;
  for (auto n : tree) {
    below /= n;
    out.push_back('/');
    out += std::to_string(file / below % n + 1);
  }
  return out;
}

std::int64_t resolve_path(const std::vector<std::uint32_t>& tree, const std::string& p) {
  std::int64_t file = 0;
  std::size_t pos = 0;
  for (auto n : tree) {
    if (pos >= p.size() || p[pos] != '/') return -1;
    const std::size_t end = p.find('/', pos + 1);
    const std::string name = p.substr(pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
    if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) return -1;
    const long v = std::stol(name);
    if (v < 1 || v > static_cast<long>(n)) return -1;
    file = file * n + (v - 1);
    pos = end == std::string::npos ? p.size() : end;
  }
  return pos == p.size() ? file : -1;
}

std::int64_t Filesystem::file_of(const std::string& p) const { return resolve_path(spec_.tree, p); }

}  // namespace models
