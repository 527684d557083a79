// SIGINT, SIGTERM and SIGHUP (a closed terminal) noted instead of obeyed at
// once, while a command finishes what must not be left half-done (clerk
// plot stops and reaps gnuplot and removes its work folder; clerk gen-log
// removes its temporary; a SimGrid run of clerk validate stops its child and
// removes its folder): the command polls stop_signal_noted(), and once
// the guard is gone re-raises take_stop_signal(), so that the signal ends
// clerk as it would have. A signal ignored when the guard was made (nohup,
// a background job's SIGINT) stays ignored.
//
// HeldStopSignals is the short form, for a step that takes milliseconds and
// must not be cut in two: the writer's temporary file between its creation
// and its rename or removal (common/output_file.h; probe 5, finding 4: a
// Ctrl-C there left ".NAME.XXXXXX" beside the output). No polling: a signal
// noted during the hold is raised again when the last hold ends.
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

// Stop signals held while this lives. Holds nest and may be taken by several
// threads at once (a count under a lock): the first installs the noting
// handlers (keeping an ignored signal ignored), the last puts the earlier
// handlers back and raises a signal noted meanwhile, which ends the process
// as it would have, or runs the handler that was in place. Inside a
// DeferredStopSignals guard a hold installs and raises nothing: that guard's
// command polls and raises once its guard is gone. The handler only stores
// the signal's number (async-signal-safe), and is installed without
// SA_RESTART, as the guard's is.
class HeldStopSignals {
 public:
  HeldStopSignals();
  ~HeldStopSignals();  // release()
  HeldStopSignals(const HeldStopSignals&) = delete;
  HeldStopSignals& operator=(const HeldStopSignals&) = delete;
  // Whether a stop signal came during the hold (or, inside a guard, during
  // the guard): the process is being stopped, and the holder may give up its
  // step (the writer removes its temporaries rather than rename them).
  bool stop_noted() const;
  // Ends the hold now (once; the destructor then does nothing). The last
  // hold raises the signal noted. Returns that signal if the process is still
  // alive (its handler let it live on, another thread's hold will raise it
  // when it ends, or the guard's command will), else 0: nothing was noted.
  int release();

 private:
  bool released_ = false;
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
