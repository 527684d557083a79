#include "testbed/calibrate/tools.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/stale_state.h"
#include "testbed/calibrate/interrupt.h"

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

common::SpawnSpec tool_child(const std::vector<std::string>& argv, const std::string& output_file) {
  common::SpawnSpec spec;
  spec.argv = argv;
  spec.output = output_file;
  spec.who = "clerk calibrate";
  spec.die_with_parent = true;
  return spec;
}

common::TempDir calibrate_temp_dir() { return common::TempDir("/tmp/" + common::own_state_name("clerk-calibrate") + "-"); }

std::string run_and_capture(const std::vector<std::string>& argv, double* cpu_s) {
  throw_if_interrupted();
  common::CommandResult r;
  {
    const common::TempDir dir = calibrate_temp_dir();
    r = common::run_command(tool_child(argv, dir.file("out")), INFINITY);
  }
  throw_if_interrupted();
  if (cpu_s) *cpu_s = r.cpu_s;
  if (!r.ok()) {
    std::string text = r.output;
    if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
    throw std::runtime_error(argv[0] + " failed (status " + std::to_string(r.status) + "): " + text);
  }
  return r.output;
}

}  // namespace testbed::calibrate
