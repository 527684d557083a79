// stop_all_real_runs: every child realrun started (common/'s
// ChildProcess, tested in common/tests) is killed from a signal-safe
// call, and the stop is remembered for run_real.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "common/child_process.h"
#include "common/tests/no_children.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/real_run.h"

using namespace testbed::realrun;
using common::ChildProcess;
using common::test::no_children;

TEST_CASE("stop_all_real_runs kills every registered group, the owner reaps", "[child_process]") {
  common::SubreaperScope reaper;
  clear_stop_request();
  ChildProcess a = ChildProcess::spawn({{"/bin/sleep", "60"}, "", "", kChildName});
  ChildProcess b = ChildProcess::spawn({{"/bin/sh", "-c", "sleep 60 & wait"}, "", "", kChildName});
  testbed::stop_all_real_runs();
  CHECK(stop_requested());
  REQUIRE(a.wait_for(5));
  REQUIRE(b.wait_for(5));
  CHECK(WIFSIGNALED(a.exit()->status));
  CHECK(WTERMSIG(a.exit()->status) == SIGKILL);
  b.stop(SIGKILL, 0);  // reaps the orphaned sleep too
  clear_stop_request();
  CHECK(no_children());
}
