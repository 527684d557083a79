#include "models/server/native_aio.h"

#include <algorithm>

namespace models {

bool NativeAio::submit(const DirectReadCall& call, std::uint32_t conn) {
  if (in_flight_ >= requests_) {
    ++stats_.eagain;
    return false;
  }
  // The aligned extent, as the worker's own pread() would read it (direct_io.h).
  const AlignedExtent e = align_out(call.position + *call.pending, call.reading, call.alignment);
  ++in_flight_;
  ++stats_.submitted;
  stats_.max_in_flight = std::max(stats_.max_in_flight, in_flight_);
  cache_.read_direct(call.file, e.offset, e.length, this, conn);
  return true;
}

void NativeAio::on_page_ready(std::uint64_t tag) {
  --in_flight_;
  owner_.on_aio_done(static_cast<std::uint32_t>(tag));
}

}  // namespace models
