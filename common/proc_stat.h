// The CPU time in a /proc/PID/stat (or /proc/PID/task/TID/stat) line, the
// one reader of it that calibrate and realrun share (proc(5): utime and
// stime are fields 14 and 15, in clock ticks, as fs/proc/array.c's
// do_task_stat writes them).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace common {

// utime + stime of a stat line, in clock ticks (sysconf(_SC_CLK_TCK) a
// second); nullopt if the line has no ')' , fewer than 15 fields, or
// utime or stime is not a count. The command name (field 2) may hold spaces
// and parentheses, so fields are counted after the last ')'.
std::optional<std::uint64_t> parse_stat_cpu_ticks(const std::string& stat);

// A softirq's counts per CPU, from the text of /proc/softirqs (a header of
// CPU names, then "NAME: count count ...", as fs/proc/softirqs.c's
// show_softirqs writes them: each CPU's an unsigned int, "%10u"); empty when
// the line is absent, a std::runtime_error when a count is not a number
// below 2^32.
std::vector<std::uint32_t> parse_softirq_counts(const std::string& proc_softirqs, const std::string& name);
// The softirqs run between two readings, all CPUs: each CPU's difference
// modulo 2^32 (its counter wraps), over the CPUs both readings have.
std::uint64_t softirqs_between(const std::vector<std::uint32_t>& before, const std::vector<std::uint32_t>& after);

}  // namespace common
