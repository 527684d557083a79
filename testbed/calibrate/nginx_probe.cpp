#include "testbed/calibrate/nginx_probe.h"

#include <arpa/inet.h>
#include <signal.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "common/output_file.h"
#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/tools.h"

namespace testbed::calibrate {

namespace {
bool can_connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}
}  // namespace

int free_loopback_port() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (fd >= 0) close(fd);
    throw std::runtime_error("cannot find a free port on 127.0.0.1");
  }
  close(fd);
  return ntohs(a.sin_port);
}

std::string nginx_config(const std::string& prefix, const std::string& root, int port, int workers,
                         const NginxOptions& options) {
  std::string extra;
  if (options.sendfile_max_chunk > 0) extra += fmt::format("  sendfile_max_chunk {}k;\n", options.sendfile_max_chunk >> 10);
  if (options.aio_threads) extra += "  aio threads;\n";
  // master_process on as in production; `daemon off` keeps the master our
  // child, so that stopping it (and its process group) stops everything.
  // keepalive_requests is lifted so that keep-alive runs never reconnect.
  return fmt::format(
      "daemon off;\n"
      "master_process on;\n"
      "worker_processes {3};\n"
      "pid {0}/nginx.pid;\n"
      "error_log {0}/error.log warn;\n"
      "events {{ worker_connections 1024; }}\n"
      "http {{\n"
      "  access_log off;\n"
      "  sendfile on;\n"
      "  tcp_nopush on;\n"
      "{4}"
      "  keepalive_requests 100000000;\n"
      "  keepalive_timeout 60s;\n"
      "  default_type application/octet-stream;\n"
      "  client_body_temp_path {0}/body;\n"
      "  proxy_temp_path {0}/proxy;\n"
      "  fastcgi_temp_path {0}/fastcgi;\n"
      "  server {{\n"
      "    listen 127.0.0.1:{2};\n"
      "    root {1};\n"
      "  }}\n"
      "}}\n",
      prefix, root, port, workers, extra);
}

NginxProbe::NginxProbe(const std::string& prefix, const std::string& root, int workers, const NginxOptions& options) {
  port_ = free_loopback_port();
  const std::string conf = prefix + "/nginx.conf";
  common::write_file_atomically(conf, nginx_config(prefix, root, port_, workers, options));
  throw_if_interrupted();
  common::SpawnSpec spec =
      tool_child({nginx_tool().path, "-p", prefix, "-c", conf, "-e", prefix + "/error.log"}, prefix + "/nginx.out");
  spec.parent_death_signal = SIGTERM;  // the master stops its workers; a SIGKILLed one would not
  master_ = common::ChildProcess::spawn(spec);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    throw_if_interrupted();
    const auto kids = common::children_of(master_.pid());
    if (kids.size() == static_cast<std::size_t>(workers) && can_connect(port_)) {
      workers_.assign(kids.begin(), kids.end());
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::ifstream log(prefix + "/error.log"), out(prefix + "/nginx.out");
  std::stringstream ss;
  ss << log.rdbuf() << out.rdbuf();
  throw std::runtime_error("nginx did not start on 127.0.0.1:" + std::to_string(port_) + ": " + ss.str());
}

// SIGTERM to the master (NGINX's fast shutdown stops its workers), SIGKILL to
// the group after 3 s; returns once no process of the group remains.
NginxProbe::~NginxProbe() { master_.stop(SIGTERM, 3.0); }

std::string NginxProbe::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

}  // namespace testbed::calibrate
