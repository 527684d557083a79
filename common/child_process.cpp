#include "common/child_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <initializer_list>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <sstream>

#include "common/text_file.h"

namespace common {
namespace {

// The live children's groups (each leader's pid). Lock-free atomics only: a
// signal handler may interrupt a register call.
static_assert(std::atomic<pid_t>::is_always_lock_free);
constexpr std::size_t kSlots = 256;  // a real run: a server, a wrk per group, a preload reader
std::array<std::atomic<pid_t>, kSlots> g_groups{};

bool register_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pgid)) return true;
  }
  return false;
}

void unregister_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void sleep_s(double s) {
  timespec t{static_cast<time_t>(s), static_cast<long>((s - static_cast<double>(static_cast<time_t>(s))) * 1e9)};
  ::nanosleep(&t, nullptr);
}

double now_s() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void write_all(const std::string& text) { [[maybe_unused]] auto n = ::write(2, text.data(), text.size()); }

// What the child needs before exec, all made before fork: after it, only
// async-signal-safe calls.
struct ChildSetup {
  int cgroup_fd = -1;
  std::string cgroup_error;  // "<who>: cannot join the cgroup\n"
  bool die_with_parent = false;
  int death_signal = SIGKILL;
  pid_t parent = 0;
};

ChildSetup prepare(const SpawnSpec& spec) {
  ChildSetup s;
  s.cgroup_error = spec.who + ": cannot join the cgroup\n";
  s.die_with_parent = spec.die_with_parent;
  s.death_signal = spec.parent_death_signal;
  s.parent = ::getpid();
  if (!spec.cgroup_procs.empty()) {
    s.cgroup_fd = ::open(spec.cgroup_procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (s.cgroup_fd < 0)
      throw ProcessError(fmt::format("cannot open {}: {} (run as root)", spec.cgroup_procs, std::strerror(errno)));
  }
  return s;
}

// In the child: its own group, then the cgroup.
void enter_group_and_cgroup(const ChildSetup& s) {
  ::setpgid(0, 0);
  if (s.die_with_parent) {
    ::prctl(PR_SET_PDEATHSIG, s.death_signal);
    if (::getppid() != s.parent) ::_exit(127);  // the parent died before prctl
  }
  if (s.cgroup_fd >= 0) {
    // "0" names the writing process itself, in v1 and v2.
    if (::write(s.cgroup_fd, "0\n", 2) != 2) {
      write_all(s.cgroup_error);
      ::_exit(126);
    }
    ::close(s.cgroup_fd);
  }
}

// Signals wait from before fork() until the child is registered (in the
// parent: a signal before that could not kill it) and has default handlers
// (in the child: clerk's handler would kill the other children's groups).
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t all;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &saved_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
  const sigset_t& saved() const { return saved_; }

 private:
  sigset_t saved_;
};

// In the child: default handling for what clerk catches or ignores, then
// the mask the child should run with.
void default_signals(const sigset_t& mask) {
  struct sigaction dfl{};
  dfl.sa_handler = SIG_DFL;
  for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT, SIGHUP}) ::sigaction(s, &dfl, nullptr);
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
}

pid_t fork_or_throw() {
  const pid_t pid = ::fork();
  if (pid < 0) throw ProcessError(fmt::format("fork: {}", std::strerror(errno)));
  return pid;
}

// The parent's half: set the group too (whichever runs first wins, so the
// group exists before we ever signal it), then register it.
void adopt(pid_t pid) {
  ::setpgid(pid, pid);
  if (!register_group(pid)) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw ProcessError("too many child processes registered");
  }
}

void close_if_open(int fd) {
  if (fd >= 0) ::close(fd);
}

void close_all(std::initializer_list<int> fds) {
  for (const int fd : fds) close_if_open(fd);
}

// fork_or_throw, closing the descriptors meant for the child when it fails.
pid_t fork_or_close(std::initializer_list<int> fds) {
  try {
    return fork_or_throw();
  } catch (...) {
    close_all(fds);
    throw;
  }
}

// In the child: "<what><errno's text>" on stderr, and exit status 127.
[[noreturn]] void exit_saying(const std::string& what) {
  write_all(what);
  const char* why = ::strerror(errno);  // not formally async-signal-safe; a static table in glibc
  [[maybe_unused]] auto n = ::write(2, why, ::strlen(why));
  n = ::write(2, "\n", 1);
  ::_exit(127);
}

}  // namespace

bool ChildExit::ok() const { return !lost && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

double ChildExit::cpu_s() const {
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

ChildProcess ChildProcess::spawn(const SpawnSpec& spec) {
  // Everything the child needs is built before fork: no allocation after it.
  std::vector<char*> argv;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string exec_error = spec.who + ": exec failed: ";
  const std::string cwd_error = spec.who + ": cannot enter " + spec.cwd + ": ";
  const ChildSetup setup = prepare(spec);
  const std::string out = spec.output.empty() ? "/dev/null" : spec.output;
  const int out_fd = spec.keep_output ? -1 : ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0 && !spec.keep_output) {
    close_if_open(setup.cgroup_fd);
    throw ProcessError(fmt::format("cannot create {}: {}", out, std::strerror(errno)));
  }
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  sigset_t none;
  ::sigemptyset(&none);
  const SignalsHeld held;
  const pid_t pid = fork_or_close({setup.cgroup_fd, out_fd, null_fd});
  if (pid == 0) {
    enter_group_and_cgroup(setup);
    ::dup2(null_fd, 0);
    if (out_fd >= 0) {
      ::dup2(out_fd, 1);
      ::dup2(out_fd, 2);
    }
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) exit_saying(cwd_error);
    default_signals(none);  // a program starts with nothing blocked
    ::execv(argv[0], argv.data());
    exit_saying(exec_error);
  }
  close_all({setup.cgroup_fd, out_fd, null_fd});
  adopt(pid);
  return ChildProcess(pid);
}

ChildProcess ChildProcess::run_in_child(const SpawnSpec& spec, int (*body)(void*), void* arg) {
  const ChildSetup setup = prepare(spec);
  const SignalsHeld held;
  const pid_t pid = fork_or_close({setup.cgroup_fd});
  if (pid == 0) {
    enter_group_and_cgroup(setup);
    default_signals(held.saved());
    ::_exit(body(arg));
  }
  close_if_open(setup.cgroup_fd);
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
    if (r == pid_) {
      exit_ = e;
    } else if (r < 0 && errno == ECHILD) {
      // Already reaped (wait_group_gone's waitpid on the group): it is gone,
      // and waiting for it again would never end.
      e.lost = true;
      exit_ = e;
    }
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
      pid_t r;
      do {
        r = ::wait4(pid_, &e.status, 0, &e.usage);
      } while (r < 0 && errno == EINTR);  // a signal (a second Ctrl-C) is no reason to stop waiting
      if (r == pid_) exit_ = e;
      else poll();  // reaped elsewhere: recorded as lost
    }
  }
  // The leader is gone; its descendants (workers) may linger briefly.
  ::kill(-pid_, SIGKILL);
  wait_group_gone(pid_, 5.0);
}

void kill_all_child_groups() {
  for (auto& slot : g_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
}

bool wait_group_gone(pid_t pgid, double timeout_s) {
  const double end = now_s() + timeout_s;
  while (true) {
    // Members orphaned by their leader's death are reparented to us (when
    // this process is a child subreaper: this machine's init does not reap),
    // so reap them here; a zombie still counts as a group member.
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

std::string find_program(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return {};
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  return fmt::format("status {:#x}", status);
}

std::vector<pid_t> children_of(pid_t pid) {
  // Each thread has its own children file (a child belongs to the thread
  // that forked it); read them all.
  std::set<pid_t> out;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR* d = ::opendir(tasks.c_str());
  if (!d) return {};
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::istringstream in(read_text(tasks + "/" + e->d_name + "/children"));
    pid_t child = 0;
    while (in >> child) out.insert(child);
  }
  ::closedir(d);
  return {out.begin(), out.end()};
}

bool CommandResult::ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

CommandResult run_command(const SpawnSpec& spec, double timeout_s) {
  ChildProcess child = ChildProcess::spawn(spec);
  CommandResult r;
  if (!child.wait_for(timeout_s)) {
    child.stop(SIGKILL, 0);
    r.status = child.exit() ? child.exit()->status : -1;
    r.output = fmt::format("(timed out after {} s)", timeout_s);
    return r;
  }
  r.status = child.exit()->status;
  r.cpu_s = child.exit()->cpu_s();
  if (!spec.output.empty()) r.output = read_text(spec.output);
  return r;
}

}  // namespace common
