#include "models/hardware/raid10_layer.h"

#include <algorithm>
#include <stdexcept>

#include "models/hardware/raid10.h"

namespace models {

Raid10Layer::Raid10Layer(const Raid10Spec& spec, std::vector<BlockDevice*> drives)
    : devices_(spec.devices), near_copies_(spec.near_copies), chunk_bytes_(spec.chunk_bytes),
      drives_(std::move(drives)) {
  if (spec.near_copies == 0 || spec.devices < spec.near_copies)
    throw std::invalid_argument("raid10: need devices >= near_copies >= 1");
  const auto per_device = static_cast<std::uint64_t>(spec.member.capacity_bytes);
  const std::uint64_t chunks_per_device = per_device / spec.chunk_bytes;
  capacity_ = chunks_per_device * spec.devices / spec.near_copies * spec.chunk_bytes;
  // md raises the array's readahead to at least two stripes (raid10.c).
  const std::uint64_t stripe = spec.devices * spec.chunk_bytes / spec.near_copies;
  readahead_bytes_ = std::max<std::uint64_t>(spec.member.readahead_bytes, 2 * stripe);
  pending_.assign(spec.devices, 0);
  head_position_.assign(spec.devices, 0);
}

Raid10Layer::Copy Raid10Layer::locate(std::uint64_t offset, std::uint32_t copy) const {
  const std::uint64_t chunk = offset / chunk_bytes_;
  const std::uint64_t within = offset % chunk_bytes_;
  // Near layout: the copies of chunk k are device slots k*nc .. k*nc+nc-1,
  // counted row by row across the devices.
  const std::uint64_t slot = chunk * near_copies_ + copy;
  return Copy{static_cast<std::uint32_t>(slot % devices_), (slot / devices_) * chunk_bytes_ + within};
}

// raid10.c read_balance() for near copies: the first idle copy, else the
// copy whose drive last finished closest to this offset.
std::uint32_t Raid10Layer::choose_copy(std::uint64_t offset) const {
  std::uint32_t best = 0;
  std::uint64_t best_distance = UINT64_MAX;
  for (std::uint32_t c = 0; c < near_copies_; ++c) {
    const Copy loc = locate(offset, c);
    if (pending_[loc.device] == 0) return c;
    const std::uint64_t h = head_position_[loc.device];
    const std::uint64_t distance = h > loc.device_offset ? h - loc.device_offset : loc.device_offset - h;
    if (distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}

void Raid10Layer::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                              std::uint64_t tag) {
  if (length == 0 || offset + length > capacity_) throw std::out_of_range("raid10: read outside the array");
  const std::uint32_t r = reads_.take();
  const std::uint64_t first_chunk = offset / chunk_bytes_;
  const std::uint64_t last_chunk = (offset + length - 1) / chunk_bytes_;
  reads_[r] = Read{listener, tag, static_cast<std::uint32_t>(last_chunk - first_chunk + 1)};
  std::uint64_t pos = offset;
  const std::uint64_t end = offset + length;
  while (pos < end) {
    const std::uint64_t chunk_end = (pos / chunk_bytes_ + 1) * chunk_bytes_;
    const std::uint64_t len = std::min(end, chunk_end) - pos;
    const Copy loc = locate(pos, choose_copy(pos));
    const std::uint32_t p = pieces_.take();
    pieces_[p] = Piece{r, loc.device, loc.device_offset + len};
    ++pending_[loc.device];
    drives_[loc.device]->submit_read(loc.device_offset, len, this, p);
    pos += len;
  }
}

void Raid10Layer::on_io_done(std::uint64_t tag) {
  const auto p = static_cast<std::uint32_t>(tag);
  const Piece piece = pieces_[p];
  pieces_.release(p);
  --pending_[piece.device];
  head_position_[piece.device] = piece.end;
  Read& read = reads_[piece.read];
  if (--read.pieces_left == 0) {
    IoListener* listener = read.listener;
    const std::uint64_t t = read.tag;
    reads_.release(piece.read);
    listener->on_io_done(t);
  }
}

DiskStats Raid10Layer::stats() const {
  DiskStats s;
  s.drives = devices_;
  for (const BlockDevice* d : drives_) {
    const DiskStats m = d->stats();
    s.reads += m.reads;
    s.read_bytes += m.read_bytes;
    s.busy_s += m.busy_s;
    s.queue_depth_integral += m.queue_depth_integral;
  }
  return s;
}

}  // namespace models
