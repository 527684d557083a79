#include "models/scenario/world_files.h"

#include "models/server/http_response.h"

namespace models {

void warm_caches(const Scenario& sc, const Filesystem& files, DentryCache& dentries, PageCache& cache) {
  const bool no_disk = sc.hardware.disk == DiskKind::kNone;
  // Evicting a file's inode drops its pages (Linux: truncate_inode_pages()
  // when an inode is evicted).
  dentries.on_evict([&files, &cache](std::uint64_t key) {
    const std::int64_t file = files.file_of_key(key);
    if (file >= 0) cache.drop_file(static_cast<std::uint32_t>(file));
  });
  if (sc.metadata_cached || no_disk) {
    // Last files first, so that a dentry cache too small for every path
    // holds the paths of the first files, whose data is preloaded below.
    std::uint64_t keys[8];
    for (std::uint32_t f = files.files(); f-- > 0;) {
      const std::uint32_t n = files.components(f, keys);
      for (std::uint32_t i = 0; i < n; ++i) dentries.insert(keys[i]);
    }
  }
  // Cache the first files (the file order is unrelated to placement and to
  // which files clients ask for), or all of them when there is no disk,
  // then the files named.
  const double cached = no_disk ? 1.0 : sc.preload_fraction;
  const auto preloaded = static_cast<std::uint32_t>(cached * files.files());
  for (std::uint32_t f = 0; f < preloaded; ++f) cache.preload(f);
  for (const std::string& p : sc.preload) cache.preload(static_cast<std::uint32_t>(files.file_of(p)));
}

bool data_fits(const Scenario& sc, const Filesystem& files) {
  if (sc.hardware.disk == DiskKind::kNone) return true;
  std::uint64_t bytes = 0;
  for (std::uint32_t f = 0; f < files.files(); ++f) bytes += files.file_size(f);
  return bytes <= sc.hardware.page_cache_bytes;
}

bool nothing_to_settle(const Scenario& sc, const Filesystem& files) {
  if (sc.hardware.disk == DiskKind::kNone) return true;
  // Entries: every file's inode and every directory of the tree.
  std::uint64_t entries = files.files(), dirs = 1;
  const std::vector<std::uint32_t>& tree = sc.filesystem.tree;
  for (std::size_t l = 0; l + 1 < tree.size(); ++l) entries += (dirs *= tree[l]);
  return data_fits(sc, files) && entries <= sc.hardware.dentry_cache_entries;
}

std::vector<std::uint64_t> response_bytes(const Scenario& sc, const Filesystem& files) {
  std::vector<std::uint64_t> bytes(files.files());
  for (std::uint32_t f = 0; f < files.files(); ++f)
    bytes[f] = files.file_size(f) + nginx_header_bytes(sc.nginx.version, files.file_size(f));
  return bytes;
}

NginxConfig server_config(const Scenario& sc) {
  NginxConfig nginx = sc.nginx;
  for (const WrkGroupSpec& g : sc.clients) nginx.placement.push_back(g.placement);
  return nginx;
}

}  // namespace models
