// The real tools calibrate drives, and the Debian package of each, so that a
// missing one is named with what to install.
#pragma once
#include <string>
#include <vector>

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

}  // namespace testbed::calibrate
