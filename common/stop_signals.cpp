#include "common/stop_signals.h"

#include "common/shown_text.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unistd.h>

namespace common {

namespace {
// DeferredStopSignals::kSignals (its old_ binds to Handlers& only while the two agree in size).
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
using Handlers = struct sigaction[std::size(kStopSignals)];

std::atomic<int> g_noted{0};
std::atomic<int> g_guards{0};  // DeferredStopSignals alive
extern "C" void note_stop_signal(int sig) { g_noted = sig; }

// The noting handler on every stop signal, the earlier ones kept in `old`;
// an ignored signal stays ignored (nohup and background jobs).
void install_noting(Handlers& old) {
  struct sigaction sa {};
  sa.sa_handler = note_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
    sigaction(kStopSignals[i], &sa, &old[i]);
    if (old[i].sa_handler == SIG_IGN) sigaction(kStopSignals[i], &old[i], nullptr);
  }
}

void restore(const Handlers& old) {
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i) sigaction(kStopSignals[i], &old[i], nullptr);
}

// The holds alive, and whether they installed the handlers (no guard was
// in place when the first began).
struct Holds {
  std::mutex mu;
  int alive = 0;
  std::atomic<bool> noting{false};
  Handlers old{};
};
Holds& holds() {
  static Holds h;
  return h;
}

// A handler of the program's own (calibrate's, realrun's) lets the process go
// on; the default action ends it.
bool is_default(const struct sigaction& sa) { return (sa.sa_flags & SA_SIGINFO) == 0 && sa.sa_handler == SIG_DFL; }
}  // namespace

DeferredStopSignals::DeferredStopSignals() {
  g_noted = 0;
  ++g_guards;
  install_noting(old_);
}

DeferredStopSignals::~DeferredStopSignals() {
  restore(old_);
  --g_guards;
}

HeldStopSignals::HeldStopSignals() {
  Holds& h = holds();
  const std::lock_guard lock(h.mu);
  if (h.alive++ > 0) return;
  h.noting = g_guards == 0;
  if (!h.noting) return;  // the guard's command polls and raises
  g_noted = 0;
  install_noting(h.old);
}

HeldStopSignals::~HeldStopSignals() { release(); }

// g_noted is the hold's own (reset when the first hold installed the
// handlers) or the guard's it sits in.
bool HeldStopSignals::stop_noted() const { return !released_ && g_noted != 0; }

bool HeldStopSignals::stopping() const {
  const int sig = released_ ? 0 : g_noted.load();
  if (sig == 0) return false;
  Holds& h = holds();
  const std::lock_guard lock(h.mu);
  if (!h.noting) return true;  // inside a guard: its command raises it
  for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
    if (kStopSignals[i] == sig) return is_default(h.old[i]);
  return true;
}

int HeldStopSignals::release() {
  if (released_) return 0;
  released_ = true;
  Holds& h = holds();
  int sig = 0;
  {
    const std::lock_guard lock(h.mu);
    if (!h.noting) {  // inside a guard: its command raises
      --h.alive;
      return g_noted;
    }
    if (--h.alive > 0) return g_noted;  // raised when the last hold ends
    h.noting = false;
    restore(h.old);
    sig = take_stop_signal();
  }
  if (sig != 0) std::raise(sig);  // the handler in place before: by default, the end of the process
  return sig;
}

bool stop_signal_noted() { return g_noted != 0; }

int take_stop_signal() { return g_noted.exchange(0); }

int raise_noted_stop_signal(const std::string& what) {
  const int sig = take_stop_signal();
  if (sig == 0) return 0;
  std::fprintf(stderr, "clerk: %s stopped by signal %d\n", what.c_str(), sig);
  std::fflush(stderr);
  std::raise(sig);
  return sig;
}

void pause_at_temporary_if_asked(const std::string& name) {
  static const long at = [] {
    const char* v = std::getenv("CLERK_TEST_PAUSE_AT_TEMPORARY");
    return v ? std::strtol(v, nullptr, 10) : 0L;
  }();
  static std::atomic<long> made{0};
  if (at <= 0 || ++made != at) return;
  std::fprintf(stderr, "clerk: CLERK_TEST_PAUSE_AT_TEMPORARY=%ld: holding %s\n", at, shown_text(name).c_str());
  std::fflush(stderr);
  for (int i = 0; i < 600 && !stop_signal_noted(); ++i) usleep(100'000);
}

}  // namespace common
