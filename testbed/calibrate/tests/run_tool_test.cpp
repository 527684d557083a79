// How calibrate runs its tools (common/'s ChildProcess with
// calibrate's settings): output captured, failures reported with the output,
// the child's CPU time, and an interrupt that kills every child at once.
// The interrupt case runs in a forked process of its own: its handlers and
// flag last for the rest of a process, and must not reach the other cases.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <stdexcept>

#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/tools.h"
#include "common/tests/no_children.h"

using namespace testbed::calibrate;
using common::ChildProcess;
using common::test::no_children;

TEST_CASE("run_and_capture returns a tool's output and its CPU time", "[calibrate][run_tool]") {
  double cpu_s = -1;
  const std::string out =
      run_and_capture({"/bin/sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo out; echo err >&2"},
                      &cpu_s);
  CHECK(out == "out\nerr\n");
  CHECK(cpu_s > 0.01);
  CHECK(no_children());
}

TEST_CASE("run_and_capture throws on failure with the status and the output's end", "[calibrate][run_tool]") {
  try {
    run_and_capture({"/bin/sh", "-c", "echo 'no such device' >&2; exit 3"});
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "/bin/sh failed (status 768): no such device\n");
  }
  try {
    run_and_capture({"/nonexistent/fio"});
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) ==
          "/nonexistent/fio failed (status 32512): clerk calibrate: exec failed: No such file or directory\n");
  }
  CHECK(no_children());
}

namespace {
// The interrupt scenario, in the forked process: 0 when every step held,
// otherwise the number of the first step that failed.
int interrupt_scenario() {
  common::SubreaperScope reaper;
  install_interrupt_handlers();
  if (interrupted()) return 1;
  ChildProcess server = ChildProcess::spawn(tool_child({"/bin/sh", "-c", "sleep 60 & sleep 60 & wait"}));
  ChildProcess client = ChildProcess::spawn(tool_child({"/bin/sleep", "60"}));
  ::raise(SIGINT);
  if (!interrupted()) return 2;
  if (!server.wait_for(5) || !client.wait_for(5)) return 3;
  if (!WIFSIGNALED(client.exit()->status) || WTERMSIG(client.exit()->status) != SIGKILL) return 4;
  server.stop(SIGTERM, 0);  // reaps the killed sleeps
  if (!no_children()) return 5;
  try {
    throw_if_interrupted();
    return 6;
  } catch (const Interrupted&) {
  }
  try {
    run_and_capture({"/bin/true"});
    return 7;
  } catch (const Interrupted&) {
  }
  return 0;
}
}  // namespace

TEST_CASE("an interrupt kills every child at once, the next step throws Interrupted", "[calibrate][run_tool]") {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // Nothing may escape into Catch2 in this forked copy of the tests.
    try {
      ::_exit(interrupt_scenario());
    } catch (...) {
      ::_exit(99);
    }
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);  // otherwise: the step of interrupt_scenario() that failed
  CHECK(no_children());
}
