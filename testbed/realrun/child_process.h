// Starting and stopping the processes of a run. Each child leads its own
// process group (so a terminal's SIGINT reaches only clerk, and killing the
// group reaches every descendant), joins the run's cgroup before exec (so
// everything it and its children touch is charged there from the start),
// and is registered for stop_all_real_runs().
//
// Hand-written rather than Boost.Process (1.74): between fork and exec we
// need setpgid and a write to cgroup.procs using only async-signal-safe
// calls, wait4() for the child's rusage, and group-wide kills; Boost.Process
// allocates in its exec-setup hooks and knows no process groups.
#pragma once
#include <sys/resource.h>
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace testbed::realrun {

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0]: the program's path
  std::string cgroup_procs;       // "": stay in our cgroup; else the cgroup.procs file to join
  std::string output;             // stdout and stderr go to this file ("": /dev/null)
};

struct ChildExit {
  int status = 0;  // as from waitpid
  rusage usage{};  // its user and system time, all threads
};

class ChildProcess {
 public:
  ChildProcess() = default;
  // Forks, and in the child: new process group, join the cgroup, redirect,
  // exec. Throws RealRunError when fork fails; an exec failure shows as
  // exit status 127 with the reason in `output`.
  static ChildProcess spawn(const SpawnSpec& spec);
  // Forks a child that joins the cgroup (if any) and runs `body`, which
  // must only make async-signal-safe calls (we may have threads), then
  // _exit()s with body's return value.
  static ChildProcess run_in_child(const std::string& cgroup_procs, int (*body)(void*), void* arg);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills the group and reaps, if still running.
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !exit_; }
  // Reaps without blocking: the exit once it happened.
  const std::optional<ChildExit>& poll();
  // Waits up to `timeout_s` for the exit.
  const std::optional<ChildExit>& wait_for(double timeout_s);
  // `sig` to the leader; after `grace_s`, SIGKILL to the whole group; reaps
  // the leader and waits until no process of the group remains.
  void stop(int sig, double grace_s);
  const std::optional<ChildExit>& exit() const { return exit_; }

 private:
  explicit ChildProcess(pid_t pid) : pid_(pid) {}
  void release();
  pid_t pid_ = -1;
  std::optional<ChildExit> exit_;
};

// Makes this process a child subreaper for its lifetime (then restores the
// previous setting): orphaned descendants — NGINX workers whose master was
// killed — become our children and we reap them, instead of leaving them to
// an init that may not reap (this VM's does not).
class SubreaperScope {
 public:
  SubreaperScope();
  ~SubreaperScope();
  SubreaperScope(const SubreaperScope&) = delete;
  SubreaperScope& operator=(const SubreaperScope&) = delete;

 private:
  int previous_ = 0;
};

// "exited with status 1", "killed by signal 9 (Killed)".
std::string describe_status(int status);
// Waits until no process of group `pgid` remains, reaping those reparented
// to us (see SubreaperScope); false after `timeout_s`.
bool wait_group_gone(pid_t pgid, double timeout_s);

}  // namespace testbed::realrun

namespace testbed::realrun {
// Runs a command to completion (killed after `timeout_s`), its stdout and
// stderr into `output_file`; returns the status and that text.
struct CommandResult {
  int status = 0;
  std::string output;
  bool ok() const;
};
CommandResult run_command(const std::vector<std::string>& argv, const std::string& output_file, double timeout_s);
}  // namespace testbed::realrun
