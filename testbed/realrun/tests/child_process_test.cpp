// Children: own process group, every descendant stopped, nothing left
// behind (no zombie, no orphan), exec failures reported, stop_all_real_runs.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "testbed/realrun/child_process.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/real_run.h"
#include "testbed/realrun/server_process.h"

using namespace testbed::realrun;

namespace {
std::string out_file(const char* tag) {
  return (std::filesystem::temp_directory_path() / (std::string("clerk-child-") + tag + "-" + std::to_string(::getpid())))
      .string();
}
// Any child of ours, zombie or not.
bool no_children() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }
}  // namespace

TEST_CASE("a child and its descendants are stopped and reaped", "[child_process]") {
  SubreaperScope reaper;
  const std::string out = out_file("tree");
  pid_t pgid = 0;
  {
    // The shell's two sleeps stand for NGINX's workers.
    ChildProcess c = ChildProcess::spawn({{"/bin/sh", "-c", "sleep 60 & sleep 60 & wait"}, "", out});
    pgid = c.pid();
    ::usleep(100'000);
    CHECK(::getpgid(c.pid()) == c.pid());
    CHECK(children_of(c.pid()).size() == 2);
    c.stop(SIGTERM, 0.2);  // sh ignores nothing, but its children outlive it: SIGKILL to the group
    REQUIRE(c.exit());
  }
  CHECK(wait_group_gone(pgid, 1));
  CHECK(no_children());
  std::filesystem::remove(out);
}

TEST_CASE("an exec failure is exit status 127 with the reason", "[child_process]") {
  const std::string out = out_file("exec");
  const CommandResult r = run_command({"/nonexistent/program"}, out, 5);
  CHECK_FALSE(r.ok());
  CHECK(describe_status(r.status) == "exited with status 127");
  CHECK(r.output.find("No such file") != std::string::npos);
  const CommandResult echo = run_command({"/bin/echo", "hello"}, out, 5);
  CHECK(echo.ok());
  CHECK(echo.output == "hello\n");
  std::filesystem::remove(out);
  CHECK(no_children());
}

TEST_CASE("stop_all_real_runs kills every registered group; the owner reaps", "[child_process]") {
  SubreaperScope reaper;
  clear_stop_request();
  ChildProcess a = ChildProcess::spawn({{"/bin/sleep", "60"}, "", ""});
  ChildProcess b = ChildProcess::spawn({{"/bin/sh", "-c", "sleep 60 & wait"}, "", ""});
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

TEST_CASE("descendants outliving their leader are killed and reaped too", "[child_process]") {
  SubreaperScope reaper;
  pid_t pgid = 0;
  {
    // A master that exits and leaves a worker behind.
    ChildProcess c = ChildProcess::spawn({{"/bin/sh", "-c", "sleep 60 & exit 0"}, "", ""});
    pgid = c.pid();
    REQUIRE(c.wait_for(5));
    CHECK(::kill(-pgid, 0) == 0);  // the orphan is still there
  }
  CHECK(wait_group_gone(pgid, 1));
  CHECK(no_children());
}
