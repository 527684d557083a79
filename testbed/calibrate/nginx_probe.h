// Debian's NGINX with one worker per CPU, serving a temporary document root on
// loopback: the server whose CPU time per request, per byte and per
// connection calibrate measures.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/child_process.h"

namespace testbed::calibrate {

// What a probe changes from the minimal configuration.
struct NginxOptions {
  bool aio_threads = false;               // `aio threads;`: sendfile() in the default pool (32 threads)
  std::uint64_t sendfile_max_chunk = 0;   // 0: NGINX's default (2m since 1.21.4)
};

// The minimal configuration (exposed for tests): `workers` workers, no logs,
// sendfile on, keep-alive without a request limit, listening on 127.0.0.1:port.
std::string nginx_config(const std::string& prefix, const std::string& root, int port, int workers = 1,
                         const NginxOptions& options = {});

class NginxProbe {
 public:
  // Starts nginx under `prefix` (a directory it owns) serving `root`; waits
  // until it accepts connections and its worker is known.
  NginxProbe(const std::string& prefix, const std::string& root, int workers = 1, const NginxOptions& options = {});
  ~NginxProbe();  // stops master and workers
  int port() const { return port_; }
  const std::vector<pid_t>& workers() const { return workers_; }
  std::string url(const std::string& path) const;

 private:
  int port_ = 0;
  std::vector<pid_t> workers_;
  common::ChildProcess master_;
};

// A free TCP port on 127.0.0.1 (bound and released).
int free_loopback_port();

}  // namespace testbed::calibrate
