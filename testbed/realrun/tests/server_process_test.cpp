// clerk-serve's command line from a scenario, and the port checks.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "models/scenario/config_loader.h"
#include "testbed/realrun/nginx_conf.h"
#include "testbed/realrun/server_process.h"
#include "testbed/realrun/tests/loopback_listener.h"

using namespace testbed::realrun;

namespace {
std::string flag(const std::vector<std::string>& argv, const std::string& name) {
  const auto it = std::find(argv.begin(), argv.end(), name);
  return it == argv.end() || it + 1 == argv.end() ? "(absent)" : *(it + 1);
}
}  // namespace

TEST_CASE("clerk-serve flags mirror the scenario's directives", "[server_process]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  auto argv = serve_argv(sc, {"/opt/clerk-serve", "/data", "/run/serve.pid", 18123});
  CHECK(argv[0] == "/opt/clerk-serve");
  CHECK(flag(argv, "--root") == "/data");
  CHECK(flag(argv, "--listen") == "127.0.0.1:18123");
  CHECK(flag(argv, "--workers") == "16");
  CHECK(flag(argv, "--reuseport") == "off");
  CHECK(flag(argv, "--sendfile-max-chunk") == "524288");
  CHECK(flag(argv, "--aio") == "threads");
  CHECK(flag(argv, "--aio-open") == "off");
  CHECK(flag(argv, "--threads") == "32");
  CHECK(flag(argv, "--max-queue") == "65536");
  CHECK(flag(argv, "--keepalive-requests") == "100");
  CHECK(flag(argv, "--pid-file") == "/run/serve.pid");
  CHECK(flag(argv, "--open-file-cache") == "(absent)");  // off: clerk-serve's default
  // worker_connections as the nginx.conf of the same run says.
  CHECK(flag(argv, "--worker-connections") == std::to_string(worker_connections(sc)));
  CHECK(nginx_conf(sc, {"/data", "/run"}).text.find("worker_connections " + std::to_string(worker_connections(sc)) + ";") != std::string::npos);
  sc.nginx.worker_connections = 1024;
  CHECK(flag(serve_argv(sc, {"/x", "/d", "/p", 1}), "--worker-connections") == "1024");
  sc.nginx.worker_connections = 0;

  sc.nginx.accept = &models::accept_policy(false, true);
  sc.nginx.aio_open = true;
  argv = serve_argv(sc, {"/x", "/d", "/p", 1});
  CHECK(flag(argv, "--reuseport") == "on");
  CHECK(flag(argv, "--aio-open") == "on");
  // aio_open without aio threads: clerk-serve would refuse it; off, and said.
  sc.nginx.aio = models::find_aio_mode("off");
  argv = serve_argv(sc, {"/x", "/d", "/p", 1});
  CHECK(flag(argv, "--aio") == "off");
  CHECK(flag(argv, "--aio-open") == "off");
  CHECK_FALSE(serve_notes(sc).empty());
}

TEST_CASE("clerk-serve runs aio_nowait as --aio nowait and io_uring with its ring's size", "[server_process]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/alternatives/probe-threads.toml");
  auto argv = serve_argv(sc, {"/x", "/d", "/p", 1});
  CHECK(flag(argv, "--aio") == "nowait");
  CHECK(flag(argv, "--threads") == "32");
  sc = models::load_scenario(CLERK_SCENARIOS "/alternatives/io-uring.toml", {"nginx.io_uring={entries=64}"});
  argv = serve_argv(sc, {"/x", "/d", "/p", 1});
  CHECK(flag(argv, "--aio") == "io_uring");
  CHECK(flag(argv, "--uring-entries") == "64");
  CHECK(flag(argv, "--uring-max-workers") == "0");
}

TEST_CASE("clerk-serve gets the scenario's open_file_cache, in whole seconds", "[server_process]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/local/threads.toml",
                                  {"nginx.open_file_cache=\"max=1000 inactive=20s\"", "nginx.open_file_cache_valid=30",
                                   "nginx.open_file_cache_min_uses=2", "nginx.open_file_cache_errors=true"});
  const auto argv = serve_argv(sc, {"/x", "/d", "/p", 1});
  CHECK(flag(argv, "--open-file-cache") == "1000");
  CHECK(flag(argv, "--open-file-cache-inactive") == "20");
  CHECK(flag(argv, "--open-file-cache-valid") == "30");
  CHECK(flag(argv, "--open-file-cache-min-uses") == "2");
  CHECK(flag(argv, "--open-file-cache-errors") == "on");
  for (const std::string& note : serve_notes(sc)) CHECK(note.find("open_file_cache") == std::string::npos);
}

TEST_CASE("a listening port is busy and accepts, a closed one is free", "[server_process]") {
  const LoopbackListener l = listen_on_loopback(4);
  const int fd = l.fd;
  const std::uint16_t port = l.port;
  CHECK_FALSE(port_free(port));
  CHECK(port_accepts(port));
  ::close(fd);
  CHECK(port_free(port));
  CHECK_FALSE(port_accepts(port));
}
