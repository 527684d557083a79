// The server under test — NGINX or clerk-serve — started in the run's
// cgroup, ready once its port accepts and all its workers exist.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "common/child_process.h"

namespace testbed::realrun {

struct ServerLaunch {
  std::vector<std::string> argv;
  std::string output;      // its stdout/stderr
  std::string error_log;   // "" or another log to quote on failure (NGINX's error_log)
  std::uint32_t workers = 1;
  std::uint16_t port = 0;
  double ready_timeout_s = 15;
};

// NGINX in the foreground (daemon off in the config), prefix run_dir.
std::vector<std::string> nginx_argv(const std::string& binary, const std::string& run_dir, const std::string& conf);
// `nginx -t`; throws RealRunError with NGINX's complaint if the config fails.
void check_nginx_config(const std::string& binary, const std::string& run_dir, const std::string& conf);
// "nginx/1.22.1" from `nginx -v`.
std::string nginx_version(const std::string& binary, const std::string& run_dir);

struct ServeParams {
  std::string binary, data_dir, pid_file;
  std::uint16_t port = 0;
};
// clerk-serve's command line for the scenario (flags mirror NGINX's directives).
std::vector<std::string> serve_argv(const models::Scenario& scenario, const ServeParams& params);
// Scenario settings clerk-serve cannot honour.
std::vector<std::string> serve_notes(const models::Scenario& scenario);

// True when nothing listens on 127.0.0.1:port (a bind would succeed).
bool port_free(std::uint16_t port);
// True when 127.0.0.1:port accepts a connection.
bool port_accepts(std::uint16_t port);

class ServerProcess {
 public:
  // Throws RealRunError (with the server's output) when it exits or is not
  // ready in time; the child is stopped first.
  static ServerProcess start(const ServerLaunch& launch, const std::string& cgroup_procs);
  pid_t master() const { return child_.pid(); }
  const std::vector<pid_t>& workers() const { return workers_; }  // sorted
  bool running() { return !child_.poll(); }
  // SIGTERM (NGINX's fast shutdown, clerk-serve's stop), then SIGKILL to the
  // group after `grace_s`; returns once no process of it remains.
  void stop(double grace_s = 5);
  const common::ChildProcess& child() const { return child_; }

 private:
  common::ChildProcess child_;
  std::vector<pid_t> workers_;
};

}  // namespace testbed::realrun
