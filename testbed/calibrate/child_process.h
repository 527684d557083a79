// Child processes that calibrate starts (nginx, wrk, fio) and must not leave
// behind: each runs in its own process group, so that nginx's workers go with
// their master, and every live group is killed if clerk is interrupted.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace testbed::calibrate {

// Thrown when SIGINT/SIGTERM/SIGHUP arrived: the caller unwinds, and every
// destructor on the way removes what it made.
struct Interrupted {};

// Installs the handlers (once): on a signal, every live child group gets
// SIGKILL and interrupted() becomes true.
void install_interrupt_handlers();
bool interrupted();
void throw_if_interrupted();

struct ExitInfo {
  int status = 0;           // as from waitpid
  double cpu_s = 0;         // the child's user + system time (all its threads)
  bool ok() const;          // exited with status 0
};

class ChildProcess {
 public:
  // Starts argv[0] (a full path) with its stdout and stderr sent to `output_file`
  // (or to /dev/null when empty).
  ChildProcess(const std::vector<std::string>& argv, const std::string& output_file = {});
  ~ChildProcess();  // kills the group if still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0; }
  // Waits for the exit, with the child's own CPU time (wait4's rusage).
  ExitInfo wait();
  // SIGTERM to the group, then SIGKILL after `grace_s`; reaps the child.
  void stop(double grace_s = 3.0);

 private:
  pid_t pid_ = -1;
};

// Runs a command to completion and returns its stdout+stderr; throws on
// failure, with the output's end in the message.
std::string run_and_capture(const std::vector<std::string>& argv, ExitInfo* info = nullptr);

}  // namespace testbed::calibrate
