#include "models/hardware/raid10.h"

#include <algorithm>
#include <stdexcept>

namespace models {

Raid10::Raid10(sim::Engine& engine, const Raid10Spec& spec) : engine_(engine), spec_(spec) {
  if (spec.near_copies == 0 || spec.devices < spec.near_copies)
    throw std::invalid_argument("raid10: need devices >= near_copies >= 1");
  const auto per_device = static_cast<std::uint64_t>(spec.member.capacity_bytes);
  const std::uint64_t chunks_per_device = per_device / spec.chunk_bytes;
  capacity_ = chunks_per_device * spec.devices / spec.near_copies * spec.chunk_bytes;
  for (std::uint32_t i = 0; i < spec.devices; ++i) members_.push_back(std::make_unique<Hdd>(engine, spec.member));
  pending_.assign(spec.devices, 0);
  head_position_.assign(spec.devices, 0);
}

std::uint64_t Raid10::readahead_bytes() const {
  const std::uint64_t stripe = spec_.devices * spec_.chunk_bytes / spec_.near_copies;
  return std::max<std::uint64_t>(spec_.member.readahead_bytes, 2 * stripe);
}

Raid10::Copy Raid10::locate(std::uint64_t offset, std::uint32_t copy) const {
  const std::uint64_t chunk = offset / spec_.chunk_bytes;
  const std::uint64_t within = offset % spec_.chunk_bytes;
  // Near layout: the copies of chunk k are device slots k*nc .. k*nc+nc-1,
  // counted row by row across the devices.
  const std::uint64_t slot = chunk * spec_.near_copies + copy;
  return Copy{static_cast<std::uint32_t>(slot % spec_.devices),
              (slot / spec_.devices) * spec_.chunk_bytes + within};
}

// raid10.c read_balance() for near copies: the first idle copy, else the
// copy whose drive last finished closest to this offset.
std::uint32_t Raid10::choose_copy(std::uint64_t offset) const {
  std::uint32_t best = 0;
  std::uint64_t best_distance = UINT64_MAX;
  for (std::uint32_t c = 0; c < spec_.near_copies; ++c) {
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

void Raid10::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                         std::uint64_t tag) {
  if (length == 0 || offset + length > capacity_) throw std::out_of_range("raid10: read outside the array");
  std::uint32_t r;
  if (!free_reads_.empty()) {
    r = free_reads_.back();
    free_reads_.pop_back();
  } else {
    r = static_cast<std::uint32_t>(reads_.size());
    reads_.emplace_back();
  }
  const std::uint64_t first_chunk = offset / spec_.chunk_bytes;
  const std::uint64_t last_chunk = (offset + length - 1) / spec_.chunk_bytes;
  reads_[r] = Read{listener, tag, static_cast<std::uint32_t>(last_chunk - first_chunk + 1)};
  std::uint64_t pos = offset;
  const std::uint64_t end = offset + length;
  while (pos < end) {
    const std::uint64_t chunk_end = (pos / spec_.chunk_bytes + 1) * spec_.chunk_bytes;
    const std::uint64_t len = std::min(end, chunk_end) - pos;
    const Copy loc = locate(pos, choose_copy(pos));
    std::uint32_t p;
    if (!free_pieces_.empty()) {
      p = free_pieces_.back();
      free_pieces_.pop_back();
    } else {
      p = static_cast<std::uint32_t>(pieces_.size());
      pieces_.emplace_back();
    }
    pieces_[p] = Piece{r, loc.device, loc.device_offset + len};
    ++pending_[loc.device];
    members_[loc.device]->submit_read(loc.device_offset, len, this, p);
    pos += len;
  }
}

void Raid10::on_io_done(std::uint64_t tag) {
  const auto p = static_cast<std::uint32_t>(tag);
  const Piece piece = pieces_[p];
  free_pieces_.push_back(p);
  --pending_[piece.device];
  head_position_[piece.device] = piece.end;
  Read& read = reads_[piece.read];
  if (--read.pieces_left == 0) {
    IoListener* listener = read.listener;
    const std::uint64_t t = read.tag;
    free_reads_.push_back(piece.read);
    listener->on_io_done(t);
  }
}

DiskStats Raid10::stats() const {
  DiskStats s;
  s.drives = spec_.devices;
  for (const auto& m : members_) {
    const DiskStats d = m->stats();
    s.reads += d.reads;
    s.read_bytes += d.read_bytes;
    s.busy_s += d.busy_s;
    s.queue_depth_integral += d.queue_depth_integral;
  }
  return s;
}

}  // namespace models
