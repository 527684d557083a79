// The event engine: a binary heap of timed events, processed in time order.
// Ties are broken by the order in which events were scheduled, so a run is a
// pure function of its inputs. Events carry a target and one integer: no
// allocation per event. A target that may cancel an event keeps a generation
// number in the integer and ignores stale events (lazy cancellation).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace sim {

class EventTarget {
 public:
  virtual void on_event(std::uint64_t arg) = 0;

 protected:
  ~EventTarget() = default;
};

class Engine {
 public:
  Engine() { heap_.reserve(1024); }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Time now() const { return now_; }
  void schedule_at(Time at, EventTarget* target, std::uint64_t arg = 0);
  void schedule_in(Time delay, EventTarget* target, std::uint64_t arg = 0) {
    schedule_at(now_ + delay, target, arg);
  }

  // Processes events up to and including time `until`, then sets now to it.
  void run_until(Time until);
  // Processes the next event; false when none is left.
  bool step();

  Time next_event_time() const { return heap_.empty() ? kNever : heap_.front().at; }
  std::uint64_t events_processed() const { return processed_; }
  std::size_t pending() const { return heap_.size(); }

 private:
  struct Event {
    Time at;
    std::uint64_t seq;
    EventTarget* target;
    std::uint64_t arg;
  };
  static bool later(const Event& a, const Event& b) {
    return a.at != b.at ? a.at > b.at : a.seq > b.seq;
  }
  Event pop();

  std::vector<Event> heap_;
  Time now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t processed_ = 0;
};

}  // namespace sim
