// The generated nginx.conf: each scenario setting becomes its directive, and
// real NGINX accepts the result (`nginx -t`, when NGINX is installed).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "models/scenario/config_loader.h"
#include "testbed/realrun/nginx_conf.h"
#include "testbed/realrun/real_run.h"
#include "testbed/realrun/server_process.h"

using namespace testbed::realrun;

namespace {
bool has(const std::string& text, const std::string& directive) { return text.find(directive) != std::string::npos; }
}  // namespace

TEST_CASE("nginx.conf from nginx-9x/threads carries every directive", "[nginx_conf]") {
  const auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  const auto conf = nginx_conf(sc, {"/data/set", "/run/x", 18099, true});
  const std::string& c = conf.text;
  CHECK(has(c, "daemon off;"));
  CHECK(has(c, "master_process on;"));
  CHECK(has(c, "user root;"));
  CHECK(has(c, "worker_processes 16;"));
  CHECK(has(c, "pid /run/x/nginx.pid;"));
  CHECK(has(c, "error_log /run/x/error.log"));
  CHECK(has(c, "thread_pool default threads=32 max_queue=65536;"));
  CHECK(has(c, "accept_mutex off;"));
  CHECK(has(c, "worker_connections 4096;"));
  CHECK(has(c, "access_log off;"));
  CHECK(has(c, "sendfile on;"));
  CHECK(has(c, "sendfile_max_chunk 524288;"));
  CHECK(has(c, "keepalive_requests 100;"));
  CHECK(has(c, "keepalive_timeout 75s;"));
  CHECK(has(c, "client_body_temp_path /run/x/client_body_temp;"));
  // 200 + 12 * 4 = 248 connections: NGINX's default backlog is enough.
  CHECK(has(c, "listen 127.0.0.1:18099 backlog=511;"));
  CHECK_FALSE(has(c, "reuseport"));
  CHECK(has(c, "root /data/set;"));
  CHECK(has(c, "aio threads;"));
  // thread_pool is a main-level directive: before the events block.
  CHECK(c.find("thread_pool default") < c.find("events {"));
  // The scenario's root and version differ from the real run's: said.
  CHECK(std::any_of(conf.notes.begin(), conf.notes.end(), [](const std::string& n) { return has(n, "/storage"); }));
}

TEST_CASE("nginx.conf: blocking, reuseport, mutex on, no chunk limit, many connections", "[nginx_conf]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/blocking.toml");
  sc.nginx.accept = &models::accept_policy(false, true);
  sc.nginx.sendfile_max_chunk = 0;
  sc.nginx.sendfile = false;
  sc.nginx.keepalive_requests = 7;
  sc.clients[0].connections = 3000;
  sc.clients[0].threads = 10;
  sc.clients[1].connections = 50;  // 12 threads: 48 open
  sc.clients[1].threads = 12;
  const std::string c = nginx_conf(sc, {"/d", "/r", 20000, false}).text;
  CHECK_FALSE(has(c, "thread_pool"));
  CHECK_FALSE(has(c, "aio"));
  CHECK_FALSE(has(c, "user root;"));
  CHECK(has(c, "accept_mutex off;"));
  CHECK(has(c, "sendfile off;"));
  CHECK(has(c, "sendfile_max_chunk 0;"));  // NGINX 1.22's default is 2m: 0 must be explicit
  CHECK(has(c, "keepalive_requests 7;"));
  CHECK(has(c, "listen 127.0.0.1:20000 reuseport backlog=3048;"));  // 3000 + 48
  CHECK(has(c, "worker_connections 6352;"));                         // 2 * 3048 + 256

  sc.nginx.accept = &models::accept_policy(true, false);
  const std::string on = nginx_conf(sc, {"/d", "/r", 20000, false}).text;
  CHECK(has(on, "accept_mutex on;"));
  CHECK_FALSE(has(on, "reuseport"));

  // A scenario that sets nginx.worker_connections gets that value, however many connections.
  sc.nginx.worker_connections = 768;
  const std::string set = nginx_conf(sc, {"/d", "/r", 20000, false}).text;
  CHECK(has(set, "worker_connections 768;"));
  CHECK(has(set, "worker_rlimit_nofile 2560;"));  // 2 * 768 + 1024
  // ngx_drain_connections is not modelled: realrun says so when the scenario sets worker_connections.
  const auto drain_note = [](const testbed::realrun::NginxConf& conf) {
    return std::any_of(conf.notes.begin(), conf.notes.end(),
                       [](const std::string& n) { return has(n, "ngx_drain_connections"); });
  };
  CHECK(drain_note(nginx_conf(sc, {"/d", "/r", 20000, false})));
  sc.nginx.worker_connections = 0;
  CHECK_FALSE(drain_note(nginx_conf(sc, {"/d", "/r", 20000, false})));
}

TEST_CASE("nginx.conf carries directio and open_file_cache only when the scenario sets them", "[nginx_conf]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  const std::string plain = nginx_conf(sc, {"/d", "/r", 20000, false}).text;
  CHECK_FALSE(has(plain, "directio"));
  CHECK_FALSE(has(plain, "output_buffers"));
  CHECK_FALSE(has(plain, "open_file_cache"));
  sc = models::load_scenario(CLERK_SCENARIOS "/alternatives/directio-threads.toml",
                             {"nginx.open_file_cache=\"max=1000 inactive=20s\"", "nginx.open_file_cache_valid=30"});
  const std::string c = nginx_conf(sc, {"/d", "/r", 20000, false}).text;
  CHECK(has(c, "directio 4194304;"));
  CHECK(has(c, "directio_alignment 512;"));
  CHECK(has(c, "output_buffers 1 32768;"));  // NGINX 1.9.0's default
  CHECK(has(c, "open_file_cache max=1000 inactive=20s;"));
  CHECK(has(c, "open_file_cache_valid 30s;"));
  CHECK(has(c, "open_file_cache_min_uses 1;"));
  CHECK(has(c, "open_file_cache_errors off;"));
}

TEST_CASE("nginx -t accepts the generated configuration", "[nginx_conf][nginx]") {
  if (::access("/usr/sbin/nginx", X_OK) != 0 || ::geteuid() != 0) {
    WARN("no /usr/sbin/nginx or not root: skipped");
    return;
  }
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("clerk-nginx-t-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : {"nginx-9x/threads.toml", "nginx-9x/blocking.toml", "alternatives/directio-threads.toml"}) {
    auto sc = models::load_scenario(std::string(CLERK_SCENARIOS "/") + name, {"nginx.open_file_cache=\"max=100\""});
    sc.nginx.accept = &models::accept_policy(false, true);
    std::ofstream(dir / "nginx.conf") << nginx_conf(sc, {dir.string(), dir.string(), 18097, true}).text;
    CHECK_NOTHROW(check_nginx_config("/usr/sbin/nginx", dir.string(), (dir / "nginx.conf").string()));
  }
  // A broken directive: the error quotes NGINX.
  std::ofstream(dir / "nginx.conf") << "worker_processes banana;\nevents {}\n";
  try {
    check_nginx_config("/usr/sbin/nginx", dir.string(), (dir / "nginx.conf").string());
    FAIL("nginx -t accepted a broken configuration");
  } catch (const testbed::RealRunError& e) {
    CHECK(has(e.what(), "worker_processes"));
  }
  fs::remove_all(dir);
}

// Probe finding 7: scenario text never adds a directive to the file (run as
// root): the name's comment line stays one line, and names the loader would
// refuse are refused again here, before anything is written.
TEST_CASE("nginx.conf: scenario text cannot inject directives", "[nginx_conf]") {
  auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  sc.name = "x\nuser root;\r\nload_module /tmp/evil.so;\x1b[2J";
  const std::string c = nginx_conf(sc, {"/data/set", "/run/x", 18099, false}).text;
  CHECK_FALSE(has(c, "\nload_module"));
  CHECK_FALSE(has(c, "\nuser root;"));
  CHECK_FALSE(has(c, "\r"));
  CHECK_FALSE(has(c, "\x1b"));
  CHECK(c.rfind("# Generated by clerk realrun for scenario x?user root;??load_module /tmp/evil.so;?[2J\n", 0) == 0);
  CHECK(comment_text("a\tb\x7f") == "a?b?");

  auto refused = [](const models::Scenario& s, const NginxConfParams& p) {
    CHECK_THROWS_AS(nginx_conf(s, p), testbed::RealRunError);
  };
  const NginxConfParams ok{"/data/set", "/run/x", 18099, false};
  auto pool = sc;
  pool.nginx.thread_pool.name = "p;\nevil on";
  refused(pool, ok);
  auto more = sc;
  more.nginx.more_thread_pools.push_back({"q {", 4, 64});
  refused(more, ok);
  auto aio = sc;
  aio.nginx.aio_threads_pool = "default;\nuser root";
  refused(aio, ok);
  auto split = models::load_scenario(CLERK_SCENARIOS "/alternatives/proxy-three-disks.toml");
  CHECK_NOTHROW(nginx_conf(split, ok));
  split.nginx.split_clients.parts.back().value = "3\";\nuser root;#";
  refused(split, ok);
  // Paths from the command line (--data-dir) and the run directory.
  for (const std::string bad : {"/data set", "/d;user root", "/d\n", "/d#", "/d$x", "/d{", ""}) {
    INFO(bad);
    refused(sc, {bad, "/run/x", 18099, false});
    refused(sc, {"/data/set", bad, 18099, false});
  }
}
