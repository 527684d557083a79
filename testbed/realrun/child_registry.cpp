#include "testbed/realrun/child_registry.h"

#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <cstring>

#include "common/cache_cgroup.h"
#include "common/child_process.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {
std::atomic<bool> g_stop{false};
}  // namespace

bool stop_requested() { return g_stop.load(); }
void clear_stop_request() { g_stop.store(false); }

void stop_everything() {
  g_stop.store(true);
  common::kill_all_child_groups();
  common::remove_live_cgroup();
}

}  // namespace testbed::realrun

namespace testbed {
void stop_all_real_runs() {
  const int saved = errno;  // a signal handler must leave errno as it found it
  realrun::stop_everything();
  errno = saved;
}
}  // namespace testbed
