// What stop_all_real_runs() stops: every process group run_real starts (kept
// by common/child_process, which every realrun child goes through) and the
// cgroup it made (kept by common/cache_cgroup), in fixed storage, so that it can be done from a
// signal handler: no allocation, no locks, only kill(), rmdir() and
// nanosleep().
#pragma once
#include <string>

namespace testbed::realrun {

// How realrun's children name it in their own error lines (exec failed,
// cannot join the cgroup): SpawnSpec::who.
inline const std::string kChildName = "clerk realrun";

// True once stop_all_real_runs() was called (until clear_stop_request()).
bool stop_requested();
void clear_stop_request();
// The body of stop_all_real_runs().
void stop_everything();

}  // namespace testbed::realrun
