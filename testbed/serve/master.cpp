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

void on_sigchld(int) {}

// The signals that stop the server. nginx: TERM and INT stop at once, QUIT
// gracefully; HUP reloads the configuration, which clerk-serve, configured
// by its command line, cannot: a closed terminal's HUP stops it.
bool is_stop_signal(int signal) {
  return signal == SIGTERM || signal == SIGINT || signal == SIGQUIT || signal == SIGHUP;
}  // a handler, so SIGCHLD is never discarded while blocked

// A file the server writes (its port or pid file): whole or not at all
// (common/output_file.h), so a reader polling for it never sees it
// half-written, and removed when the server ends only while it is still the
// regular file written: never a FIFO or a device the text went through
// (/dev/stdout, /dev/null), nor a file put in its place since.
class WrittenFile {
 public:
  explicit WrittenFile(const std::string& path) : path_(path) {}
  WrittenFile(const WrittenFile&) = delete;
  WrittenFile& operator=(const WrittenFile&) = delete;

  // Says why not on stderr. A path of "" is nothing to write.
  bool write(const std::string& text) {
    if (path_.empty()) return true;
    try {
      common::write_file_atomically(path_, text + '\n');
    } catch (const common::OutputError& e) {
      std::fprintf(stderr, "clerk-serve: %s\n", e.what());
      return false;
    }
    struct stat st{};
    ours_ = ::lstat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    device_ = st.st_dev;
    inode_ = st.st_ino;
    text_ = text + '\n';
    return true;
  }

  // An inode's number is reused once freed: the text must match too.
  void remove() {
    if (ours_ && still_ours()) ::unlink(path_.c_str());
    ours_ = false;
  }

 private:
  bool still_ours() const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st{};
    char read_back[64];
    const bool same_file = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == device_ && st.st_ino == inode_;
    const ssize_t n = same_file ? ::read(fd, read_back, sizeof read_back) : -1;
    ::close(fd);
    return n >= 0 && std::string(read_back, static_cast<std::size_t>(n)) == text_;
  }

  std::string path_;
  std::string text_;
  bool ours_ = false;
  dev_t device_ = 0;
  ino_t inode_ = 0;
};

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
  // A server that never started, or has stopped, leaves neither file: a
  // port file would tell its reader that something listens.
  WrittenFile port_file(options.port_file), pid_file(options.pid_file);
  if (!port_file.write(std::to_string(port))) return 1;
  if (!pid_file.write(std::to_string(::getpid()))) {
    port_file.remove();
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
  // SIGALRM and SIGIO, whose default is to end the process (leaving the pid
  // and port files; probe 8, M6), are taken and ignored: nginx's master
  // handles both (src/os/unix/ngx_process.c, ngx_signal_handler: they set
  // ngx_sigalrm and ngx_sigio, which its loop reads only while it shuts
  // down, timing its own alarm), so a stray one stops nothing there either.
  for (int signal : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGIO, SIGCHLD}) ::sigaddset(&waited, signal);
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
    if (signal == SIGUSR1 || signal == SIGUSR2)
      std::fprintf(stderr, "clerk-serve: %s ignored (nginx reopens its logs or upgrades its binary; clerk-serve has "
                   "neither)\n", signal == SIGUSR1 ? "SIGUSR1" : "SIGUSR2");
    if (signal == SIGALRM || signal == SIGIO)
      std::fprintf(stderr, "clerk-serve: %s ignored (nginx's master takes it and stops for none)\n",
                   signal == SIGALRM ? "SIGALRM" : "SIGIO");
    if (is_stop_signal(signal)) {
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
  pid_file.remove();
  port_file.remove();
  return exit_status;
}

}  // namespace clerk::serve
