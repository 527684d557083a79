#include "common/stop_signals.h"

#include <atomic>
#include <cstdio>

namespace common {

namespace {
std::atomic<int> g_noted{0};
extern "C" void note_stop_signal(int sig) { g_noted = sig; }
}  // namespace

DeferredStopSignals::DeferredStopSignals() {
  g_noted = 0;
  struct sigaction sa {};
  sa.sa_handler = note_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    sigaction(kSignals[i], &sa, &old_[i]);
    if (old_[i].sa_handler == SIG_IGN) sigaction(kSignals[i], &old_[i], nullptr);  // nohup and background jobs
  }
}

DeferredStopSignals::~DeferredStopSignals() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &old_[i], nullptr);
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

}  // namespace common
