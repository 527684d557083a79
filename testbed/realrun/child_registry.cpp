#include "testbed/realrun/child_registry.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <atomic>
#include <cstring>

#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {

// Lock-free atomics only: a signal handler may interrupt a register call.
static_assert(std::atomic<pid_t>::is_always_lock_free);
constexpr std::size_t kSlots = 256;  // one run: a server, a wrk per group, a preload reader
std::array<std::atomic<pid_t>, kSlots> g_groups{};
std::atomic<bool> g_stop{false};

// The cgroup path, double-buffered so the handler never reads a half-written
// string: the writer fills the inactive buffer, then publishes its index.
constexpr std::size_t kPathMax = 256;
char g_cgroup[2][kPathMax];
std::atomic<int> g_cgroup_index{-1};  // -1: none

}  // namespace

bool register_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pgid)) return true;
  }
  return false;
}

void unregister_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void kill_all_groups() {
  for (auto& slot : g_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
}

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
  kill_all_groups();
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
