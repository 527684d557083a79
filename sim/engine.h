// The event engine: a binary heap of timed events, processed in time order.
// Ties are broken by the order in which events were scheduled, so a run is a
// pure function of its inputs. Events carry a target and one integer: no
// allocation per event. A target that may cancel an event keeps a generation
// number in the integer and ignores stale events (lazy cancellation).
//
// Timers are for targets that keep exactly one pending event and move it at
// every change (a processor-sharing resource's next completion). Setting a
// timer takes a sequence number as scheduling an event does, so events are
// ordered exactly as if each setting had been a new event; the occurrence it
// replaces leaves the heap instead of waiting there as a stale event. That
// replaced occurrence is still counted in events_processed() once its time
// has passed, as the stale event would have been, so the count does not
// depend on how cancellation is done.
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
    schedule_at(later(now_, delay), target, arg);
  }

  // A timer of `target`: at most one pending occurrence, set or cancelled in place.
  std::uint32_t add_timer(EventTarget* target);
  void set_timer(std::uint32_t timer, Time at, std::uint64_t arg);
  void cancel_timer(std::uint32_t timer);
  // Timer settings that a caller skipped because another followed at the
  // same instant: `count` occurrences at `at`, counted as replaced ones.
  void note_replaced(Time at, std::uint64_t count) { supersede_at(at, count); }

  // Processes events up to and including time `until`, then sets now to it.
  void run_until(Time until);
  // Processes the next event; false when none is left.
  bool step();

  Time next_event_time() const;
  std::uint64_t events_processed() const;
  // Events that reached their target (events_processed() also counts the
  // replaced timer occurrences, as the stale events they stand for).
  std::uint64_t events_delivered() const { return delivered_; }
  std::size_t pending() const;

 private:
  struct Event {
    Time at;
    std::uint64_t seq;
    EventTarget* target;
    std::uint64_t arg;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }
  };
  struct Timer {
    Event next;
    bool armed = false;
  };
  bool next_is_timer() const;
  void fire(const Event& e);
  void supersede(const Timer& t);
  void supersede_at(Time at, std::uint64_t count);
  void find_first_timer();
  void count_superseded();

  std::vector<Event> heap_;
  std::vector<Timer> timers_;
  std::uint32_t first_timer_ = UINT32_MAX;  // the armed timer due first, if any
  struct Replaced {
    Time at;
    std::uint64_t count;
  };
  std::vector<Replaced> superseded_;  // replaced occurrences not yet passed (runs of equal times)
  Time now_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t processed_ = 0;
  std::uint64_t delivered_ = 0;
};

}  // namespace sim
