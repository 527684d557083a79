// The real tools calibrate drives, and the Debian package of each, so that a
// missing one is named with what to install; and how calibrate starts them.
#pragma once
#include <string>
#include <vector>

#include "common/child_process.h"
#include "common/temp_dir.h"

namespace testbed::calibrate {

struct Tool {
  std::string name;     // "fio"
  std::string path;     // "/usr/bin/fio"
  std::string package;  // "fio"
};

const Tool& fio_tool();
const Tool& nginx_tool();
const Tool& wrk_tool();

// The tools among `tools` that are not installed (not executable at their path).
std::vector<Tool> missing_tools(const std::vector<Tool>& tools);

// How calibrate starts a child: stdout and stderr to `output_file` (or
// /dev/null when empty), killed if clerk dies, even by SIGKILL. Call
// throw_if_interrupted() before starting it.
common::SpawnSpec tool_child(const std::vector<std::string>& argv, const std::string& output_file = {});

// A temporary folder named after this calibrate,
// /tmp/clerk-calibrate-<pid>-XXXXXX, so that a later calibrate can tell it
// stale once this one is gone (common/stale_state.h).
common::TempDir calibrate_temp_dir();

// Runs a command to completion and returns its stdout+stderr (and its own
// CPU time, wait4's rusage, in `cpu_s`); throws on failure, with the
// output's end in the message, and Interrupted when interrupted.
std::string run_and_capture(const std::vector<std::string>& argv, double* cpu_s = nullptr);

}  // namespace testbed::calibrate
