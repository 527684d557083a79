#include "master.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "listener.h"
#include "worker.h"

namespace clerk::serve {

namespace {

// How long the workers get to exit after SIGTERM before they are killed.
constexpr int kShutdownGraceSeconds = 10;

// The exit status by which a worker says "restarting me will not help"
// (its reuseport socket could not be opened).
constexpr int kWorkerFatal = 2;

void on_sigchld(int) {}  // a handler, so SIGCHLD is never discarded while blocked

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text << '\n';
  return static_cast<bool>(out.flush());
}

struct Master {
  const ServeOptions& options;
  int root_fd;
  int listen_fd;  // shared mode: the socket; reuseport: the port holder
  std::uint16_t port;
  sigset_t worker_mask{};  // the mask the master started with, for workers
  pid_t master_pid = ::getpid();
  std::vector<pid_t> workers{};
  std::vector<std::time_t> started{};  // per slot: a worker dying at once is not restarted

  pid_t spawn(std::size_t slot) {
    const pid_t pid = ::fork();
    if (pid != 0) {
      started[slot] = std::time(nullptr);
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
    std::exit(run_worker(options, fd, root_fd, worker_mask));
  }

  int live_workers() const {
    int live = 0;
    for (pid_t pid : workers) live += pid > 0;
    return live;
  }

  void signal_workers(int signal) {
    for (pid_t pid : workers)
      if (pid > 0) ::kill(pid, signal);
  }

  // Reaps exited workers; restarts them unless shutting down. Returns false
  // when a worker failed fatally.
  bool reap(bool shutting_down) {
    bool fine = true;
    int status;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      for (std::size_t i = 0; i < workers.size(); ++i) {
        pid_t& slot = workers[i];
        if (slot != pid) continue;
        slot = 0;
        if (shutting_down && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
        if (WIFSIGNALED(status))
          std::fprintf(stderr, "clerk-serve: worker %d killed by signal %d\n", pid, WTERMSIG(status));
        else
          std::fprintf(stderr, "clerk-serve: worker %d exited with status %d\n", pid, WEXITSTATUS(status));
        if (WIFEXITED(status) && WEXITSTATUS(status) == kWorkerFatal) fine = false;
        // Within a second of its start: restarting would only spin.
        const bool restart = fine && std::time(nullptr) - started[i] >= 1;
        if (!shutting_down && !restart && fine)
          std::fprintf(stderr, "clerk-serve: worker %d died at start, not restarting it\n", pid);
        if (!shutting_down && restart) {
          slot = spawn(i);
          if (slot < 0) slot = 0;
        }
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
  if (!options.port_file.empty() && !write_file(options.port_file, std::to_string(port))) {
    std::fprintf(stderr, "clerk-serve: cannot write %s\n", options.port_file.c_str());
    return 1;
  }
  if (!options.pid_file.empty() && !write_file(options.pid_file, std::to_string(::getpid()))) {
    std::fprintf(stderr, "clerk-serve: cannot write %s\n", options.pid_file.c_str());
    return 1;
  }
  const bool v6 = options.listen_host.find(':') != std::string::npos;
  std::fprintf(stderr,
               "clerk-serve: listening on %s%s%s:%u (%s), %d workers, aio %s%s, sendfile_max_chunk %zu, "
               "keepalive_requests %d\n",
               v6 ? "[" : "", options.listen_host.c_str(), v6 ? "]" : "", port, options.reuseport ? "reuseport" : "shared socket", options.workers,
               options.aio_threads ? "threads" : "off", options.aio_open ? " + aio_open" : "",
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

  master.workers.assign(static_cast<std::size_t>(options.workers), 0);
  master.started.assign(master.workers.size(), 0);
  for (std::size_t i = 0; i < master.workers.size(); ++i) {
    pid_t& slot = master.workers[i];
    slot = master.spawn(i);
    if (slot < 0) {
      std::fprintf(stderr, "clerk-serve: fork(): %s\n", std::strerror(errno));
      slot = 0;
    }
  }

  int exit_status = 0;
  bool shutting_down = false;
  std::time_t kill_at = 0;
  while (!shutting_down || master.live_workers() > 0) {
    const timespec tick{1, 0};
    siginfo_t info;
    const int signal = ::sigtimedwait(&waited, &info, &tick);
    if (signal == SIGTERM || signal == SIGINT) {
      if (!shutting_down) kill_at = std::time(nullptr) + kShutdownGraceSeconds;
      shutting_down = true;
      master.signal_workers(SIGTERM);
    }
    if (!master.reap(shutting_down) && !shutting_down) {
      std::fprintf(stderr, "clerk-serve: a worker failed fatally, shutting down\n");
      exit_status = 1;
      shutting_down = true;
      kill_at = std::time(nullptr) + kShutdownGraceSeconds;
      master.signal_workers(SIGTERM);
    }
    if (shutting_down && std::time(nullptr) >= kill_at) master.signal_workers(SIGKILL);
    if (!shutting_down && master.live_workers() == 0) {
      exit_status = 1;  // every fork failed
      break;
    }
  }
  if (!options.pid_file.empty()) ::unlink(options.pid_file.c_str());
  return exit_status;
}

}  // namespace clerk::serve
