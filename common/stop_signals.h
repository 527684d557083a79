// SIGINT, SIGTERM and SIGHUP (a closed terminal) noted instead of obeyed at
// once, while a command finishes what must not be left half-done (clerk
// plot stops and reaps gnuplot and removes its work folder; clerk gen-log
// removes its temporary; a SimGrid run of clerk validate stops its child and
// removes its folder): the command polls stop_signal_noted(), and once
// the guard is gone re-raises take_stop_signal(), so that the signal ends
// clerk as it would have. A signal ignored when the guard was made (nohup,
// a background job's SIGINT) stays ignored.
#pragma once
#include <csignal>
#include <iterator>
#include <string>

namespace common {

class DeferredStopSignals {
 public:
  DeferredStopSignals();   // installs the handlers; forgets a signal noted before
  ~DeferredStopSignals();  // puts the earlier handlers back
  DeferredStopSignals(const DeferredStopSignals&) = delete;
  DeferredStopSignals& operator=(const DeferredStopSignals&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[std::size(kSignals)] {};
};

// Whether a stop signal came while a guard was in place.
bool stop_signal_noted();
// The signal noted (0 for none), forgotten.
int take_stop_signal();

// Once the guard is gone: the signal noted (if any) said on the standard
// error as "clerk: <what> stopped by signal N" and raised again, which ends
// the process as it would have. Returns the signal (0 for none) in case the
// handlers in place let the process live on.
int raise_noted_stop_signal(const std::string& what);

}  // namespace common
