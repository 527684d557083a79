#include "master.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "common/output_file.h"
#include "listener.h"
#include "worker.h"

namespace clerk::serve {

namespace {

// How long the workers get to exit after SIGTERM before they are killed.
constexpr int kShutdownGraceSeconds = 10;

void on_sigchld(int) {}  // a handler, so SIGCHLD is never discarded while blocked

// Whole or not at all (common/output_file.h): a reader polling for the
// port or pid file never sees it half-written. Says why not on stderr.
bool write_file(const std::string& path, const std::string& text) {
  try {
    common::write_file_atomically(path, text + '\n');
    return true;
  } catch (const common::OutputError& e) {
    std::fprintf(stderr, "clerk-serve: %s\n", e.what());
    return false;
  }
}

using Clock = std::chrono::steady_clock;

// A worker that dies is restarted after a delay that doubles with each
// death in a row (from kRestartFirstDelay up to kRestartMaxDelay), however
// soon it died: a request that kills workers slows the restarts down but
// never stops the server. A worker that ran kRestartStableTime counts as
// healthy again and resets its slot's delay.
constexpr auto kRestartFirstDelay = std::chrono::milliseconds(100);
constexpr auto kRestartMaxDelay = std::chrono::milliseconds(10000);
constexpr auto kRestartStableTime = std::chrono::seconds(30);

// One worker place: its process, or when it is dead, when to restart it.
struct WorkerSlot {
  pid_t pid = 0;
  Clock::time_point started{};
  int deaths_in_a_row = 0;
  bool restart_pending = false;
  Clock::time_point restart_at{};
};

Clock::duration restart_delay(int deaths_in_a_row) {
  Clock::duration delay = kRestartFirstDelay;
  for (int i = 1; i < deaths_in_a_row && delay < kRestartMaxDelay; ++i) delay *= 2;
  return std::min<Clock::duration>(delay, kRestartMaxDelay);
}

struct Master {
  const ServeOptions& options;
  int root_fd;
  int listen_fd;  // shared mode: the socket; reuseport: the port holder
  std::uint16_t port;
  sigset_t worker_mask{};  // the mask the master started with, for workers
  pid_t master_pid = ::getpid();
  std::vector<WorkerSlot> slots{};

  pid_t spawn(WorkerSlot& slot) {
    const pid_t pid = ::fork();
    if (pid != 0) {
      slot.started = Clock::now();
      return pid;
    }
    // A worker must not outlive the master (nginx relies on its own
    // channel; a prctl does it here), and must notice a master gone already.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != master_pid) std::_Exit(1);
    ::signal(SIGCHLD, SIG_DFL);
    int fd = listen_fd;
    if (options.reuseport) {
      ::close(listen_fd);
      try {
        fd = open_listener(options.listen_host, port, true, true).release();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "clerk-serve: worker: %s\n", e.what());
        std::exit(kWorkerFatal);
      }
    }
    std::exit(run_worker_guarded(fd));
  }

  // A worker's last line of defence: an exception escaping its loop ends
  // only this worker, with a message, and the master restarts it.
  int run_worker_guarded(int fd) {
    try {
      return run_worker(options, fd, root_fd, worker_mask);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "clerk-serve: worker %d: internal error: %s\n", ::getpid(), e.what());
    } catch (...) {
      std::fprintf(stderr, "clerk-serve: worker %d: internal error (unknown exception)\n", ::getpid());
    }
    return 3;
  }

  void start(WorkerSlot& slot) {
    slot.restart_pending = false;
    slot.pid = spawn(slot);
    if (slot.pid < 0) {
      std::fprintf(stderr, "clerk-serve: fork(): %s\n", std::strerror(errno));
      slot.pid = 0;
      schedule_restart(slot);
    }
  }

  void schedule_restart(WorkerSlot& slot) {
    if (Clock::now() - slot.started >= kRestartStableTime) slot.deaths_in_a_row = 0;
    ++slot.deaths_in_a_row;
    const auto delay = restart_delay(slot.deaths_in_a_row);
    slot.restart_pending = true;
    slot.restart_at = Clock::now() + delay;
    std::fprintf(stderr, "clerk-serve: restarting the worker in %lld ms\n",
                 static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(delay).count()));
  }

  // Starts the workers whose restart time has come.
  void restart_due() {
    const auto now = Clock::now();
    for (WorkerSlot& slot : slots)
      if (slot.restart_pending && slot.restart_at <= now) start(slot);
  }

  // How long the master may wait for a signal: until the next restart is
  // due, at most a second (the shutdown deadline is checked each turn).
  timespec wait_time() const {
    auto wait = Clock::duration(std::chrono::seconds(1));
    const auto now = Clock::now();
    for (const WorkerSlot& slot : slots)
      if (slot.restart_pending) wait = std::min(wait, std::max(Clock::duration::zero(), slot.restart_at - now));
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
    return timespec{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  }

  int live_workers() const {
    int live = 0;
    for (const WorkerSlot& slot : slots) live += slot.pid > 0;
    return live;
  }

  bool restarts_pending() const {
    for (const WorkerSlot& slot : slots)
      if (slot.restart_pending) return true;
    return false;
  }

  void signal_workers(int signal) {
    for (const WorkerSlot& slot : slots)
      if (slot.pid > 0) ::kill(slot.pid, signal);
  }

  void cancel_restarts() {
    for (WorkerSlot& slot : slots) slot.restart_pending = false;
  }

  // Reaps exited workers; schedules their restarts unless shutting down.
  // Returns false when a worker failed fatally.
  bool reap(bool shutting_down) {
    bool fine = true;
    int status;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      for (WorkerSlot& slot : slots) {
        if (slot.pid != pid) continue;
        slot.pid = 0;
        if (shutting_down && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
        if (WIFSIGNALED(status))
          std::fprintf(stderr, "clerk-serve: worker %d killed by signal %d\n", pid, WTERMSIG(status));
        else
          std::fprintf(stderr, "clerk-serve: worker %d exited with status %d\n", pid, WEXITSTATUS(status));
        if (WIFEXITED(status) && WEXITSTATUS(status) == kWorkerFatal) fine = false;
        if (!shutting_down && fine) schedule_restart(slot);
        break;
      }
    }
    return fine;
  }
};

}  // namespace

int run_master(const ServeOptions& options) {
  // Every write to a closed connection must come back as EPIPE, in every worker.
  ::signal(SIGPIPE, SIG_IGN);
  UniqueFd root(::open(options.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) {
    std::fprintf(stderr, "clerk-serve: cannot open root %s: %s\n", options.root.c_str(), std::strerror(errno));
    return 1;
  }
  // Both files checked before the port is bound: a server that cannot
  // write its pid file never says it listens.
  for (const std::string* out : {&options.port_file, &options.pid_file}) {
    if (out->empty()) continue;
    try {
      common::check_output_path(*out);
    } catch (const common::OutputError& e) {
      std::fprintf(stderr, "clerk-serve: %s\n", e.what());
      return 1;
    }
  }
  UniqueFd listen_fd;
  try {
    // reuseport: the master only holds the port (bound, not listening) so
    // that port 0 means one port for all workers and restarts.
    listen_fd = open_listener(options.listen_host, options.listen_port, options.reuseport, !options.reuseport);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clerk-serve: %s\n", e.what());
    return 1;
  }
  const std::uint16_t port = bound_port(listen_fd.get());
  if (!options.port_file.empty() && !write_file(options.port_file, std::to_string(port))) return 1;
  if (!options.pid_file.empty() && !write_file(options.pid_file, std::to_string(::getpid()))) {
    // A server that never started leaves nothing: a port file would tell
    // its reader that it listens. Only the regular file it wrote goes; a
    // FIFO or a device the port was written through is the user's.
    struct stat st{};
    if (!options.port_file.empty() && ::lstat(options.port_file.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      ::unlink(options.port_file.c_str());
    return 1;
  }
  const bool v6 = options.listen_host.find(':') != std::string::npos;
  std::fprintf(stderr,
               "clerk-serve: listening on %s%s%s:%u (%s), %d workers, aio %s%s, sendfile_max_chunk %zu, "
               "keepalive_requests %d\n",
               v6 ? "[" : "", options.listen_host.c_str(), v6 ? "]" : "", port, options.reuseport ? "reuseport" : "shared socket", options.workers,
               options.aio_uring ? "io_uring" : options.aio_nowait ? "nowait" : options.aio_threads ? "threads" : "off", options.aio_open ? " + aio_open" : "",
               options.sendfile_max_chunk, options.keepalive_requests);

  Master master{options, root.get(), listen_fd.get(), port};
  struct sigaction chld{};
  chld.sa_handler = on_sigchld;
  ::sigaction(SIGCHLD, &chld, nullptr);
  sigset_t waited;
  ::sigemptyset(&waited);
  ::sigaddset(&waited, SIGTERM);
  ::sigaddset(&waited, SIGINT);
  ::sigaddset(&waited, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &waited, &master.worker_mask);

  master.slots.assign(static_cast<std::size_t>(options.workers), WorkerSlot{});
  for (WorkerSlot& slot : master.slots) master.start(slot);

  int exit_status = 0;
  bool shutting_down = false;
  std::time_t kill_at = 0;
  while (!shutting_down || master.live_workers() > 0) {
    const timespec tick = master.wait_time();
    siginfo_t info;
    const int signal = ::sigtimedwait(&waited, &info, &tick);
    if (signal == SIGTERM || signal == SIGINT) {
      if (!shutting_down) kill_at = std::time(nullptr) + kShutdownGraceSeconds;
      shutting_down = true;
      master.cancel_restarts();
      master.signal_workers(SIGTERM);
    }
    if (!master.reap(shutting_down) && !shutting_down) {
      std::fprintf(stderr, "clerk-serve: a worker failed fatally, shutting down\n");
      exit_status = 1;
      shutting_down = true;
      kill_at = std::time(nullptr) + kShutdownGraceSeconds;
      master.cancel_restarts();
      master.signal_workers(SIGTERM);
    }
    if (!shutting_down) master.restart_due();
    if (shutting_down && std::time(nullptr) >= kill_at) master.signal_workers(SIGKILL);

  }
  if (!options.pid_file.empty()) ::unlink(options.pid_file.c_str());
  return exit_status;
}

}  // namespace clerk::serve
