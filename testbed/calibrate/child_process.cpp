#include "testbed/calibrate/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace testbed::calibrate {

namespace {
// Live child groups, for the signal handler: a fixed array of atomics, since
// the handler may only touch lock-free state.
constexpr std::size_t kSlots = 16;
std::array<std::atomic<pid_t>, kSlots> g_groups{};
std::atomic<bool> g_interrupted{false};

void on_signal(int) {
  g_interrupted.store(true);
  for (auto& g : g_groups) {
    const pid_t p = g.load();
    if (p > 0) kill(-p, SIGKILL);
  }
}

void remember(pid_t p) {
  for (auto& g : g_groups) {
    pid_t expected = 0;
    if (g.compare_exchange_strong(expected, p)) return;
  }
}
void forget(pid_t p) {
  for (auto& g : g_groups) {
    pid_t expected = p;
    if (g.compare_exchange_strong(expected, 0)) return;
  }
}
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &sa, nullptr);
}
bool interrupted() { return g_interrupted.load(); }
void throw_if_interrupted() {
  if (interrupted()) throw Interrupted{};
}

bool ExitInfo::ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& output_file) {
  throw_if_interrupted();
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const char* out = output_file.empty() ? "/dev/null" : output_file.c_str();
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    setpgid(0, 0);
    // If clerk dies without cleaning up (SIGKILL), the child goes too.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    const int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    const int in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, 0);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid_, pid_);  // also from here, so the group exists before we could signal it
  remember(pid_);
}

ChildProcess::~ChildProcess() {
  if (running()) stop(1.0);
}

ExitInfo ChildProcess::wait() {
  ExitInfo info;
  if (!running()) return info;
  struct rusage ru {};
  pid_t r;
  do {
    r = wait4(pid_, &info.status, 0, &ru);
  } while (r < 0 && errno == EINTR);
  forget(pid_);
  kill(-pid_, SIGKILL);  // anything the child left in its group
  pid_ = -1;
  info.cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  return info;
}

void ChildProcess::stop(double grace_s) {
  if (!running()) return;
  kill(-pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      kill(-pid_, SIGKILL);  // workers that outlived their master
      forget(pid_);
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  forget(pid_);
  pid_ = -1;
}

std::string run_and_capture(const std::vector<std::string>& argv, ExitInfo* info) {
  char name[] = "/tmp/clerk-calibrate-out-XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  ExitInfo e;
  {
    ChildProcess child(argv, name);
    e = child.wait();
  }
  std::ifstream in(name);
  std::stringstream ss;
  ss << in.rdbuf();
  std::remove(name);
  throw_if_interrupted();
  if (info) *info = e;
  if (!e.ok()) {
    std::string text = ss.str();
    if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
    throw std::runtime_error(argv[0] + " failed (status " + std::to_string(e.status) + "): " + text);
  }
  return ss.str();
}

}  // namespace testbed::calibrate
