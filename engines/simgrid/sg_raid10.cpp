#include "engines/simgrid/sg_raid10.h"

#include <algorithm>
#include <stdexcept>

namespace sgengine {

SgRaid10::SgRaid10(simgrid::s4u::Host* host, const models::Raid10Spec& spec) : spec_(spec) {
  if (spec.near_copies == 0 || spec.devices < spec.near_copies)
    throw std::invalid_argument("raid10: need devices >= near_copies >= 1");
  const auto per_device = static_cast<std::uint64_t>(spec.member.capacity_bytes);
  capacity_ = per_device / spec.chunk_bytes * spec.devices / spec.near_copies * spec.chunk_bytes;
  for (std::uint32_t i = 0; i < spec.devices; ++i) members_.push_back(std::make_unique<SgHdd>(host, spec.member));
  pending_.assign(spec.devices, 0);
  head_position_.assign(spec.devices, 0);
}

// md raises the array's readahead to at least two stripes.
std::uint64_t SgRaid10::readahead_bytes() const {
  const std::uint64_t stripe = spec_.devices * spec_.chunk_bytes / spec_.near_copies;
  return std::max<std::uint64_t>(spec_.member.readahead_bytes, 2 * stripe);
}

// Near layout: the copies of chunk k are device slots k*nc .. k*nc+nc-1,
// counted row by row across the devices.
SgRaid10::Copy SgRaid10::locate(std::uint64_t offset, std::uint32_t copy) const {
  const std::uint64_t slot = offset / spec_.chunk_bytes * spec_.near_copies + copy;
  return Copy{static_cast<std::uint32_t>(slot % spec_.devices),
              (slot / spec_.devices) * spec_.chunk_bytes + offset % spec_.chunk_bytes};
}

// raid10.c read_balance(): the first idle copy, else the one whose drive
// last finished closest to this offset.
std::uint32_t SgRaid10::choose_copy(std::uint64_t offset) const {
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

void SgRaid10::submit_read(std::uint64_t offset, std::uint64_t length, models::IoListener* listener,
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
  for (std::uint64_t pos = offset, end = offset + length; pos < end;) {
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

void SgRaid10::on_io_done(std::uint64_t tag) {
  const auto p = static_cast<std::uint32_t>(tag);
  const Piece piece = pieces_[p];
  free_pieces_.push_back(p);
  --pending_[piece.device];
  head_position_[piece.device] = piece.end;
  Read& read = reads_[piece.read];
  if (--read.pieces_left == 0) {
    models::IoListener* listener = read.listener;
    const std::uint64_t t = read.tag;
    free_reads_.push_back(piece.read);
    listener->on_io_done(t);
  }
}

models::DiskStats SgRaid10::stats() const {
  models::DiskStats s;
  s.drives = spec_.devices;
  for (const auto& m : members_) {
    const models::DiskStats d = m->stats();
    s.reads += d.reads;
    s.read_bytes += d.read_bytes;
    s.busy_s += d.busy_s;
    s.queue_depth_integral += d.queue_depth_integral;
  }
  return s;
}

}  // namespace sgengine
