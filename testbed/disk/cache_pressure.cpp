#include "cache_pressure.h"

#include <algorithm>
#include <limits>

namespace testbed::disk {

void CachePressure::data_read(std::uint32_t file, std::uint64_t offset, std::uint64_t length) {
  if (file >= cache_.files() || length == 0) return;
  ++stats_.reads;
  const std::uint64_t unit = cache_.unit_bytes();
  const std::uint64_t last = offset + std::min(length, std::numeric_limits<std::uint64_t>::max() - offset) - 1;
  cache_.fill(file, offset / unit, last / unit - offset / unit + 1);  // fill() ignores units past the end
}

// The units the real cache holds are read by the request, hits all: each
// accessed as the model's read() of a cached unit accesses it.
void CachePressure::file_opened(std::uint32_t file) {
  if (file >= cache_.files()) return;
  ++stats_.opens;
  for (std::uint64_t u = 0; u < cache_.units_of(file); ++u) cache_.access_after_wait(file, u);
}

}  // namespace testbed::disk
