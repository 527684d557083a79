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
// threads at once (a count under a lock), but a DeferredStopSignals guard is
// made and ended only while no hold is live (every guard is taken on the
// main thread around a step that holds nothing else meanwhile: plot, compare
// --figure, gen-log, a SimGrid child's run). A guard made during another
// thread's hold would save the hold's noting handler as the one to put back,
// and forget a signal the hold had noted (review of probe 5's fixes,
// finding 7: a contract the code kept for no caller). The first installs the noting
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
  // Whether the signal noted stops the process, so that the holder gives up
  // its step: the default action was in place before the hold (the process
  // dies of it at release), or a guard's command raises it. False when
  // nothing was noted, or when the program's own handler was in place
  // (calibrate and realrun note a Ctrl-C, stop their children and go on to
  // save what they finished, then exit 130): the holder then finishes its
  // step as it would have without the hold, and that handler runs at the
  // release (review of probe 5's fixes, finding 5: a finished profile was
  // lost, realrun's exit 130 became 1).
  bool stopping() const;
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

// For the tests only (tests/stop_signal_outputs_test.sh): with
// CLERK_TEST_PAUSE_AT_TEMPORARY=N in the environment, the Nth temporary
// (file or folder) this process makes under a hold (the writer's, a
// HeldTempDir) is said on the standard error as "clerk:
// CLERK_TEST_PAUSE_AT_TEMPORARY=N: holding NAME" and stays as it is for up to
// 60 s, or until a stop signal is noted, so that a test signals at that very
// moment instead of hoping to hit a window of a few milliseconds. Unset, as
// everywhere else: nothing.
void pause_at_temporary_if_asked(const std::string& name);

}  // namespace common
