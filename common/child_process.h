// Child processes, the one way clerk starts them (`clerk realrun`'s servers
// and wrk, `clerk calibrate`'s tools, `clerk plot`'s gnuplot, a SimGrid run
// in a process of its own, the benchmark's memory probe): each child leads its own process group (so a terminal's SIGINT
// reaches only clerk, and killing the group reaches every descendant: NGINX's
// workers go with their master), may join a cgroup before exec (so everything
// it and its children touch is charged there from the start), and is recorded
// in a fixed array of atomics so that kill_all_child_groups() can kill every
// live group from a signal handler.
//
// Hand-written rather than Boost.Process (1.74): between fork and exec we
// need setpgid and a write to cgroup.procs using only async-signal-safe
// calls, wait4() for the child's rusage, and group-wide kills; Boost.Process
// allocates in its exec-setup hooks and knows no process groups.
#pragma once
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace common {

// A child could not be started (fork failed, the cgroup or the output file
// cannot be opened, too many children). The commands turn it into their own
// error (realrun: RealRunError) or report it as it is.
struct ProcessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SpawnSpec {
  std::vector<std::string> argv;  // argv[0]: the program's path
  std::string cgroup_procs;       // "": stay in our cgroup; else the cgroup.procs file to join
  std::string output;             // stdout and stderr go to this file ("": /dev/null)
  std::string who = "clerk";      // names us in the child's own error lines ("<who>: exec failed: ...")
  // SIGKILL when clerk dies, even by SIGKILL (PR_SET_PDEATHSIG, set after
  // fork; a child whose parent is already gone exits 127 before exec). On
  // by default: no testbed child may outlive a killed clerk (issue 21).
  bool die_with_parent = true;
  // The signal the child gets then. A server that must take its own
  // children along (NGINX's master stops its workers on SIGTERM; a SIGKILLed
  // master leaves them running, holding the port) asks for SIGTERM.
  int parent_death_signal = SIGKILL;
  bool keep_output = false;  // stdout and stderr stay ours (`output` unused)
  std::string cwd{};         // the folder the program starts in ("": ours)
};

struct ChildExit {
  int status = 0;  // as from waitpid
  rusage usage{};  // its user and system time, all threads
  // Reaped by another wait (a group-wide waitpid): status and usage unknown.
  bool lost = false;
  bool ok() const;  // exited with status 0
  double cpu_s() const;  // user + system seconds
};

class ChildProcess {
 public:
  ChildProcess() = default;
  // Forks, and in the child: new process group, join the cgroup, redirect
  // (stdin from /dev/null), default signal handling, exec. Throws
  // ProcessError when it cannot; an exec failure shows as exit status 127
  // with the reason in `output`.
  static ChildProcess spawn(const SpawnSpec& spec);
  // Forks a child that joins the cgroup (if any) and runs `body`, then
  // _exit()s with body's return value. In a process with other threads,
  // `body` must only make async-signal-safe calls (POSIX: after fork, only
  // the forking thread exists, and a lock another held stays held); a
  // single-threaded process (a SimGrid run, the benchmark's memory probe)
  // may do anything. `spec.argv`, `output` and `cwd` are unused.
  static ChildProcess run_in_child(const SpawnSpec& spec, int (*body)(void*), void* arg);

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
  // Waits up to `timeout_s` (may be infinite) for the exit.
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

// SIGKILL to the group of every live ChildProcess. Async-signal-safe (kill()
// over a fixed array of atomics): for SIGINT handlers. It does not reap; each
// ChildProcess's owner does.
void kill_all_child_groups();

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

// The program execv would run for `name`: `name` itself when it holds a
// '/', else the first executable file of that name in $PATH (as execvp
// searches, but before fork: execvp may allocate); "" when there is none.
std::string find_program(const std::string& name);

// "exited with status 1", "killed by signal 9 (Killed)".
std::string describe_status(int status);
// Waits until no process of group `pgid` remains, reaping those reparented
// to us (see SubreaperScope); false after `timeout_s`.
bool wait_group_gone(pid_t pgid, double timeout_s);
// Pids of `pid`'s children (every thread's children file), sorted.
std::vector<pid_t> children_of(pid_t pid);

// Runs a command to completion (its group killed after `timeout_s`, which
// may be infinite), its stdout and stderr into `spec.output`; returns the
// status, the child's CPU time and that text.
struct CommandResult {
  int status = 0;
  double cpu_s = 0;
  std::string output;
  bool ok() const;
};
CommandResult run_command(const SpawnSpec& spec, double timeout_s);

}  // namespace common
