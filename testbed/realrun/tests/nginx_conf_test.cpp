// The generated nginx.conf: each scenario setting becomes its directive, and
// real NGINX accepts the result (`nginx -t`, when NGINX is installed).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <utility>
#include <vector>

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
  // Issue 19: a folder with a space and NGINX's special characters, quoted.
  const fs::path odd = dir / "a b;{c}#\"d'\\e";
  fs::create_directories(odd);
  const auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  std::ofstream(odd / "nginx.conf") << nginx_conf(sc, {odd.string(), odd.string(), 18097, true}).text;
  CHECK_NOTHROW(check_nginx_config("/usr/sbin/nginx", odd.string(), (odd / "nginx.conf").string()));
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
  // Paths NGINX's configuration cannot hold (nginx_path_problem): refused.
  for (const std::string& bad : std::vector<std::string>{"/d\n", "/d\nuser root;", "/d\t", "/d\r", std::string("/d\0", 3), "/d\x7f", ""}) {
    INFO(comment_text(bad));
    refused(sc, {bad, "/run/x", 18099, false});
    refused(sc, {"/data/set", bad, 18099, false});
  }
}

namespace {

// One directive as ngx_conf_read_token (ngx_conf_file.c) hands it to NGINX:
// its words, and what ended it (';', '{', or '}' for a block's end).
struct Directive {
  std::vector<std::string> words;
  char end = ';';
};

// A word's bytes as NGINX copies them: backslash-quote, backslash-apostrophe
// and two backslashes become the character, \t \r \n control characters,
// any other backslash stays.
std::string nginx_unescape(std::string_view raw) {
  std::string out;
  for (std::size_t k = 0; k < raw.size();) {
    if (raw[k] == '\\' && k + 1 < raw.size()) {
      const char next = raw[k + 1];
      const std::string_view as_is = "\"'\\", controls = "trn", made = "\t\r\n";
      if (as_is.find(next) != std::string_view::npos || controls.find(next) != std::string_view::npos) {
        out += controls.find(next) != std::string_view::npos ? made[controls.find(next)] : next;
        k += 2;
        continue;
      }
    }
    out += raw[k++];
  }
  return out;
}

bool nginx_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

// ngx_conf_read_token's rules, written for this test: outside quotes a word
// ends at whitespace, ';' or '{' (not at a '{' right after '$'); at a word's
// start '}' ends a block, '#' a comment to the line's end, and '"' or '\''
// opens a quoted word that only its own quote ends, after which whitespace,
// ';' or '{' must follow; a backslash passes over the next character.
std::vector<Directive> read_nginx_conf(const std::string& t) {
  std::vector<Directive> out;
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < t.size()) {
    const char ch = t[i];
    if (nginx_space(ch)) {
      ++i;
    } else if (ch == '#') {
      i = t.find('\n', i);
    } else if (ch == ';' || ch == '{' || ch == '}') {
      REQUIRE(words.empty() == (ch == '}'));  // "unexpected ..."
      out.push_back({std::exchange(words, {}), ch});
      ++i;
    } else if (ch == '"' || ch == '\'') {
      const std::size_t start = ++i;
      while (i < t.size() && t[i] != ch) i += t[i] == '\\' ? 2 : 1;
      REQUIRE(i + 1 < t.size());
      words.push_back(nginx_unescape(std::string_view(t).substr(start, i - start)));
      ++i;
      REQUIRE((nginx_space(t[i]) || t[i] == ';' || t[i] == '{'));  // NGINX's need_space
    } else {
      const std::size_t start = i;
      while (i < t.size() && !nginx_space(t[i]) && t[i] != ';' && (t[i] != '{' || (i > start && t[i - 1] == '$')))
        i += t[i] == '\\' ? 2 : 1;
      words.push_back(nginx_unescape(std::string_view(t).substr(start, i - start)));
    }
  }
  REQUIRE(words.empty());
  return out;
}

// The directive named `name` (the first), or an empty one.
std::vector<std::string> directive(const std::vector<Directive>& conf, const std::string& name) {
  for (const Directive& d : conf)
    if (!d.words.empty() && d.words[0] == name) return d.words;
  return {};
}

std::vector<std::string> names(const std::vector<Directive>& conf) {
  std::vector<std::string> out;
  for (const Directive& d : conf) out.push_back(d.words.empty() ? "}" : d.words[0]);
  return out;
}

}  // namespace

// Issue 19: a data or run folder with a space, ';', '{', '}', '#', quotes or
// backslashes is written double-quoted, and NGINX's tokenizer reads each as
// one argument, the file's directives unchanged in number and order.
TEST_CASE("nginx.conf: folders with spaces and NGINX's special characters are one quoted argument", "[nginx_conf]") {
  const auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  const std::vector<Directive> plain = read_nginx_conf(nginx_conf(sc, {"/data/set", "/run/x", 18099, false}).text);
  CHECK(directive(plain, "root") == std::vector<std::string>{"root", "/data/set"});
  const std::string nasty[] = {"/data set",     "/d;user root",  "/d#x",          "/d{", "/d}",     "/d\"q",
                               "/d'q",          "/d\\",          "/d\\n",         "/d\\\"", "/ä b/c", "/a b\";user root;#"};
  for (const std::string& path : nasty) {
    INFO(path);
    const std::string text = nginx_conf(sc, {path, path, 18099, false}).text;
    const std::vector<Directive> conf = read_nginx_conf(text);
    CHECK(names(conf) == names(plain));
    CHECK(directive(conf, "root") == std::vector<std::string>{"root", path});
    CHECK(directive(conf, "pid") == std::vector<std::string>{"pid", path + "/nginx.pid"});
    CHECK(directive(conf, "error_log") == std::vector<std::string>{"error_log", path + "/error.log", "warn"});
    CHECK(directive(conf, "proxy_temp_path") == std::vector<std::string>{"proxy_temp_path", path + "/proxy_temp"});
  }
  // A '$' is one of root's variables even quoted (ngx_http_core_root): refused
  // there; the run folder's paths take it literally.
  CHECK_THROWS_AS(nginx_conf(sc, {"/d$x", "/run/x", 18099, false}), testbed::RealRunError);
  const std::vector<Directive> dollar = read_nginx_conf(nginx_conf(sc, {"/data/set", "/r$x", 18099, false}).text);
  CHECK(directive(dollar, "pid") == std::vector<std::string>{"pid", "/r$x/nginx.pid"});
  // Plain paths are written as they were.
  CHECK(has(nginx_conf(sc, {"/data/set", "/run/x", 18099, false}).text, "        root /data/set;\n"));
  CHECK(has(nginx_conf(sc, {"/data set", "/run/x", 18099, false}).text, "        root \"/data set\";\n"));
  // Longer than NGINX reads as one argument once escaped: refused.
  CHECK_THROWS_AS(nginx_conf(sc, {"/" + std::string(kNginxPathMax, 'a'), "/run/x", 18099, false}),
                  testbed::RealRunError);
  CHECK_NOTHROW(nginx_conf(sc, {"/" + std::string(kNginxPathMax - 1, '"'), "/run/x", 18099, false}));
  const std::string longest = "/" + std::string(kNginxPathMax - 1, '"');
  CHECK(directive(read_nginx_conf(nginx_conf(sc, {"/d", longest, 18099, false}).text), "client_body_temp_path")[1] ==
        longest + "/client_body_temp");
}

// The same refusal before a run makes anything: the run folder is not made.
TEST_CASE("run_real refuses a run folder NGINX's configuration cannot hold before making it", "[nginx_conf]") {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("clerk-nginx-folder-" + std::to_string(::getpid()));
  std::ofstream(file) << "a file, not a folder\n";
  testbed::RealRunOptions o;
  o.run_dir = (fs::temp_directory_path() / ("clerk-run\nuser root;" + std::to_string(::getpid()))).string();
  o.data_dir = (file / "data").string();  // under a file: a run that went on would fail at the data set
  o.verbose = true;                       // and keep its run folder, for the check below
  CHECK(testbed::nginx_folder_refusal(o).find("the run folder") != std::string::npos);
  const auto sc = models::load_scenario(CLERK_SCENARIOS "/nginx-9x/threads.toml");
  try {
    testbed::run_real(sc, o);
    FAIL("run_real took a run folder with a newline");
  } catch (const testbed::RealRunError& e) {
    CHECK(has(e.what(), "control character"));
    CHECK(has(e.what(), "clerk-run?user root;"));
  }
  CHECK_FALSE(fs::exists(o.run_dir));
  // The data folder, as run_real takes it (relative to the current folder);
  // clerk-serve and an emulated disk's data/ in the run folder do not ask.
  o.run_dir.clear();
  o.data_dir = "/data\nset";
  CHECK(has(testbed::nginx_folder_refusal(o), "the data folder \"/data?set\" (--data)"));
  o.data_dir = "/data$set";
  CHECK(has(testbed::nginx_folder_refusal(o), "'$'"));
  o.data_dir = "/data set/{x}";
  CHECK(testbed::nginx_folder_refusal(o).empty());
  o.data_dir = "/data\nset";
  o.disk = "emulated";
  CHECK(testbed::nginx_folder_refusal(o).empty());
  o.disk = "real";
  o.server = "clerk-serve";
  CHECK(testbed::nginx_folder_refusal(o).empty());
  fs::remove(file);
}
