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
  const ReadBalanceChoice* balance = find_read_balance(spec.read_balance);
  if (!balance) throw std::invalid_argument("raid10: unknown md.read_balance " + spec.read_balance);
  read_balance_ = balance->rule;
  read_balance_name_ = balance->name;
  pending_.assign(spec.devices, 0);
  balance_.assign(spec.devices, ReadBalanceCounts{});
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

const std::vector<ReadBalanceChoice>& read_balance_choices() {
  static const std::vector<ReadBalanceChoice> choices = {
      {"3.x", ReadBalance::kFirstIdle},
      {"4.10+", ReadBalance::kIdleAsZero},
      {"5.3+", ReadBalance::kIdlestNonrot},
  };
  return choices;
}

const ReadBalanceChoice* find_read_balance(const std::string& name) {
  for (const ReadBalanceChoice& c : read_balance_choices())
    if (name == c.name) return &c;
  return nullptr;
}

// raid10.c read_balance() for near copies, copy (slot) by copy:
// 3.x: an idle member ends the search (break); else the closest head wins,
//   the first of equals (new_distance < best_dist).
// 4.10+: an idle member counts as distance 0 and the search goes on, so an
//   earlier busy member whose head is exactly there keeps the read.
// 5.3+: as 4.10+ on rotational members; with a non-rotational member the
//   one with the fewest pending reads wins (all members here rotate).
Raid10Layer::Choice Raid10Layer::choose_copy(std::uint64_t offset) const {
  Choice best{0, false, UINT64_MAX};
  for (std::uint32_t c = 0; c < near_copies_; ++c) {
    const Copy loc = locate(offset, c);
    const bool idle = pending_[loc.device] == 0;
    if (idle && read_balance_ == ReadBalance::kFirstIdle) return Choice{c, true, 0};
    const std::uint64_t h = head_position_[loc.device];
    std::uint64_t distance = h > loc.device_offset ? h - loc.device_offset : loc.device_offset - h;
    if (idle) distance = 0;
    if (distance < best.distance) best = Choice{c, idle, distance};
  }
  return best;
}

void Raid10Layer::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener,
                              std::uint64_t tag, std::uint32_t task) {
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
    const Choice choice = choose_copy(pos);
    const Copy loc = locate(pos, choice.copy);
    ReadBalanceCounts& why = balance_[loc.device];
    ++(choice.idle ? why.idle : choice.distance == 0 ? why.head_at : why.closer);
    const std::uint32_t p = pieces_.take();
    pieces_[p] = Piece{r, loc.device, loc.device_offset + len};
    ++pending_[loc.device];
    drives_[loc.device]->submit_read_for(task, loc.device_offset, len, this, p);
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

void Raid10Layer::start_plug(std::uint32_t task) {
  for (BlockDevice* d : drives_) d->start_plug(task);
}

void Raid10Layer::finish_plug() {
  for (BlockDevice* d : drives_) d->finish_plug();
}

void Raid10Layer::set_slot_wait_listener(SlotWaitListener* listener) {
  for (BlockDevice* d : drives_) d->set_slot_wait_listener(listener);
}

// raid10_congested(): congested if any member is.
bool Raid10Layer::read_congested() const {
  return std::any_of(drives_.begin(), drives_.end(), [](const BlockDevice* d) { return d->read_congested(); });
}

std::vector<DiskStats> Raid10Layer::drive_stats() const {
  std::vector<DiskStats> out;
  for (const BlockDevice* d : drives_) out.push_back(d->stats());
  return out;
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
    s.merges += m.merges;
    s.await_sum_s += m.await_sum_s;
    s.slot_waits += m.slot_waits;
    s.slot_wait_s += m.slot_wait_s;
    s.max_outstanding = std::max(s.max_outstanding, m.max_outstanding);
    s.max_sleepers = std::max(s.max_sleepers, m.max_sleepers);
  }
  return s;
}

}  // namespace models
