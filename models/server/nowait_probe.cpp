#include "models/server/nowait_probe.h"

#include <algorithm>
#include <cstdio>

namespace models {

std::optional<LinuxRelease> parse_linux_release(const std::string& release) {
  LinuxRelease r;
  int used = 0;
  if (std::sscanf(release.c_str(), "%d.%d%n", &r.major, &r.minor, &used) != 2 || r.major < 0 || r.minor < 0)
    return std::nullopt;
  const char next = release.c_str()[used];
  if (next != '\0' && next != '.' && next != '-' && next != '+') return std::nullopt;
  return r;
}

std::uint64_t chunk_bytes(const PageCache& cache, std::uint32_t file, std::uint64_t position, std::uint64_t limit) {
  const std::uint64_t size = cache.file_size(file);
  return position >= size ? 0 : std::min(limit, size - position);
}

std::uint64_t resident_prefix(const PageCache& cache, std::uint32_t file, std::uint64_t position,
                              std::uint64_t length) {
  const std::uint64_t end = position + chunk_bytes(cache, file, position, length);
  const std::uint64_t unit_bytes = cache.unit_bytes();
  std::uint64_t at = position;
  while (at < end) {
    const std::uint64_t unit = at / unit_bytes;
    if (!cache.cached(file, unit)) break;
    at = std::min(end, (unit + 1) * unit_bytes);
  }
  return at - position;
}

UringPath uring_read_path(bool resident, bool async_buffered_reads) {
  if (resident) return UringPath::kInline;
  return async_buffered_reads ? UringPath::kPageCallback : UringPath::kIoWq;
}

bool has_async_buffered_reads(const std::string& release) {
  if (release.empty()) return true;
  const std::optional<LinuxRelease> r = parse_linux_release(release);
  return r && r->at_least(kAsyncBufferedSince);
}

std::uint32_t uring_pool_threads(UringPath path, std::uint32_t entries, std::uint32_t cpus, std::uint32_t max_workers) {
  if (path == UringPath::kPageCallback) return std::max<std::uint32_t>(1, entries);
  std::uint32_t bounded = std::max<std::uint32_t>(1, std::min(entries, 4 * cpus));
  if (max_workers > 0) bounded = std::min(bounded, max_workers);
  return bounded;
}

}  // namespace models
