// Per-process CPU time, from /proc.
#pragma once
#include <sys/types.h>

#include <string>

namespace testbed::calibrate {

// utime + stime of `pid` in seconds (fields 14 and 15 of /proc/PID/stat, in
// clock ticks): the figure `top` shows, counted by the kernel at each tick.
double process_cpu_s(pid_t pid);
// The same from the text of a stat file (for tests).
double parse_stat_cpu_ticks(const std::string& stat_line);

}  // namespace testbed::calibrate
