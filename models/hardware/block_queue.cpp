#include "models/hardware/block_queue.h"

#include <algorithm>
#include <stdexcept>

namespace models {

namespace {
// A request's entry in one of the elevator's indexes moves from `from` to
// `to`, as unindex() then index() would move it (a key held by another
// request stays).
template <class Index>
void rekey(Index& index, std::uint64_t from, std::uint64_t to, std::uint32_t rq) {
  if (auto it = index.find(from); it != index.end() && it->second == rq) index.erase(it);
  index.emplace(to, rq);
}
}  // namespace

BlockQueue::BlockQueue(const BlockQueueSpec& spec, Device& device)
    : spec_(spec), device_(device), elevator_(make_elevator(spec.scheduler, spec.deadline)) {
  const ElevatorChoice* choice = find_elevator(spec.scheduler);
  if (!choice || !elevator_) throw std::invalid_argument("block: unknown scheduler " + spec.scheduler);
  if (spec.nr_requests == 0 || spec.queue_depth == 0 || spec.max_sectors_kb == 0)
    throw std::invalid_argument("block: nr_requests, queue_depth and max_sectors_kb must be positive");
  blk_mq_ = choice->blk_mq;
  max_bytes_ = spec.max_sectors_kb * 1024;
  const std::uint32_t nr = spec.nr_requests;
  // blk_queue_congestion_threshold() (block/blk-core.c, 3.13).
  congestion_on_ = std::min(nr, nr - nr / 8 + 1);
  congestion_off_ = nr > nr / 8 + nr / 16 + 1 ? nr - nr / 8 - nr / 16 - 1 : 1;
  // sbq_calc_wake_batch() (lib/sbitmap.c): clamp(depth / SBQ_WAIT_QUEUES (8), 1, SBQ_WAKE_BATCH (8)).
  wake_batch_ = std::clamp<std::uint32_t>(nr / 8, 1, 8);
  batch_time_ = sim::from_seconds_ceil(spec.batch_time_s);
}

std::uint32_t BlockQueue::submitter_for(std::uint32_t task) {
  if (task != kNoTask) {
    auto it = by_task_.find(task);
    if (it != by_task_.end()) return it->second;
  }
  const std::uint32_t s = submitters_.take();
  submitters_[s].task = task;
  submitters_[s].asleep = false;
  submitters_[s].plugging = false;
  submitters_[s].finish_pending = false;
  submitters_[s].batch_left = 0;
  submitters_[s].pending.clear();
  submitters_[s].plug.clear();
  submitters_[s].users = 0;
  if (task != kNoTask) by_task_.emplace(task, s);
  return s;
}

// An anonymous submitter lives for one plug section or one bio; a known
// task's context stays (its batching state is the task's io_context).
void BlockQueue::release_if_idle(std::uint32_t s) {
  Submitter& sub = submitters_[s];
  if (sub.task != kNoTask || sub.asleep || sub.plugging || !sub.pending.empty() || !sub.plug.empty()) return;
  submitters_.release(s);
}

void BlockQueue::start_plug(std::uint32_t task) {
  if (plugged_ != UINT32_MAX) return;  // nested plugs are one plug, as in the kernel
  plugged_ = submitter_for(task);
  submitters_[plugged_].plugging = true;
}

void BlockQueue::finish_plug(sim::Time now) {
  if (plugged_ == UINT32_MAX) return;
  const std::uint32_t s = plugged_;
  plugged_ = UINT32_MAX;
  if (submitters_[s].asleep) {
    submitters_[s].finish_pending = true;
    return;
  }
  flush_plug(now, s);
  submitters_[s].plugging = false;
  run_queue(now);
  drain_wakes(now);
  release_if_idle(s);
}

void BlockQueue::submit(sim::Time now, std::uint64_t offset, std::uint64_t length, IoListener* listener,
                        std::uint64_t tag, bool write, std::uint32_t task) {
  if (length == 0) throw std::invalid_argument("block: empty read");
  const std::uint32_t s = plugged_ != UINT32_MAX ? plugged_ : submitter_for(task);
  // A bio larger than a request may be is split (blk_queue_split in later
  // kernels; in 3.13 bio_add_page never builds one).
  const std::uint64_t pieces = (length + max_bytes_ - 1) / max_bytes_;
  const std::uint32_t b = bios_.take();
  bios_[b] = Bio{listener, tag, static_cast<std::uint32_t>(pieces)};
  for (std::uint64_t at = offset; at < offset + length; at += max_bytes_) {
    const Piece p{b, at, std::min(max_bytes_, offset + length - at), write};
    if (submitters_[s].asleep)
      submitters_[s].pending.push_back(p);
    else
      process(now, s, p);
  }
  if (plugged_ != s) {
    run_queue(now);
    release_if_idle(s);
  }
  drain_wakes(now);
}

void BlockQueue::process(sim::Time now, std::uint32_t s, const Piece& p) {
  if (submitters_[s].plugging && plug_merge(s, p)) return;
  if (elevator_merge(now, p)) return;
  if (!get_request(now, s)) {
    sleep(now, s, p);
    return;
  }
  const std::uint32_t rq = new_request(now, p);
  Submitter& sub = submitters_[s];
  if (sub.plugging) {
    if (sub.plug.size() >= spec_.max_plugged) flush_plug(now, s);
    submitters_[s].plug.push_back(rq);
    return;
  }
  insert(now, rq);
}

bool BlockQueue::fits(const Request& r, std::uint64_t more) const {
  return r.length + more <= max_bytes_;
}

void BlockQueue::add_to_request(std::uint32_t rq, const Piece& p, bool front) {
  Request& r = requests_[rq];
  if (front) r.offset = p.offset;
  r.length += p.length;
  r.bios.push_back(p.bio);
  ++merges_;
}

// attempt_plug_merge(): back or front onto a request in the task's plug.
bool BlockQueue::plug_merge(std::uint32_t s, const Piece& p) {
  for (const std::uint32_t rq : submitters_[s].plug) {
    const Request& r = requests_[rq];
    if (r.write != p.write || !fits(r, p.length)) continue;
    if (r.offset + r.length == p.offset) {
      add_to_request(rq, p, false);
      return true;
    }
    if (p.offset + p.length == r.offset) {
      add_to_request(rq, p, true);
      return true;
    }
  }
  return false;
}

// elv_merge(): a request in the elevator that ends where the bio starts
// (back), else one that starts where it ends (front). A merge that closes
// the gap to the neighbour merges the two (attempt_back/front_merge).
bool BlockQueue::elevator_merge(sim::Time now, const Piece& p) {
  if (auto it = by_end_.find(p.offset); it != by_end_.end()) {
    const std::uint32_t rq = it->second;
    if (requests_[rq].write == p.write && fits(requests_[rq], p.length)) {
      const std::uint64_t end = requests_[rq].offset + requests_[rq].length;
      add_to_request(rq, p, false);  // its start, and so its by_start_ entry, stays
      rekey(by_end_, end, end + p.length, rq);
      if (auto next = by_start_.find(requests_[rq].offset + requests_[rq].length); next != by_start_.end()) {
        const std::uint32_t n = next->second;
        if (requests_[n].write == p.write && fits(requests_[rq], requests_[n].length)) merge_requests(now, rq, n);
      }
      return true;
    }
  }
  if (!elevator_->front_merges()) return false;
  if (auto it = by_start_.find(p.offset + p.length); it != by_start_.end()) {
    const std::uint32_t rq = it->second;
    if (requests_[rq].write == p.write && fits(requests_[rq], p.length)) {
      const std::uint64_t start = requests_[rq].offset;
      add_to_request(rq, p, true);  // its end, and so its by_end_ entry, stays
      rekey(by_start_, start, p.offset, rq);
      elevator_->resorted(rq, requests_[rq].offset);
      if (auto prev = by_end_.find(requests_[rq].offset); prev != by_end_.end()) {
        const std::uint32_t pr = prev->second;
        if (requests_[pr].write == p.write && fits(requests_[pr], requests_[rq].length)) merge_requests(now, pr, rq);
      }
      return true;
    }
  }
  return false;
}

// attempt_merge(): `gone`, which follows `into` on the disk, joins it, and
// its slot is freed (__blk_put_request; blk_account_io_merge).
void BlockQueue::merge_requests(sim::Time now, std::uint32_t into, std::uint32_t gone) {
  unindex(into);
  unindex(gone);
  Request& a = requests_[into];
  Request& g = requests_[gone];
  a.length += g.length;
  a.bios.insert(a.bios.end(), g.bios.begin(), g.bios.end());
  a.start = std::min(a.start, g.start);
  g.bios.clear();
  if (g.in_elevator) elevator_->merged(gone, into);
  g.in_elevator = false;
  index(into);
  free_request(now, gone);
}

void BlockQueue::index(std::uint32_t rq) {
  const Request& r = requests_[rq];
  by_start_.emplace(r.offset, rq);
  by_end_.emplace(r.offset + r.length, rq);
}

void BlockQueue::unindex(std::uint32_t rq) {
  const Request& r = requests_[rq];
  if (auto it = by_start_.find(r.offset); it != by_start_.end() && it->second == rq) by_start_.erase(it);
  if (auto it = by_end_.find(r.offset + r.length); it != by_end_.end() && it->second == rq) by_end_.erase(it);
}

// ioc_batching(): a batcher has its whole batch, or some of it within
// BLK_BATCH_TIME of being made one.
bool BlockQueue::batching(const Submitter& s, sim::Time now) const {
  return s.batch_left == spec_.batch_requests || (s.batch_left > 0 && now < sim::later(s.last_waited, batch_time_));
}

void BlockQueue::set_batching(Submitter& s, sim::Time now) {
  s.batch_left = spec_.batch_requests;
  s.last_waited = now;
}

// __get_request() (block/blk-core.c, 3.13), or a free tag on blk-mq.
bool BlockQueue::get_request(sim::Time now, std::uint32_t s) {
  const std::uint32_t nr = spec_.nr_requests;
  if (blk_mq_) {
    if (count_ >= nr) return false;
    ++count_;
    return true;
  }
  Submitter& sub = submitters_[s];
  if (count_ + 1 >= congestion_on_) {
    if (count_ + 1 >= nr) {
      if (!full_) {
        set_batching(sub, now);
        full_ = true;
      } else if (!batching(sub, now)) {
        return false;
      }
    }
    congested_ = true;
  }
  if (count_ >= 3 * nr / 2) return false;
  ++count_;
  if (batching(sub, now)) --sub.batch_left;
  return true;
}

std::uint32_t BlockQueue::new_request(sim::Time now, const Piece& p) {
  const std::uint32_t rq = requests_.take();
  Request& r = requests_[rq];
  r.offset = p.offset;
  r.length = p.length;
  r.write = p.write;
  r.in_elevator = false;
  r.start = now;
  r.bios.clear();
  r.bios.push_back(p.bio);
  if (in_flight_.value() == 0) busy_since_ = now;
  in_flight_.set(now, count_);
  max_outstanding_ = std::max(max_outstanding_, count_);
  return rq;
}

// __freed_request(): below the off threshold the queue is no longer
// congested; with a slot to spare, the first sleeper is woken and the queue
// is no longer full. blk-mq wakes wake_batch sleepers per wake_batch frees.
void BlockQueue::free_request(sim::Time now, std::uint32_t rq) {
  requests_[rq].bios.clear();
  requests_.release(rq);
  --count_;
  in_flight_.set(now, count_);
  if (count_ == 0) busy_s_ += sim::to_seconds(now - busy_since_);
  if (blk_mq_) {
    if (waiters_.empty()) return;
    if (++freed_since_wake_ >= wake_batch_ || count_ == 0) {
      wakes_due_ += freed_since_wake_ >= wake_batch_ ? wake_batch_ : static_cast<std::uint32_t>(waiters_.size());
      freed_since_wake_ = 0;
    }
    return;
  }
  if (count_ < congestion_off_) congested_ = false;
  if (count_ + 1 <= spec_.nr_requests) {
    if (!waiters_.empty()) ++wakes_due_;
    full_ = false;
  }
}

// The task sleeps in get_request(): schedule() flushes its plug first; its
// later bios wait behind this one.
void BlockQueue::sleep(sim::Time now, std::uint32_t s, const Piece& p) {
  Submitter& sub = submitters_[s];
  sub.asleep = true;
  sub.slept_at = now;
  sub.pending.push_back(p);
  flush_plug(now, s);
  waiters_.push_back(s);
  ++slot_waits_;
  max_sleepers_ = std::max<std::uint32_t>(max_sleepers_, static_cast<std::uint32_t>(waiters_.size()));
  if (slot_listener_ && submitters_[s].task != kNoTask) slot_listener_->slot_wait(now, submitters_[s].task, true);
}

// Sleepers woken by freed slots, in the order they slept.
void BlockQueue::drain_wakes(sim::Time now) {
  if (draining_) return;
  draining_ = true;
  while (wakes_due_ > 0 && !waiters_.empty()) {
    --wakes_due_;
    const std::uint32_t s = waiters_.front();
    waiters_.pop_front();
    resume(now, s);
    run_queue(now);
  }
  wakes_due_ = 0;
  draining_ = false;
}

// A woken task becomes a batcher (get_request(): ioc_set_batching after
// io_schedule) and goes on with its bios; if its plug section ended while it
// slept, its plug is flushed now.
void BlockQueue::resume(sim::Time now, std::uint32_t s) {
  Submitter& sub = submitters_[s];
  sub.asleep = false;
  slot_wait_s_ += sim::to_seconds(now - sub.slept_at);
  if (slot_listener_ && sub.task != kNoTask) slot_listener_->slot_wait(now, sub.task, false);
  set_batching(sub, now);
  while (!submitters_[s].pending.empty() && !submitters_[s].asleep) {
    const Piece p = submitters_[s].pending.front();
    submitters_[s].pending.pop_front();
    process(now, s, p);
  }
  Submitter& after = submitters_[s];
  if (after.asleep) return;
  if (after.finish_pending) {
    after.finish_pending = false;
    flush_plug(now, s);
    submitters_[s].plugging = false;
  }
  release_if_idle(s);
}

// blk_flush_plug_list(): the plugged requests, sorted by sector, go to the
// elevator, each first trying to join a queued request that ends where it
// starts (elv_attempt_insert_merge).
void BlockQueue::flush_plug(sim::Time now, std::uint32_t s) {
  std::vector<std::uint32_t> plug;
  plug.swap(submitters_[s].plug);
  // By sector, equal ones in plug order (list_sort in blk_flush_plug_list is
  // stable): an insertion sort, as a plug holds at most BLK_MAX_REQUEST_COUNT
  // requests, with no temporary buffer (std::stable_sort allocates one).
  for (std::size_t i = 1; i < plug.size(); ++i) {
    const std::uint32_t rq = plug[i];
    const std::uint64_t at = requests_[rq].offset;
    std::size_t j = i;
    for (; j > 0 && at < requests_[plug[j - 1]].offset; --j) plug[j] = plug[j - 1];
    plug[j] = rq;
  }
  for (const std::uint32_t rq : plug)
    if (!insert_merge(now, rq)) insert(now, rq);
  plug.clear();
  if (submitters_[s].plug.empty()) submitters_[s].plug.swap(plug);  // keep the buffer
}

bool BlockQueue::insert_merge(sim::Time now, std::uint32_t rq) {
  auto it = by_end_.find(requests_[rq].offset);
  if (it == by_end_.end()) return false;
  const std::uint32_t into = it->second;
  if (requests_[into].write != requests_[rq].write || !fits(requests_[into], requests_[rq].length)) return false;
  merge_requests(now, into, rq);
  return true;
}

void BlockQueue::insert(sim::Time now, std::uint32_t rq) {
  Request& r = requests_[rq];
  r.in_elevator = true;
  elevator_->add(now, rq, r.offset, r.write);
  index(rq);
}

// __blk_run_queue() / scsi_request_fn(): the device takes requests while it
// has a free tag.
void BlockQueue::run_queue(sim::Time now) {
  while (in_device_ < spec_.queue_depth) {
    const std::uint32_t rq = elevator_->dispatch(now);
    if (rq == Elevator::kNone) return;
    unindex(rq);
    requests_[rq].in_elevator = false;
    ++in_device_;
    device_.issue(now, rq, requests_[rq].offset, requests_[rq].length);
  }
}

void BlockQueue::complete(sim::Time now, std::uint32_t rq) {
  --in_device_;
  Request& r = requests_[rq];
  ++reads_;
  read_bytes_ += r.length;
  await_sum_s_ += sim::to_seconds(now - r.start);
  const std::uint32_t depth = completing_++;
  if (done_.size() <= depth) done_.emplace_back();
  std::vector<std::uint32_t>& done = done_[depth];
  done.clear();
  for (const std::uint32_t b : r.bios)
    if (--bios_[b].pieces_left == 0) done.push_back(b);
  free_request(now, rq);
  run_queue(now);
  drain_wakes(now);
  for (const std::uint32_t b : done) {
    IoListener* listener = bios_[b].listener;
    const std::uint64_t tag = bios_[b].tag;
    bios_.release(b);
    listener->on_io_done(tag);
  }
  --completing_;
}

DiskStats BlockQueue::stats(sim::Time now) const {
  DiskStats s;
  s.reads = reads_;
  s.read_bytes = read_bytes_;
  s.busy_s = busy_s_ + (count_ > 0 ? sim::to_seconds(now - busy_since_) : 0.0);
  s.queue_depth_integral = in_flight_.integral(now);
  s.drives = 1;
  s.merges = merges_;
  s.await_sum_s = await_sum_s_;
  s.slot_waits = slot_waits_;
  s.slot_wait_s = slot_wait_s_;
  s.max_outstanding = max_outstanding_;
  s.max_sleepers = max_sleepers_;
  return s;
}

}  // namespace models
