// Every process group run_real starts, and the cgroup it made, in a fixed
// array of atomics, so that stop_all_real_runs() can kill them from a signal
// handler: no allocation, no locks, only kill(), rmdir() and nanosleep().
#pragma once
#include <sys/types.h>

#include <string>

namespace testbed::realrun {

// Records a process group (its leader's pid; every child we start leads its
// own group, so its descendants — NGINX's workers — are in it too).
// Returns false when the registry is full (the caller kills the child).
bool register_group(pid_t pgid);
void unregister_group(pid_t pgid);
// SIGKILL to every registered group.
void kill_all_groups();
// The cgroup directory to remove on stop (one at a time; "" clears it).
void register_cgroup(const std::string& path);
// True once stop_all_real_runs() was called (until clear_stop_request()).
bool stop_requested();
void clear_stop_request();
// The body of stop_all_real_runs().
void stop_everything();

}  // namespace testbed::realrun
