#include "sim/engine.h"

#include <algorithm>
#include <stdexcept>

#include "sim/assert.h"

namespace sim {

void Engine::schedule_at(Time at, EventTarget* target, std::uint64_t arg) {
  if (at < now_) throw std::logic_error("sim::Engine: event scheduled in the past");
  CLERK_ASSERT(target != nullptr, "an event without a target");
  heap_.push_back(Event{at, next_seq_++, target, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

std::uint32_t Engine::add_timer(EventTarget* target) {
  CLERK_ASSERT(target != nullptr, "a timer without a target");
  timers_.push_back(Timer{Event{kNever, 0, target, 0}, false});
  return static_cast<std::uint32_t>(timers_.size() - 1);
}

// The replaced occurrence would have stayed in the heap until its time.
void Engine::supersede(const Timer& t) {
  if (t.armed) supersede_at(t.next.at, 1);
}

void Engine::supersede_at(Time at, std::uint64_t count) {
  if (!superseded_.empty() && superseded_.back().at == at) {
    superseded_.back().count += count;
    return;
  }
  superseded_.push_back(Replaced{at, count});
  if (superseded_.size() % 4096 == 0) count_superseded();
}

void Engine::set_timer(std::uint32_t timer, Time at, std::uint64_t arg) {
  if (at < now_) throw std::logic_error("sim::Engine: timer set in the past");
  CLERK_ASSERT(timer < timers_.size(), "set_timer of a timer never added");
  Timer& t = timers_[timer];
  supersede(t);
  t.next.at = at;
  t.next.seq = next_seq_++;
  t.next.arg = arg;
  t.armed = true;
  find_first_timer();
}

void Engine::cancel_timer(std::uint32_t timer) {
  CLERK_ASSERT(timer < timers_.size(), "cancel_timer of a timer never added");
  Timer& t = timers_[timer];
  supersede(t);
  t.armed = false;
  find_first_timer();
}

// There are few timers (one per shared resource): a scan finds the first.
void Engine::find_first_timer() {
  first_timer_ = UINT32_MAX;
  for (std::uint32_t i = 0; i < timers_.size(); ++i) {
    if (!timers_[i].armed) continue;
    if (first_timer_ == UINT32_MAX || Later{}(timers_[first_timer_].next, timers_[i].next)) first_timer_ = i;
  }
  // No armed timer is due before now: the clock never runs backwards.
  CLERK_ASSERT(first_timer_ == UINT32_MAX || timers_[first_timer_].next.at >= now_, "an armed timer due in the past");
}

bool Engine::next_is_timer() const {
  if (first_timer_ == UINT32_MAX) return false;
  return heap_.empty() || Later{}(heap_.front(), timers_[first_timer_].next);
}

Time Engine::next_event_time() const {
  if (next_is_timer()) return timers_[first_timer_].next.at;
  return heap_.empty() ? kNever : heap_.front().at;
}

void Engine::fire(const Event& e) {
  CLERK_ASSERT(e.at >= now_, "an event delivered before the time already reached");
  now_ = e.at;
  ++processed_;
  ++delivered_;
  e.target->on_event(e.arg);
}

bool Engine::step() {
  if (next_is_timer()) {
    Timer& t = timers_[first_timer_];
    CLERK_ASSERT(t.armed, "the first timer is not armed");
    t.armed = false;
    const Event e = t.next;
    find_first_timer();
    fire(e);
    return true;
  }
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  const Event e = heap_.back();
  heap_.pop_back();
  fire(e);
  return true;
}

// Replaced occurrences whose time has passed count as processed events.
void Engine::count_superseded() {
  const auto passed =
      std::partition(superseded_.begin(), superseded_.end(), [this](const Replaced& r) { return r.at > now_; });
  for (auto it = passed; it != superseded_.end(); ++it) {
    CLERK_ASSERT(it->count > 0, "a replaced occurrence counted as none");
    processed_ += it->count;
  }
  superseded_.erase(passed, superseded_.end());
}

void Engine::run_until(Time until) {
  for (Time next = next_event_time(); next != kNever && next <= until; next = next_event_time()) step();
  if (until > now_) now_ = until;
  count_superseded();
}

std::uint64_t Engine::events_processed() const {
  std::uint64_t n = processed_;
  for (const Replaced& r : superseded_)
    if (r.at <= now_) n += r.count;
  return n;
}

std::size_t Engine::pending() const {
  std::size_t n = heap_.size() + superseded_.size();
  for (const Timer& t : timers_) n += t.armed ? 1 : 0;
  return n;
}

}  // namespace sim
