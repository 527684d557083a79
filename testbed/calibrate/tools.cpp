#include "testbed/calibrate/tools.h"

#include <unistd.h>

namespace testbed::calibrate {

// Debian's paths: calibrate measures the packaged builds, the ones the
// profile's comments name, not whatever is first on PATH.
const Tool& fio_tool() {
  static const Tool t{"fio", "/usr/bin/fio", "fio"};
  return t;
}
const Tool& nginx_tool() {
  static const Tool t{"nginx", "/usr/sbin/nginx", "nginx-light"};
  return t;
}
const Tool& wrk_tool() {
  static const Tool t{"wrk", "/usr/bin/wrk", "wrk"};
  return t;
}

std::vector<Tool> missing_tools(const std::vector<Tool>& tools) {
  std::vector<Tool> missing;
  for (const Tool& t : tools)
    if (access(t.path.c_str(), X_OK) != 0) missing.push_back(t);
  return missing;
}

}  // namespace testbed::calibrate
