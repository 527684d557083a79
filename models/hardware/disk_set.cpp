#include "models/hardware/disk_set.h"

#include <algorithm>
#include <stdexcept>

namespace models {

DiskSet::DiskSet(std::vector<Member> members) : members_(std::move(members)) {
  if (members_.empty()) throw std::invalid_argument("DiskSet: no member");
  bases_.push_back(0);
  for (const Member& m : members_) bases_.push_back(bases_.back() + m.device->capacity());
}

std::size_t DiskSet::member_of(std::uint64_t offset) const {
  const auto it = std::upper_bound(bases_.begin(), bases_.end(), offset);
  const auto m = static_cast<std::size_t>(it - bases_.begin()) - 1;
  return std::min(m, members_.size() - 1);
}

void DiskSet::submit_read(std::uint64_t offset, std::uint64_t length, IoListener* listener, std::uint64_t tag) {
  const std::size_t m = member_of(offset);
  if (offset + length > bases_[m + 1]) throw std::logic_error("DiskSet: a read crosses from one disk to the next");
  members_[m].device->submit_read(offset - bases_[m], length, listener, tag);
}

void DiskSet::submit_read_for(std::uint32_t task, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                              std::uint64_t tag) {
  const std::size_t m = member_of(offset);
  if (offset + length > bases_[m + 1]) throw std::logic_error("DiskSet: a read crosses from one disk to the next");
  members_[m].device->submit_read_for(task, offset - bases_[m], length, listener, tag);
}

std::uint64_t DiskSet::readahead_bytes_at(std::uint64_t offset) const {
  return members_[member_of(offset)].device->readahead_bytes();
}

bool DiskSet::read_congested_at(std::uint64_t offset) const {
  return members_[member_of(offset)].device->read_congested();
}

// A task's plug is its own (blk_start_plug): it holds the bios it submits to
// any device until it finishes; each member keeps its part.
void DiskSet::start_plug(std::uint32_t task) {
  for (Member& m : members_) m.device->start_plug(task);
}

void DiskSet::finish_plug() {
  for (Member& m : members_) m.device->finish_plug();
}

void DiskSet::set_slot_wait_listener(SlotWaitListener* listener) {
  for (Member& m : members_) m.device->set_slot_wait_listener(listener);
}

DiskStats DiskSet::stats() const {
  DiskStats out;
  out.drives = 0;
  for (const Member& m : members_) {
    const DiskStats s = m.device->stats();
    out.add(s);
    out.drives += s.drives;
  }
  return out;
}

std::vector<DiskStats> DiskSet::drive_stats() const {
  std::vector<DiskStats> out;
  for (const Member& m : members_) {
    const std::vector<DiskStats> d = m.device->drive_stats();
    out.insert(out.end(), d.begin(), d.end());
  }
  return out;
}

void DiskSet::reset_peaks() {
  for (Member& m : members_) m.device->reset_peaks();
}

std::vector<DriveView> DiskSet::drive_views() const {
  std::vector<DriveView> out;
  for (const Member& m : members_) {
    const std::vector<DriveView> v = m.device->drive_views();
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

DriveWords DiskSet::drive_words(std::uint32_t drive) const {
  for (const Member& m : members_) {
    const auto n = static_cast<std::uint32_t>(m.device->drive_views().size());
    if (drive < n) return m.device->drive_words(drive);
    drive -= n;
  }
  return {};
}

}  // namespace models
