#include "engines/simgrid/sg_alarm_clock.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/simix.hpp>

namespace sgengine {

namespace sg4 = simgrid::s4u;

void AlarmClock::start(sg4::Host* host) {
  sg4::Actor::create("alarm-clock", host, [this] { run(); })->daemonize();
}

AlarmClock::Sleeper AlarmClock::add_sleeper() {
  sleepers_.push_back(sg4::Semaphore::create(0));
  return static_cast<Sleeper>(sleepers_.size() - 1);
}

void AlarmClock::sleep_until(Sleeper sleeper, sim::Time at) {
  // An instant already reached: no wait and no yield (as
  // this_actor::sleep_until). An alarm so rings at a later instant than it
  // is set, when its actor is surely waiting: notifying the alarm actor is a
  // simcall, so an alarm due now could ring before the actor waits, which
  // would then resume after the others rung with it.
  if (at <= now_ns()) return;
  const bool earliest = alarms_.empty() || at < alarms_.top().at;
  alarms_.push(Alarm{at, next_seq_++, sleeper});
  if (earliest) wake_.notify();  // the alarm actor waits for a later instant, or for none
  sleepers_[sleeper]->acquire();
  ++resumptions();
}

void AlarmClock::ring_due() {
  due_.clear();
  const sim::Time now = now_ns();
  for (; !alarms_.empty() && alarms_.top().at <= now; alarms_.pop()) due_.push_back(alarms_.top().sleeper);
  if (due_.empty()) return;
  // One simcall for the instant: the sleepers then resume one after another
  // in the order rung, in one scheduling round (a release per simcall would
  // let the actors that the first one notifies run before the second is
  // woken). Semaphore::release() called in the kernel runs directly.
  simgrid::kernel::actor::simcall_answered([this] {
    for (const Sleeper s : due_) sleepers_[s]->release();
  });
}

void AlarmClock::run() {
  for (;;) {
    ring_due();
    if (alarms_.empty()) {
      wake_.wait();
    } else {
      // At least a nanosecond ahead: ring_due() took every alarm due now.
      wake_.wait(sim::to_seconds(alarms_.top().at) - sg4::Engine::get_clock());
    }
  }
}

}  // namespace sgengine
