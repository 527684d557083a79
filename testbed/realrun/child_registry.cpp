#include "testbed/realrun/child_registry.h"

#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <atomic>
#include <cstring>

#include "testbed/common/child_process.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {

std::atomic<bool> g_stop{false};

// The cgroup path, double-buffered so the handler never reads a half-written
// string: the writer fills the inactive buffer, then publishes its index.
constexpr std::size_t kPathMax = 256;
char g_cgroup[2][kPathMax];
std::atomic<int> g_cgroup_index{-1};  // -1: none

}  // namespace

void register_cgroup(const std::string& path) {
  if (path.empty() || path.size() >= kPathMax) {
    g_cgroup_index.store(-1);
    return;
  }
  const int next = g_cgroup_index.load() == 0 ? 1 : 0;
  std::memcpy(g_cgroup[next], path.c_str(), path.size() + 1);
  g_cgroup_index.store(next);
}

bool stop_requested() { return g_stop.load(); }
void clear_stop_request() { g_stop.store(false); }

void stop_everything() {
  g_stop.store(true);
  common::kill_all_child_groups();
  // A cgroup can only be removed once its tasks have exited: SIGKILL is
  // asynchronous, so retry for up to a second.
  const int index = g_cgroup_index.load();
  if (index < 0) return;
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::rmdir(g_cgroup[index]) == 0 || errno == ENOENT) return;
    const timespec pause{0, 10'000'000};
    ::nanosleep(&pause, nullptr);
  }
}

}  // namespace testbed::realrun

namespace testbed {
void stop_all_real_runs() {
  const int saved = errno;  // a signal handler must leave errno as it found it
  realrun::stop_everything();
  errno = saved;
}
}  // namespace testbed
