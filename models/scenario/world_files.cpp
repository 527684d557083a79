#include "models/scenario/world_files.h"

#include "models/scenario/disk_kinds.h"
#include <fmt/format.h>

#include "models/scenario/config_error.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/stream_ids.h"
#include "models/server/http_response.h"
#include "models/server/pool_choice.h"

namespace models {

MachineDisks make_disks(const HardwareSpec& hw, sim::Engine& engine, const sim::RandomStreams& streams) {
  MachineDisks out;
  out.device = disk_kind(hw.disk).make(hw.disk, DiskBuild{engine, hw, streams});
  out.first_capacity = out.device->capacity();
  if (hw.disks.empty()) return out;
  std::vector<DiskSet::Member> members;
  members.push_back({"disk", std::move(out.device)});
  for (std::size_t i = 0; i < hw.disks.size(); ++i) {
    const HardwareSpec::NamedDisk& d = hw.disks[i];
    const sim::RandomStreams own(streams.stream(kStreamMoreDisks, i).next_u64());
    members.push_back({d.name, disk_kind(d.spec).make(d.spec, DiskBuild{engine, hw, own})});
  }
  auto set = std::make_unique<DiskSet>(std::move(members));
  out.set = set.get();
  out.device = std::move(set);
  return out;
}

namespace {
// The member of `disks` whose mount point is the longest prefix of `path`.
std::uint32_t disk_of_path(const HardwareSpec& hw, const std::string& path) {
  auto under = [&path](const std::string& mount) {
    return mount == "/" || path == mount || (path.rfind(mount, 0) == 0 && path[mount.size()] == '/');
  };
  std::uint32_t best = 0;
  std::size_t best_len = under(hw.disk_mount) ? hw.disk_mount.size() : 0;
  for (std::size_t i = 0; i < hw.disks.size(); ++i)
    if (under(hw.disks[i].mount) && hw.disks[i].mount.size() > best_len) {
      best = static_cast<std::uint32_t>(i + 1);
      best_len = hw.disks[i].mount.size();
    }
  return best;
}
}  // namespace

DiskPlacement disk_placement(const Scenario& sc, const MachineDisks& disks) {
  DiskPlacement out;
  if (!disks.set) return out;
  const NginxConfig& n = sc.nginx;
  for (std::size_t m = 0; m < disks.set->members(); ++m) {
    out.base.push_back(disks.set->base(m));
    out.capacity.push_back(disks.set->member(m).capacity());
  }
  out.disk_of.assign(sc.filesystem.files, 0);
  if (n.proxy_cache.empty()) return out;
  // Each split_clients value's zone, its path's disk (the loader checked that each exists).
  auto disk_of_zone = [&](const std::string& value) {
    const std::string zone = split_template(n, n.proxy_cache, value);
    for (const ProxyCachePath& p : n.proxy_cache_paths)
      if (p.keys_zone == zone) return disk_of_path(sc.hardware, p.path);
    return 0u;
  };
  if (!n.split_clients.enabled()) {
    std::fill(out.disk_of.begin(), out.disk_of.end(), disk_of_zone(""));
    return out;
  }
  const SplitClients split(n.split_clients.parts);
  std::vector<std::uint32_t> of_part;
  for (const SplitPart& p : n.split_clients.parts) of_part.push_back(disk_of_zone(p.value));
  of_part.push_back(disk_of_zone(""));
  std::vector<std::uint32_t> tree = sc.filesystem.tree;
  if (tree.empty()) tree = {sc.filesystem.files};
  for (std::uint32_t f = 0; f < sc.filesystem.files; ++f)
    out.disk_of[f] = of_part[split.part_of(file_path(tree, sc.filesystem.files, f))];
  return out;
}

MetadataCaches make_metadata_caches(const Scenario& sc, BlockDevice& disk, std::uint64_t layout_capacity,
                                    PageCache& cache, sim::RandomStream layout_rng, std::uint64_t write_seed) {
  const KernelProfile& k = sc.kernel_profile;
  MetadataCaches m;
  m.vfs = std::make_unique<VfsCache>(VfsCacheSpec{k.vfs_cache_pressure, k.dentry_objsize, k.inode_objsize}, &cache);
  cache.set_reclaim_listener(m.vfs.get());
  m.layout = std::make_unique<Ext4Layout>(sc.filesystem.tree, layout_capacity, k.inode_readahead_blks, layout_rng);
  m.walk = std::make_unique<PathWalk>(disk, cache, *m.vfs, *m.layout, write_seed);
  return m;
}

std::unique_ptr<Filesystem> make_filesystem(const Scenario& sc, PageCache& cache, std::uint64_t device_capacity,
                                            const MetadataCaches& m, const sim::RandomStreams& streams,
                                            const DiskPlacement* disks) {
  const bool disk = !disk_kind(sc.hardware.disk).in_memory;
  try {
    return std::make_unique<Filesystem>(sc.filesystem, cache, device_capacity, streams.stream(kStreamPlacement),
                                        streams.stream(kStreamSizes), disk ? m.layout.get() : nullptr,
                                        disks && !disks->disk_of.empty() ? disks : nullptr);
  } catch (const DataSetTooLarge& e) {
    const std::string with_fill =
        e.span_bytes == e.data_bytes
            ? std::string()
            : fmt::format(" ({} bytes with fill_factor = {:g})", e.span_bytes, sc.filesystem.fill_factor);
    throw ConfigError(sc.files_at.file, sc.files_at.line, "dataset.files",
                      fmt::format("the data set does not fit on the disk: its {} files take {} bytes in 4 KiB blocks{}, "
                                  "but the device has {} bytes, {} of them free for file data after ext4's metadata: "
                                  "give a larger disk, or fewer or smaller files",
                                  sc.filesystem.files, e.data_bytes, with_fill, e.device_bytes, e.free_bytes));
  }
}

void tie_inodes_to_pages(MetadataCaches& m, const Filesystem& files, PageCache& cache) {
  m.inode_pages = std::make_unique<InodePages>(files, cache);
  m.vfs->set_evict_listener(m.inode_pages.get());
}

namespace {
// The dentries and inodes of a file's path, as reading it left them.
void instantiate_path(const Filesystem& files, std::uint32_t file, VfsCache& vfs) {
  std::uint64_t keys[8];
  const std::uint32_t n = files.components(file, keys);
  for (std::uint32_t i = 0; i < n; ++i) vfs.instantiate(keys[i], i == 0 ? VfsCache::kRoot : keys[i - 1]);
}
}  // namespace

namespace {
// The preloaded files in the page cache's units, against its capacity.
void check_preload_fits(const Scenario& sc, const Filesystem& files, const std::vector<std::uint32_t>& loaded) {
  if (disk_kind(sc.hardware.disk).in_memory) return;  // the loader checks that everything fits
  const std::uint64_t unit = sc.hardware.cache_unit_bytes;
  const std::uint64_t capacity = sc.hardware.page_cache_bytes / unit * unit;
  std::vector<bool> seen(files.files(), false);
  std::uint64_t bytes = 0;
  for (const std::uint32_t f : loaded) {
    if (seen[f]) continue;
    seen[f] = true;
    bytes += (files.file_size(f) + unit - 1) / unit * unit;
  }
  if (bytes <= capacity) return;
  const bool fraction = sc.preload_fraction > 0;
  throw ConfigError(sc.preload_at.file, sc.preload_at.line, fraction ? "dataset.preload_fraction" : "preload",
                    fmt::format("the preloaded files take {} bytes of page cache (in {}-byte cache units), more than "
                                "memory.page_cache = {} bytes: a preload cannot exceed the cache (it would evict "
                                "itself); preload less, or let a warm-up fill the cache (the warmup key)",
                                bytes, unit, sc.hardware.page_cache_bytes));
}
}  // namespace

// The preload inserts one entry per cache unit: room for them all at once.
static void reserve_preloaded(std::uint32_t preloaded, PageCache& cache) {
  std::uint64_t units = 0;
  for (std::uint32_t f = 0; f < preloaded; ++f) units += cache.units_of(f);
  cache.reserve_units(units);
}

void warm_caches(const Scenario& sc, const Filesystem& files, VfsCache& vfs, PageCache& cache) {
  const bool no_disk = disk_kind(sc.hardware.disk).in_memory;
  // Cache the first files (the file order is unrelated to placement and to
  // which files clients ask for), or all of them when there is no disk,
  // then the files named. Their paths' dentries and inodes are cached
  // after all the data, so that loading the data cannot shrink them away.
  const double cached = no_disk ? 1.0 : sc.preload_fraction;
  const auto preloaded = static_cast<std::uint32_t>(cached * files.files());
  std::vector<std::uint32_t> loaded;
  for (std::uint32_t f = 0; f < preloaded; ++f) loaded.push_back(f);
  for (const std::string& p : sc.preload) loaded.push_back(static_cast<std::uint32_t>(files.file_of(p)));
  check_preload_fits(sc, files, loaded);  // before loading: a file far larger than the cache would evict itself for minutes
  reserve_preloaded(preloaded, cache);
  for (const std::uint32_t f : loaded) cache.preload(f);
  for (const std::uint32_t f : loaded) instantiate_path(files, f, vfs);
}

static std::uint64_t data_bytes(const Filesystem& files) {
  std::uint64_t bytes = 0;
  for (std::uint32_t f = 0; f < files.files(); ++f) bytes += files.file_size(f);
  return bytes;
}

bool data_fits(const Scenario& sc, const Filesystem& files) {
  if (disk_kind(sc.hardware.disk).in_memory) return true;
  return data_bytes(files) <= sc.hardware.page_cache_bytes;
}

bool nothing_to_settle(const Scenario& sc, const Filesystem& files) {
  if (disk_kind(sc.hardware.disk).in_memory) return true;
  // Entries: every file's inode and every directory of the tree.
  std::uint64_t entries = files.files(), dirs = 1;
  const std::vector<std::uint32_t>& tree = sc.filesystem.tree;
  for (std::size_t l = 0; l + 1 < tree.size(); ++l) entries += (dirs *= tree[l]);
  // Their dentries and inodes take slab memory from the same budget as the
  // data (vfs_cache.h); with room for both, nothing is ever reclaimed.
  const KernelProfile& k = sc.kernel_profile;
  return data_bytes(files) + entries * (k.dentry_objsize + k.inode_objsize) <= sc.hardware.page_cache_bytes;
}

std::vector<std::uint64_t> response_bytes(const Scenario& sc, const Filesystem& files) {
  std::vector<std::uint64_t> bytes(files.files());
  for (std::uint32_t f = 0; f < files.files(); ++f)
    bytes[f] = files.file_size(f) + nginx_header_bytes(sc.nginx.version, files.file_size(f));
  return bytes;
}

std::vector<FilePicker> file_pickers(const Scenario& sc, const Filesystem& files, const sim::RandomStreams& streams) {
  std::vector<FilePicker> pickers;
  std::shared_ptr<const std::vector<std::uint32_t>> rankings[3];  // per PopularSizes
  for (const WrkGroupSpec& g : sc.clients) {
    const PopularitySpec& p = g.popularity;
    if (g.fixed_file >= 0 || p.kind == PopularityKind::kUniform) {
      pickers.emplace_back(files.files());
      continue;
    }
    auto& ranking = rankings[static_cast<int>(p.sizes)];
    if (!ranking)
      ranking = std::make_shared<const std::vector<std::uint32_t>>(
          popularity_ranking(files.sizes(), p.sizes, streams.stream(kStreamPopularity)));
    pickers.emplace_back(p, ranking);
  }
  return pickers;
}

NginxConfig server_config(const Scenario& sc) {
  NginxConfig nginx = sc.nginx;
  for (const WrkGroupSpec& g : sc.clients) nginx.placement.push_back(g.placement);
  return nginx;
}

}  // namespace models
