#include "common/stop_signals.h"

#include <atomic>

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

}  // namespace common
