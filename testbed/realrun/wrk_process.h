// One wrk process for one client group.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/clients/wrk.h"
#include "common/child_process.h"
#include "testbed/realrun/real_run.h"
#include "testbed/realrun/wrk_script.h"

namespace testbed::realrun {

struct WrkLaunch {
  std::string binary = "/usr/bin/wrk";
  std::uint32_t threads = 1, connections = 1;
  double duration_s = 1, timeout_s = 2;
  std::string script;  // the Lua file
  std::string url;     // http://127.0.0.1:PORT/path
  std::string output;  // its stdout/stderr
  std::vector<std::string> argv;  // another client's command line (clerk-replay) in wrk's place; empty: wrk's
  std::uint64_t scheduled = 0;    // clerk-replay: its schedule's lines, all due before the end
};

// wrk takes whole seconds (-d 10s, --timeout 2s): both are rounded up, to at least 1 s.
std::vector<std::string> wrk_argv(const WrkLaunch& launch);
std::uint32_t whole_seconds(double s);
// threads * floor(connections / threads), as wrk opens them.
std::uint32_t connections_open(const models::WrkGroupSpec& group);

// The group's result from wrk's summary (times converted to seconds).
RealGroupResult group_result(const std::string& name, std::uint32_t connections, const WrkSummary& summary);

class WrkProcess {
 public:
  static WrkProcess start(const std::string& name, const WrkLaunch& launch);
  const std::string& name() const { return name_; }
  pid_t pid() const { return child_.pid(); }
  common::ChildProcess& child() { return child_; }
  // Once it exited: its summary, or RealRunError quoting its output.
  RealGroupResult result(std::uint32_t connections) const;
  std::string output_text() const;

 private:
  std::string name_;
  WrkLaunch launch_;
  common::ChildProcess child_;
};

}  // namespace testbed::realrun
