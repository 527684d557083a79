#include "testbed/realrun/server_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/text_file.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/nginx_conf.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {
namespace {

// The last lines of a log, for an error message.
std::string tail(const std::string& text, std::size_t lines = 15) {
  std::size_t start = text.size();
  // Skip a final newline, then step back over `lines` line starts.
  std::size_t pos = text.size() > 0 && text.back() == '\n' ? text.size() - 1 : text.size();
  while (lines-- > 0) {
    const std::size_t nl = pos == 0 ? std::string::npos : text.rfind('\n', pos - 1);
    if (nl == std::string::npos) return text;
    start = nl + 1;
    pos = nl;
  }
  return text.substr(start);
}

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

}  // namespace

std::vector<std::string> nginx_argv(const std::string& binary, const std::string& run_dir, const std::string& conf) {
  // -p: Debian's nginx-light otherwise resolves relative paths in
  // /usr/share/nginx; -e: its compiled-in error log is stderr until the
  // config is read — keep early errors in run_dir too.
  return {binary, "-p", run_dir + "/", "-e", run_dir + "/error.log", "-c", conf};
}

void check_nginx_config(const std::string& binary, const std::string& run_dir, const std::string& conf) {
  auto argv = nginx_argv(binary, run_dir, conf);
  argv.insert(argv.begin() + 1, "-t");
  const common::CommandResult r = common::run_command({argv, "", run_dir + "/nginx-t.out", kChildName}, 30);
  if (!r.ok())
    throw RealRunError(fmt::format("nginx -t rejected the generated configuration {}:\n{}{}", conf, r.output,
                                   tail(common::read_text(run_dir + "/error.log"))));
}

std::string nginx_version(const std::string& binary, const std::string& run_dir) {
  const common::CommandResult r = common::run_command({{binary, "-v"}, "", run_dir + "/nginx-v.out", kChildName}, 10);
  std::string v = r.output;
  const std::size_t at = v.find("nginx/");
  if (at != std::string::npos) v = v.substr(at);
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  return v;
}

std::vector<std::string> serve_argv(const models::Scenario& scenario, const ServeParams& p) {
  const models::NginxConfig& n = scenario.nginx;
  // clerk-serve's modes have the scenario's names; aio_nowait is its --aio nowait.
  const std::string aio = n.aio_nowait ? "nowait" : n.aio->name;
  std::vector<std::string> argv{
      p.binary,
      "--root", p.data_dir,
      "--listen", fmt::format("127.0.0.1:{}", p.port),
      "--workers", std::to_string(n.worker_processes),
      "--worker-connections", std::to_string(worker_connections(scenario)),  // as nginx.conf's
      "--reuseport", n.accept->reuseport ? "on" : "off",
      "--sendfile-max-chunk", std::to_string(n.sendfile_max_chunk),
      "--aio", aio,
      // clerk-serve refuses aio_open without aio threads (the open runs in the pool).
      "--aio-open", n.aio_open && n.aio->thread_pool ? "on" : "off",
      "--threads", std::to_string(n.thread_pool.threads),
      "--max-queue", std::to_string(n.thread_pool.max_queue),
      "--uring-entries", std::to_string(n.io_uring.entries),  // [nginx.io_uring]
      "--uring-max-workers", std::to_string(n.io_uring.max_workers),
      "--keepalive-requests", std::to_string(n.keepalive_requests),
      "--keepalive-timeout", "75",  // as the nginx.conf we write
      "--pid-file", p.pid_file};
  // nginx.open_file_cache and its companions, in whole seconds as NGINX
  // reads them (and as nginx_conf.cpp writes them).
  const models::OpenFileCacheSpec& o = n.open_file_cache;
  if (o.enabled) {
    const std::vector<std::string> cache{"--open-file-cache", std::to_string(o.max),
                                         "--open-file-cache-inactive", std::to_string(std::llround(o.inactive_s)),
                                         "--open-file-cache-valid", std::to_string(std::llround(o.valid_s)),
                                         "--open-file-cache-min-uses", std::to_string(o.min_uses),
                                         "--open-file-cache-errors", o.errors ? "on" : "off"};
    argv.insert(argv.end(), cache.begin(), cache.end());
  }
  return argv;
}

std::vector<std::string> serve_notes(const models::Scenario& scenario) {
  const models::NginxConfig& n = scenario.nginx;
  std::vector<std::string> notes;
  if (n.aio_open && !n.aio->thread_pool)
    notes.push_back("nginx.aio_open without aio threads: clerk-serve runs with --aio-open off");
  if (n.accept->accept_mutex)
    notes.push_back("clerk-serve has no accept mutex: its workers share one listening socket (accept_mutex off)");
  if (!n.sendfile) notes.push_back("sendfile off is not reproduced: clerk-serve always uses sendfile()");
  if (n.cache_fill_rate > 0) notes.push_back("nginx.cache_fill_rate is not reproduced by clerk-serve");
  if (n.directio) notes.push_back("nginx.directio is not reproduced: clerk-serve reads every file with sendfile()");
  if (!n.more_thread_pools.empty() || n.split_clients.enabled())
    notes.push_back("several thread pools and split_clients are not reproduced: clerk-serve runs one pool of "
                    "thread_pool.threads threads");
  return notes;
}

bool port_free(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  // As NGINX's listening sockets: connections of a previous run in
  // TIME_WAIT must not make the port look busy; a listener still does.
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  const sockaddr_in a = loopback(port);
  const bool ok = ::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0 && ::listen(fd, 1) == 0;
  ::close(fd);
  return ok;
}

bool port_accepts(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in a = loopback(port);
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

ServerProcess ServerProcess::start(const ServerLaunch& launch, const std::string& cgroup_procs) {
  ServerProcess s;
  common::SpawnSpec spec{launch.argv, cgroup_procs, launch.output, kChildName};
  // When clerk dies, NGINX's master gets SIGTERM and stops its workers (a
  // SIGKILLed master would leave them serving the port); clerk-serve's
  // workers have their own parent-death signal.
  spec.parent_death_signal = SIGTERM;
  s.child_ = common::ChildProcess::spawn(spec);
  auto failure = [&](const std::string& what) {
    s.child_.stop(SIGKILL, 0);
    std::string logs = tail(common::read_text(launch.output));
    if (!launch.error_log.empty()) logs += tail(common::read_text(launch.error_log));
    return RealRunError(fmt::format("{} {}{}", launch.argv[0], what, logs.empty() ? "" : ":\n" + logs));
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(launch.ready_timeout_s);
  bool listening = false;
  while (true) {
    if (stop_requested()) throw failure("stopped");
    if (const auto& e = s.child_.poll()) throw failure(common::describe_status(e->status));
    if (!listening) listening = port_accepts(launch.port);
    if (listening) {
      s.workers_ = common::children_of(s.child_.pid());
      if (s.workers_.size() >= launch.workers) break;
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw failure(listening ? fmt::format("started {} of {} workers in {} s", s.workers_.size(), launch.workers,
                                            launch.ready_timeout_s)
                              : fmt::format("does not accept on 127.0.0.1:{} after {} s", launch.port,
                                            launch.ready_timeout_s));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (s.workers_.size() > launch.workers)
    throw failure(fmt::format("has {} child processes, {} workers expected (a cache manager?)", s.workers_.size(),
                              launch.workers));
  return s;
}

void ServerProcess::stop(double grace_s) { child_.stop(SIGTERM, grace_s); }

}  // namespace testbed::realrun
