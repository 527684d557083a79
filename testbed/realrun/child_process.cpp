#include "testbed/realrun/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {

void sleep_s(double s) {
  timespec t{static_cast<time_t>(s), static_cast<long>((s - static_cast<double>(static_cast<time_t>(s))) * 1e9)};
  ::nanosleep(&t, nullptr);
}

double now_s() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// In the child, before exec: only async-signal-safe calls from here on.
void enter_group_and_cgroup(int cgroup_fd) {
  ::setpgid(0, 0);
  if (cgroup_fd >= 0) {
    // "0" names the writing process itself, in v1 and v2.
    if (::write(cgroup_fd, "0\n", 2) != 2) {
      static const char msg[] = "clerk realrun: cannot join the cgroup\n";
      [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
      ::_exit(126);
    }
    ::close(cgroup_fd);
  }
}

int open_cgroup_procs(const std::string& path) {
  if (path.empty()) return -1;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw RealRunError(fmt::format("cannot open {}: {} (run as root)", path, std::strerror(errno)));
  return fd;
}

pid_t fork_registered() {
  const pid_t pid = ::fork();
  if (pid < 0) throw RealRunError(fmt::format("fork: {}", std::strerror(errno)));
  return pid;
}

// The parent's half: set the group too (whichever runs first wins, so the
// group exists before we ever signal it), then register it.
void adopt(pid_t pid) {
  ::setpgid(pid, pid);
  if (!register_group(pid)) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw RealRunError("too many child processes registered");
  }
}

}  // namespace

ChildProcess ChildProcess::spawn(const SpawnSpec& spec) {
  // Everything the child needs is built before fork: no allocation after it.
  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int cgroup_fd = open_cgroup_procs(spec.cgroup_procs);
  const std::string out = spec.output.empty() ? "/dev/null" : spec.output;
  const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0) {
    if (cgroup_fd >= 0) ::close(cgroup_fd);
    throw RealRunError(fmt::format("cannot create {}: {}", out, std::strerror(errno)));
  }
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t pid = -1;
  try {
    pid = fork_registered();
  } catch (...) {
    if (cgroup_fd >= 0) ::close(cgroup_fd);
    ::close(out_fd);
    ::close(null_fd);
    throw;
  }
  if (pid == 0) {
    enter_group_and_cgroup(cgroup_fd);
    ::dup2(null_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(out_fd, 2);
    // Restore default signal handling (clerk may ignore or catch some).
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT, SIGHUP}) ::sigaction(s, &dfl, nullptr);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execv(argv[0], argv.data());
    static const char msg[] = "clerk realrun: exec failed: ";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    const char* why = ::strerror(errno);  // not formally async-signal-safe; a static table in glibc
    n = ::write(2, why, ::strlen(why));
    n = ::write(2, "\n", 1);
    ::_exit(127);
  }
  if (cgroup_fd >= 0) ::close(cgroup_fd);
  ::close(out_fd);
  ::close(null_fd);
  adopt(pid);
  return ChildProcess(pid);
}

ChildProcess ChildProcess::run_in_child(const std::string& cgroup_procs, int (*body)(void*), void* arg) {
  const int cgroup_fd = open_cgroup_procs(cgroup_procs);
  pid_t pid = -1;
  try {
    pid = fork_registered();
  } catch (...) {
    if (cgroup_fd >= 0) ::close(cgroup_fd);
    throw;
  }
  if (pid == 0) {
    enter_group_and_cgroup(cgroup_fd);
    ::_exit(body(arg));
  }
  if (cgroup_fd >= 0) ::close(cgroup_fd);
  adopt(pid);
  return ChildProcess(pid);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_), exit_(other.exit_) {
  other.pid_ = -1;
  other.exit_.reset();
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    release();
    pid_ = other.pid_;
    exit_ = other.exit_;
    other.pid_ = -1;
    other.exit_.reset();
  }
  return *this;
}

ChildProcess::~ChildProcess() { release(); }

void ChildProcess::release() {
  if (pid_ <= 0) return;
  // Even when the leader has exited, its descendants may not have (NGINX
  // workers of a master that crashed): the whole group goes.
  stop(SIGKILL, 0);
  unregister_group(pid_);
  pid_ = -1;
}

const std::optional<ChildExit>& ChildProcess::poll() {
  if (pid_ > 0 && !exit_) {
    ChildExit e;
    const pid_t r = ::wait4(pid_, &e.status, WNOHANG, &e.usage);
    if (r == pid_) exit_ = e;
  }
  return exit_;
}

const std::optional<ChildExit>& ChildProcess::wait_for(double timeout_s) {
  const double end = now_s() + timeout_s;
  while (!poll() && now_s() < end) sleep_s(0.005);
  return exit_;
}

void ChildProcess::stop(int sig, double grace_s) {
  if (pid_ <= 0) return;
  if (!poll()) {
    ::kill(pid_, sig);
    if (!wait_for(grace_s)) {
      ::kill(-pid_, SIGKILL);
      ChildExit e;
      if (::wait4(pid_, &e.status, 0, &e.usage) == pid_) exit_ = e;
    }
  }
  // The leader is gone; its descendants (workers) may linger briefly.
  ::kill(-pid_, SIGKILL);
  wait_group_gone(pid_, 5.0);
}

bool wait_group_gone(pid_t pgid, double timeout_s) {
  const double end = now_s() + timeout_s;
  while (true) {
    // Members orphaned by their leader's death are reparented to us (run_real
    // makes this process a child subreaper: this machine's init does not
    // reap), so reap them here; a zombie still counts as a group member.
    while (::waitpid(-pgid, nullptr, WNOHANG) > 0) {
    }
    if (::kill(-pgid, 0) != 0 && errno == ESRCH) return true;
    if (now_s() >= end) return false;
    sleep_s(0.005);
  }
}

SubreaperScope::SubreaperScope() {
  ::prctl(PR_GET_CHILD_SUBREAPER, &previous_);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}
SubreaperScope::~SubreaperScope() { ::prctl(PR_SET_CHILD_SUBREAPER, previous_); }

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  return fmt::format("status {:#x}", status);
}

}  // namespace testbed::realrun

namespace testbed::realrun {

bool CommandResult::ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

CommandResult run_command(const std::vector<std::string>& argv, const std::string& output_file, double timeout_s) {
  ChildProcess child = ChildProcess::spawn({argv, "", output_file});
  CommandResult r;
  if (!child.wait_for(timeout_s)) {
    child.stop(SIGKILL, 0);
    r.status = child.exit() ? child.exit()->status : -1;
    r.output = fmt::format("(timed out after {} s)", timeout_s);
    return r;
  }
  r.status = child.exit()->status;
  std::FILE* f = std::fopen(output_file.c_str(), "r");
  if (f) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) r.output.append(buf, n);
    std::fclose(f);
  }
  return r;
}

}  // namespace testbed::realrun
