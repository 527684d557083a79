#include "sim/engine.h"

#include <algorithm>
#include <stdexcept>

namespace sim {

void Engine::schedule_at(Time at, EventTarget* target, std::uint64_t arg) {
  if (at < now_) throw std::logic_error("sim::Engine: event scheduled in the past");
  heap_.push_back(Event{at, next_seq_++, target, arg});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

Engine::Event Engine::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Event e = heap_.back();
  heap_.pop_back();
  return e;
}

bool Engine::step() {
  if (heap_.empty()) return false;
  Event e = pop();
  now_ = e.at;
  ++processed_;
  e.target->on_event(e.arg);
  return true;
}

void Engine::run_until(Time until) {
  while (!heap_.empty() && heap_.front().at <= until) step();
  if (until > now_) now_ = until;
}

}  // namespace sim
