#include "testbed/calibrate/interrupt.h"

#include <signal.h>

#include <atomic>

#include "common/child_process.h"

namespace testbed::calibrate {

namespace {
std::atomic<bool> g_interrupted{false};

void on_signal(int) {
  g_interrupted.store(true);
  common::kill_all_child_groups();  // async-signal-safe
}
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &sa, nullptr);
}
bool interrupted() { return g_interrupted.load(); }
void throw_if_interrupted() {
  if (interrupted()) throw Interrupted{};
}

}  // namespace testbed::calibrate
