#include "models/hardware/md_layer.h"

#include <algorithm>
#include <stdexcept>

namespace models {

namespace {

// raid1.h: BARRIER_UNIT_SECTOR_BITS 17, units of 1 << 17 sectors of 512 bytes.
constexpr std::uint64_t kRaid1BarrierUnitBytes = (std::uint64_t{1} << 17) * 512;

std::uint32_t copies_of(const MdLayout& l) {
  switch (l.level) {
    case MdLevel::kRaid0: return 1;
    case MdLevel::kRaid1: return l.devices;
    case MdLevel::kRaid10: return l.near_copies;
  }
  return 1;
}

}  // namespace

std::uint64_t md_capacity(const MdLayout& layout, const MdMembers& members) {
  if (layout.level == MdLevel::kRaid1) return members.capacity_bytes;
  const std::uint64_t chunks_per_device = members.capacity_bytes / layout.chunk_bytes;
  return chunks_per_device * layout.devices / copies_of(layout) * layout.chunk_bytes;
}

MdLayer::MdLayer(const MdLayout& layout, const MdMembers& members, std::vector<BlockDevice*> drives)
    : level_(layout.level), devices_(layout.devices), copies_(copies_of(layout)), nonrot_(members.nonrot),
      split_bytes_(layout.level == MdLevel::kRaid1 ? kRaid1BarrierUnitBytes : layout.chunk_bytes),
      drives_(std::move(drives)) {
  if (copies_ == 0 || devices_ < copies_ || drives_.size() != devices_)
    throw std::invalid_argument("md: need devices >= copies >= 1, one drive per device");
  if (split_bytes_ == 0) throw std::invalid_argument("md: the chunk must not be empty");
  capacity_ = md_capacity(layout, members);
  if (level_ == MdLevel::kRaid1) {
    // raid1.c sets no io_opt: the array's readahead is the default.
    readahead_bytes_ = members.readahead_bytes;
  } else {
    // raid0.c / raid10.c: io_opt is a stripe, and the readahead at least two of them.
    const std::uint64_t stripe = devices_ * layout.chunk_bytes / copies_;
    readahead_bytes_ = std::max<std::uint64_t>(members.readahead_bytes, 2 * stripe);
  }
  if (level_ == MdLevel::kRaid10) {
    const ReadBalanceChoice* balance = find_read_balance(layout.read_balance);
    if (!balance) throw std::invalid_argument("md: unknown md.read_balance " + layout.read_balance);
    read_balance_ = balance->rule;
    read_balance_name_ = balance->name;
  } else {
    read_balance_name_ = level_ == MdLevel::kRaid1 ? "raid1" : "none";
  }
  pending_.assign(devices_, 0);
  balance_.assign(devices_, ReadBalanceCounts{});
  head_position_.assign(devices_, 0);
  next_seq_.assign(devices_, 0);
}

MdLayer::Copy MdLayer::locate(std::uint64_t offset, std::uint32_t copy) const {
  if (level_ == MdLevel::kRaid1) return Copy{copy, offset};
  const std::uint64_t chunk = offset / split_bytes_;
  const std::uint64_t within = offset % split_bytes_;
  // Near layout (RAID0 is its one-copy case): the copies of chunk k are
  // device slots k*nc .. k*nc+nc-1, counted row by row across the devices.
  const std::uint64_t slot = chunk * copies_ + copy;
  return Copy{static_cast<std::uint32_t>(slot % devices_), (slot / devices_) * split_bytes_ + within};
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

std::uint64_t MdLayer::distance(std::uint32_t device, std::uint64_t device_offset) const {
  const std::uint64_t h = head_position_[device];
  return h > device_offset ? h - device_offset : device_offset - h;
}

MdLayer::Choice MdLayer::choose_copy(std::uint64_t offset) const {
  switch (level_) {
    case MdLevel::kRaid0: return Choice{0, Why::kOnly};
    case MdLevel::kRaid1: return raid1_balance(offset);
    case MdLevel::kRaid10: return raid10_balance(offset);
  }
  return Choice{0, Why::kIdle};
}

// raid10.c read_balance() for near copies, copy (slot) by copy:
// 3.x: an idle member ends the search (break); else the closest head wins,
//   the first of equals (new_distance < best_dist).
// 4.10+: an idle member counts as distance 0 and the search goes on, so an
//   earlier busy member whose head is exactly there keeps the read.
// 5.3+: as 4.10+ on rotational members; with non-rotational members the one
//   with the fewest pending reads wins, the first of equals
//   (min_pending > pending && nonrot; has_nonrot_disk).
MdLayer::Choice MdLayer::raid10_balance(std::uint64_t offset) const {
  if (read_balance_ == ReadBalance::kIdlestNonrot && nonrot_) {
    Choice best{0, Why::kIdle};
    std::uint32_t fewest = UINT32_MAX;
    for (std::uint32_t c = 0; c < copies_; ++c) {
      const std::uint32_t p = pending_[locate(offset, c).device];
      if (p < fewest) best = Choice{c, p == 0 ? Why::kIdle : Why::kFewest}, fewest = p;
    }
    return best;
  }
  Choice best{0, Why::kIdle};
  std::uint64_t best_distance = UINT64_MAX;
  for (std::uint32_t c = 0; c < copies_; ++c) {
    const Copy loc = locate(offset, c);
    const bool idle = pending_[loc.device] == 0;
    if (idle && read_balance_ == ReadBalance::kFirstIdle) return Choice{c, Why::kIdle};
    const std::uint64_t d = idle ? 0 : distance(loc.device, loc.device_offset);
    if (d < best_distance) best = Choice{c, idle ? Why::kIdle : d == 0 ? Why::kHeadAt : Why::kCloser}, best_distance = d;
  }
  return best;
}

// raid1.c read_balance() (Linux 6.6; md_layer.h): member by member, a
// sequential continuation or a head right there takes the piece; else the
// fewest pending (non-rotational members, or an idle one), else the closest.
MdLayer::Choice MdLayer::raid1_balance(std::uint64_t offset) const {
  std::uint32_t fewest_disk = 0, closest_disk = 0;
  std::uint32_t fewest = UINT32_MAX;
  std::uint64_t closest = UINT64_MAX;
  for (std::uint32_t d = 0; d < devices_; ++d) {
    const std::uint64_t dist = distance(d, offset);
    if (next_seq_[d] == offset || dist == 0) return Choice{d, Why::kHeadAt};
    if (pending_[d] < fewest) fewest = pending_[d], fewest_disk = d;
    if (dist < closest) closest = dist, closest_disk = d;
  }
  if (nonrot_ || fewest == 0) return Choice{fewest_disk, fewest == 0 ? Why::kIdle : Why::kFewest};
  return Choice{closest_disk, Why::kCloser};
}

std::uint64_t MdLayer::piece_end(std::uint64_t pos) const { return (pos / split_bytes_ + 1) * split_bytes_; }

void MdLayer::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag,
                          std::uint32_t task) {
  if (length == 0 || offset + length > capacity_) throw std::out_of_range("md: read outside the array");
  const std::uint32_t r = reads_.take();
  const std::uint64_t first_piece = offset / split_bytes_;
  const std::uint64_t last_piece = (offset + length - 1) / split_bytes_;
  reads_[r] = Read{listener, tag, static_cast<std::uint32_t>(last_piece - first_piece + 1)};
  std::uint64_t pos = offset;
  const std::uint64_t end = offset + length;
  while (pos < end) {
    const std::uint64_t len = std::min(end, piece_end(pos)) - pos;
    const Choice choice = choose_copy(pos);
    const Copy loc = locate(pos, choice.copy);
    ReadBalanceCounts& why = balance_[loc.device];
    switch (choice.why) {
      case Why::kIdle: ++why.idle; break;
      case Why::kHeadAt: ++why.head_at; break;
      case Why::kCloser: ++why.closer; break;
      case Why::kFewest: ++why.fewest; break;
      case Why::kOnly: break;  // RAID0: one copy, nothing chosen
    }
    const std::uint32_t p = pieces_.take();
    pieces_[p] = Piece{r, loc.device, loc.device_offset + len};
    ++pending_[loc.device];
    next_seq_[loc.device] = loc.device_offset + len;
    drives_[loc.device]->submit_read_for(task, loc.device_offset, len, this, p);
    pos += len;
  }
}

void MdLayer::on_io_done(std::uint64_t tag) {
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

void MdLayer::start_plug(std::uint32_t task) {
  for (BlockDevice* d : drives_) d->start_plug(task);
}

void MdLayer::finish_plug() {
  for (BlockDevice* d : drives_) d->finish_plug();
}

void MdLayer::set_slot_wait_listener(SlotWaitListener* listener) {
  for (BlockDevice* d : drives_) d->set_slot_wait_listener(listener);
}

// raid10_congested() / raid1_congested() / raid0_congested(): congested if any member is.
bool MdLayer::read_congested() const {
  return std::any_of(drives_.begin(), drives_.end(), [](const BlockDevice* d) { return d->read_congested(); });
}

std::vector<DiskStats> MdLayer::drive_stats() const {
  std::vector<DiskStats> out;
  for (const BlockDevice* d : drives_) out.push_back(d->stats());
  return out;
}

DiskStats MdLayer::stats() const {
  DiskStats s;
  s.drives = devices_;
  for (const BlockDevice* d : drives_) s.add(d->stats());
  return s;
}

}  // namespace models
