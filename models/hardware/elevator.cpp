#include "models/hardware/elevator.h"

namespace models {

const std::vector<ElevatorChoice>& elevator_choices() {
  static const std::vector<ElevatorChoice> choices = {
      {"deadline", false},    // single-queue block layer (3.13's default for disks on Ubuntu 14.04)
      {"noop", false},
      {"mq-deadline", true},  // blk-mq (4.11 and later)
      {"none", true},
  };
  return choices;
}

const ElevatorChoice* find_elevator(const std::string& name) {
  for (const ElevatorChoice& c : elevator_choices())
    if (name == c.name) return &c;
  return nullptr;
}

std::unique_ptr<Elevator> make_elevator(const std::string& name, const DeadlineTunables& tunables) {
  if (name == "deadline" || name == "mq-deadline") return std::make_unique<DeadlineElevator>(tunables);
  // noop has no elevator_merge_fn in 3.13 (back merges only, through the
  // queue's hash); blk-mq without a scheduler tries both (blk_mq_attempt_merge).
  if (name == "noop") return std::make_unique<NoopElevator>(false);
  if (name == "none") return std::make_unique<NoopElevator>(true);
  return nullptr;
}

DeadlineElevator::DeadlineElevator(const DeadlineTunables& t)
    : expire_{sim::from_seconds_ceil(t.read_expire_s), sim::from_seconds_ceil(t.write_expire_s)},
      writes_starved_(t.writes_starved), fifo_batch_(t.fifo_batch) {}

DeadlineElevator::Entry& DeadlineElevator::entry(std::uint32_t rq) {
  if (rq >= entries_.size()) entries_.resize(rq + 1);
  return entries_[rq];
}

void DeadlineElevator::add(sim::Time now, std::uint32_t rq, std::uint64_t sector, bool write) {
  Entry& e = entry(rq);
  const int dir = write ? 1 : 0;
  e.write = write;
  e.sort = SortKey{sector, static_cast<std::uint32_t>(arrivals_)};
  e.fifo = FifoKey{sim::later(now, expire_[dir]), arrivals_};
  ++arrivals_;
  sorted_[dir].emplace(e.sort, rq);
  fifo_[dir].emplace(e.fifo, rq);
  ++queued_[dir];
}

// deadline_del_rq_rb(): a next_rq that leaves is replaced by its successor.
void DeadlineElevator::remove(std::uint32_t rq) {
  Entry& e = entries_[rq];
  const int dir = e.write ? 1 : 0;
  auto it = sorted_[dir].find(e.sort);
  if (next_rq_[dir] == rq) {
    auto after = std::next(it);
    next_rq_[dir] = after == sorted_[dir].end() ? kNone : after->second;
  }
  sorted_[dir].erase(it);
  fifo_[dir].erase(e.fifo);
  --queued_[dir];
}

void DeadlineElevator::merged(std::uint32_t gone, std::uint32_t into) {
  Entry& g = entries_[gone];
  Entry& i = entries_[into];
  if (g.fifo < i.fifo) {  // the survivor takes the older deadline and FIFO place
    fifo_[i.write ? 1 : 0].erase(i.fifo);
    i.fifo = g.fifo;
    remove(gone);
    fifo_[i.write ? 1 : 0].emplace(i.fifo, into);
    return;
  }
  remove(gone);
}

void DeadlineElevator::resorted(std::uint32_t rq, std::uint64_t new_sector) {
  Entry& e = entries_[rq];
  const int dir = e.write ? 1 : 0;
  sorted_[dir].erase(e.sort);
  e.sort.first = new_sector;
  sorted_[dir].emplace(e.sort, rq);
}

bool DeadlineElevator::fifo_expired(int dir, sim::Time now) const {
  return !fifo_[dir].empty() && now >= fifo_[dir].begin()->first.first;
}

// deadline_move_request(): the next request in sector order becomes next_rq
// of this direction; the other direction's is forgotten.
std::uint32_t DeadlineElevator::take(std::uint32_t rq) {
  const Entry& e = entries_[rq];
  const int dir = e.write ? 1 : 0;
  const auto it = sorted_[dir].find(e.sort);
  const auto next = std::next(it);
  const std::uint32_t after = next == sorted_[dir].end() ? kNone : next->second;
  // remove(rq), with both next_rq_ forgotten first: one look-up, not two.
  sorted_[dir].erase(it);
  fifo_[dir].erase(e.fifo);
  --queued_[dir];
  next_rq_[0] = next_rq_[1] = kNone;
  next_rq_[dir] = after;
  ++batching_;
  return rq;
}

std::uint32_t DeadlineElevator::dispatch(sim::Time now) {
  const std::uint32_t next = next_rq_[1] != kNone ? next_rq_[1] : next_rq_[0];
  if (next != kNone && batching_ < fifo_batch_) return take(next);  // the batch goes on
  return start_batch(now);
}

std::uint32_t DeadlineElevator::start_batch(sim::Time now) {
  int dir;
  if (queued_[0] > 0) {
    dir = 0;
    if (queued_[1] > 0 && starved_++ >= writes_starved_) dir = 1;
  } else if (queued_[1] > 0) {
    dir = 1;
  } else {
    return kNone;
  }
  if (dir == 1) starved_ = 0;
  batching_ = 0;
  if (fifo_expired(dir, now) || next_rq_[dir] == kNone) return take(fifo_[dir].begin()->second);
  return take(next_rq_[dir]);
}

void NoopElevator::add(sim::Time, std::uint32_t rq, std::uint64_t, bool) {
  if (rq >= arrival_of_.size()) arrival_of_.resize(rq + 1);
  arrival_of_[rq] = arrivals_;
  order_.emplace(arrivals_++, rq);
}

void NoopElevator::merged(std::uint32_t gone, std::uint32_t) { order_.erase(arrival_of_[gone]); }

std::uint32_t NoopElevator::dispatch(sim::Time) {
  if (order_.empty()) return kNone;
  const std::uint32_t rq = order_.begin()->second;
  order_.erase(order_.begin());
  return rq;
}

}  // namespace models
