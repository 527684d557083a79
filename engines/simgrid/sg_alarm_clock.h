// Timed waits that end in the order they were set, as on the native engine's
// event heap (sim/engine.h: ties broken by the order of scheduling).
//
// SimGrid does not promise that: actors whose sleep_until() ends at one
// instant resume in the order its CPU model's action heap gives up their
// sleeps, which is not the order the sleeps began. On SimGrid 3.32 the 32
// wrk socket actors of scenarios/agreement/misses.toml, all writing their
// first request at 100 us, resumed last connection first, so each wrk
// thread's random files went to its connections in the reverse of the native
// engine's order, and the requests reached the server reversed.
//
// Actors whose order at one instant decides what the model does wait here
// instead: one alarm actor sleeps until the earliest alarm, then, in one
// simcall, releases every sleeper due at that instant in the order their
// waits began. A SimGrid semaphore answers its acquirer at release, so they
// all resume in that order in the same scheduling round, as the sleeps
// ending at one instant did, and each runs to its next simcall before any
// actor that one of them notifies runs.
#pragma once
#include <cstdint>
#include <queue>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>
#include <vector>

#include "engines/simgrid/sg_clock.h"
#include "sim/time.h"

namespace sgengine {

class AlarmClock {
 public:
  // Starts the alarm actor (a daemon) on `host`.
  void start(simgrid::s4u::Host* host);
  // A timed waiter: one actor's, which sleeps on it, one sleep at a time.
  using Sleeper = std::uint32_t;
  Sleeper add_sleeper();
  // Blocks the calling actor until `at`; returns at once if `at` is not in the future.
  void sleep_until(Sleeper sleeper, sim::Time at);

 private:
  struct Alarm {
    sim::Time at;
    std::uint64_t seq;  // the order the waits began
    Sleeper sleeper;
  };
  struct Later {
    bool operator()(const Alarm& a, const Alarm& b) const { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }
  };
  void run();  // the actor
  void ring_due();

  std::priority_queue<Alarm, std::vector<Alarm>, Later> alarms_;
  std::uint64_t next_seq_ = 0;
  std::vector<simgrid::s4u::SemaphorePtr> sleepers_;  // one per sleeper, released when its alarm rings
  std::vector<Sleeper> due_;  // ring_due()'s scratch
  Wakeup wake_;  // the alarm actor's: an alarm earlier than every pending one
};

}  // namespace sgengine
