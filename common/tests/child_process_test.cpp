// The testbed's children (realrun's servers, wrk and preload readers;
// calibrate's nginx, wrk and fio): own process group, every descendant
// stopped, nothing left behind (no zombie, no orphan), exec failures
// reported, timeouts, the signal-safe kill of every live group, and death
// with the parent.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "common/child_process.h"
#include "common/tests/no_children.h"
#include "common/text_file.h"

using namespace common;
using common::test::no_children;

namespace {
std::string out_file(const char* tag) {
  return (std::filesystem::temp_directory_path() / (std::string("clerk-child-") + tag + "-" + std::to_string(::getpid())))
      .string();
}
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

TEST_CASE("an exec failure is exit status 127 with the reason, under the caller's name", "[child_process]") {
  const std::string out = out_file("exec");
  const CommandResult r = run_command({{"/nonexistent/program"}, "", out, "clerk test"}, 5);
  CHECK_FALSE(r.ok());
  CHECK(describe_status(r.status) == "exited with status 127");
  CHECK(r.output == "clerk test: exec failed: No such file or directory\n");
  const CommandResult echo = run_command({{"/bin/echo", "hello"}, "", out}, 5);
  CHECK(echo.ok());
  CHECK(echo.output == "hello\n");
  std::filesystem::remove(out);
  CHECK(no_children());
}

TEST_CASE("a command past its timeout is killed with its group", "[child_process]") {
  SubreaperScope reaper;
  const std::string out = out_file("timeout");
  const auto t0 = std::chrono::steady_clock::now();
  const CommandResult r = run_command({{"/bin/sh", "-c", "sleep 60 & sleep 60"}, "", out}, 0.2);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(took < 5);
  CHECK_FALSE(r.ok());
  CHECK(describe_status(r.status) == "killed by signal 9 (Killed)");
  CHECK(r.output == "(timed out after 0.2 s)");
  CHECK(no_children());
  std::filesystem::remove(out);
}

TEST_CASE("an infinite timeout waits for the exit, the child's CPU time is reported", "[child_process]") {
  const std::string out = out_file("cpu");
  // About a tenth of a second of shell arithmetic, and output after it.
  const CommandResult r = run_command(
      {{"/bin/sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $i"}, "", out}, INFINITY);
  CHECK(r.ok());
  CHECK(r.output == "100000\n");
  CHECK(r.cpu_s > 0.01);
  CHECK(r.cpu_s < 30);
  std::filesystem::remove(out);
}

TEST_CASE("kill_all_child_groups kills every live child's group, the owner reaps", "[child_process]") {
  SubreaperScope reaper;
  ChildProcess a = ChildProcess::spawn({{"/bin/sleep", "60"}, "", ""});
  ChildProcess b = ChildProcess::spawn({{"/bin/sh", "-c", "sleep 60 & wait"}, "", ""});
  pid_t gone = 0;
  {
    ChildProcess c = ChildProcess::spawn({{"/bin/sleep", "60"}, "", ""});
    gone = c.pid();
  }
  CHECK(wait_group_gone(gone, 1));
  kill_all_child_groups();  // what a SIGINT handler does
  REQUIRE(a.wait_for(5));
  REQUIRE(b.wait_for(5));
  CHECK(WIFSIGNALED(a.exit()->status));
  CHECK(WTERMSIG(a.exit()->status) == SIGKILL);
  b.stop(SIGKILL, 0);  // reaps the orphaned sleep too
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

TEST_CASE("a child reaped by a wait on its group is gone, not running forever", "[child_process]") {
  ChildProcess c = ChildProcess::spawn({{"/bin/true"}, "", ""});
  const pid_t pid = c.pid();
  REQUIRE(wait_group_gone(pid, 5));  // its waitpid on the group reaps the leader
  const auto& e = c.wait_for(5);
  REQUIRE(e.has_value());
  CHECK(e->lost);
  CHECK_FALSE(e->ok());
  CHECK_FALSE(c.running());
}

namespace {

// Forks an intermediate parent that starts /bin/sleep through ChildProcess
// with `spec` and is then SIGKILLed; returns the child's wait status once
// the intermediate is gone (reparented to us, the subreaper).
int status_of_orphaned_sleep(const SpawnSpec& spec) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {
    try {
      ::close(pipe_fds[0]);
      ChildProcess kept = ChildProcess::spawn(spec);
      const pid_t pid = kept.pid();
      const std::string cmdline = "/proc/" + std::to_string(pid) + "/cmdline";
      for (int i = 0; i < 500 && read_text(cmdline).rfind("/bin/sleep", 0) != 0; ++i) ::usleep(10'000);
      [[maybe_unused]] auto n = ::write(pipe_fds[1], &pid, sizeof pid);
      ::kill(::getpid(), SIGKILL);
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(pipe_fds[1]);
  pid_t child = 0;
  REQUIRE(::read(pipe_fds[0], &child, sizeof child) == sizeof child);
  ::close(pipe_fds[0]);
  int status = 0;
  REQUIRE(::waitpid(parent, &status, 0) == parent);
  int child_status = 0;
  REQUIRE(::waitpid(child, &child_status, 0) == child);
  return child_status;
}

}  // namespace

// Every testbed child dies with a killed clerk unless told otherwise: NGINX
// and wrk left running after a SIGKILL held the port (issue 21, finding 7).
TEST_CASE("a child started with the default spec dies with its SIGKILLed parent", "[child_process]") {
  SubreaperScope reaper;
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "30"};
  spec.who = "clerk test";
  const int status = status_of_orphaned_sleep(spec);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(no_children());
}

// A server that stops its own children on SIGTERM (NGINX) asks for it.
TEST_CASE("a child gets the parent-death signal it asked for", "[child_process]") {
  SubreaperScope reaper;
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "30"};
  spec.who = "clerk test";
  spec.parent_death_signal = SIGTERM;
  const int status = status_of_orphaned_sleep(spec);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(no_children());
}

TEST_CASE("a child started with die_with_parent dies with its parent, even a SIGKILLed one", "[child_process]") {
  SubreaperScope reaper;  // the orphan comes to us, to be reaped and examined
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {
    // The parent: starts the child, says its pid, and dies without cleaning
    // up. Nothing may escape into Catch2 in this forked copy of the tests.
    try {
      ::close(pipe_fds[0]);
      ChildProcess kept = ChildProcess::spawn({{"/bin/sleep", "5"}, "", "", "clerk test", true});
      const pid_t pid = kept.pid();
      // Once the child runs sleep (not before: a child whose parent is already
      // gone exits 127 before exec), report it and die.
      const std::string cmdline = "/proc/" + std::to_string(pid) + "/cmdline";
      for (int i = 0; i < 500 && read_text(cmdline).rfind("/bin/sleep", 0) != 0; ++i) ::usleep(10'000);
      [[maybe_unused]] auto n = ::write(pipe_fds[1], &pid, sizeof pid);
      ::kill(::getpid(), SIGKILL);
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(pipe_fds[1]);
  pid_t child = 0;
  REQUIRE(::read(pipe_fds[0], &child, sizeof child) == sizeof child);
  ::close(pipe_fds[0]);
  int status = 0;
  REQUIRE(::waitpid(parent, &status, 0) == parent);
  // Reparented to us (the subreaper) and killed by the kernel, not after 5 s
  // of sleep.
  int child_status = 0;
  REQUIRE(::waitpid(child, &child_status, 0) == child);
  CHECK(WIFSIGNALED(child_status));
  CHECK(WTERMSIG(child_status) == SIGKILL);
  CHECK(no_children());
}
