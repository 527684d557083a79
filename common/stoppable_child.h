// A child process waited for while SIGINT, SIGTERM and SIGHUP are deferred
// (common/stop_signals.h), as clerk's SimGrid runs do in a child of their
// own: a stop signal kills the child, lets the caller's RAII remove what the
// run made (its temporary folder), and only then ends the process as the
// signal would have (probe 4, finding 7: the folder was left behind).
#pragma once
#include <csignal>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/child_process.h"
#include "common/stop_signals.h"

namespace common {

// Waits for CHILD to end: true once it has, false when a stop signal was
// noted first (the child is then stopped and reaped: `sig`, and after
// `grace_s` SIGKILL to its group, as ChildProcess::stop). A SimGrid run has
// nothing to finish and is killed at once; gnuplot (clerk plot) gets SIGTERM
// and 5 s to end as it does.
inline bool wait_unless_stopped(ChildProcess& child, int sig = SIGKILL, double grace_s = 0) {
  while (!child.wait_for(0.05)) {
    if (stop_signal_noted()) {
      child.stop(sig, grace_s);
      return false;
    }
  }
  return true;
}

// RUN() under a DeferredStopSignals guard. RUN returns a std::optional:
// nothing when it stopped for a noted signal (wait_unless_stopped). Once the
// guard and everything RUN made are gone, a noted signal is said as WHAT's
// and raised again; if the process lives on (the signal's handler lets it),
// "STOPPED was stopped by signal N" is thrown. Otherwise RUN's value, or
// what it threw.
template <class Run>
auto run_deferring_stop_signals(const std::string& what, const std::string& stopped, Run&& run) {
  decltype(run()) result;
  std::exception_ptr failure;
  {
    const DeferredStopSignals guard;
    try {
      result = run();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (const int sig = raise_noted_stop_signal(what))
    throw std::runtime_error(stopped + " was stopped by signal " + std::to_string(sig));
  if (failure) std::rethrow_exception(failure);
  return std::move(result).value();
}

}  // namespace common
