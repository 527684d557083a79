// Debian's NGINX with one worker, serving a temporary document root on
// loopback: the server whose CPU time per request, per byte and per
// connection calibrate measures.
#pragma once
#include <sys/types.h>

#include <memory>
#include <string>

#include "testbed/calibrate/child_process.h"

namespace testbed::calibrate {

// The minimal configuration (exposed for tests): one worker, no logs, sendfile
// on, keep-alive without a request limit, listening on 127.0.0.1:port.
std::string nginx_config(const std::string& prefix, const std::string& root, int port);

class NginxProbe {
 public:
  // Starts nginx under `prefix` (a directory it owns) serving `root`; waits
  // until it accepts connections and its worker is known.
  NginxProbe(const std::string& prefix, const std::string& root);
  ~NginxProbe();  // stops master and worker
  int port() const { return port_; }
  pid_t worker() const { return worker_; }
  std::string url(const std::string& path) const;

 private:
  int port_ = 0;
  pid_t worker_ = 0;
  std::unique_ptr<ChildProcess> master_;
};

// A free TCP port on 127.0.0.1 (bound and released).
int free_loopback_port();

}  // namespace testbed::calibrate
