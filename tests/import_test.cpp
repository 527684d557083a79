// `clerk import` (issue 18): nginx.conf read as NGINX reads it
// (cli/import/nginx_conf_parser.h), its directives as scenario keys
// (cli/import/nginx_import.h), and the round trip with realrun's generator:
// a committed scenario's nginx.conf (testbed/realrun/nginx_conf.h), imported
// back, loads with the same [nginx] values.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <filesystem>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/import/nginx_conf_parser.h"
#include "cli/import/nginx_import.h"
#include "cli/import_command.h"
#include "common/temp_dir.h"
#include "models/scenario/config_loader.h"
#include "testbed/realrun/nginx_conf.h"
#include "testbed/realrun/real_run.h"

namespace fs = std::filesystem;
using nginx_conf::Directive;
using nginx_conf::SyntaxError;

namespace {

// Parses `text` as FILE "t.conf"; includes come from `files` (name -> text).
std::vector<Directive> parse_text(const std::string& text, const std::map<std::string, std::string>& files = {}) {
  const nginx_conf::IncludeResolver includes = [&files](const std::string& pattern, const Directive& at) {
    const auto it = files.find(pattern);
    if (it == files.end()) throw SyntaxError(at.file, at.line, pattern, "cannot open \"" + pattern + "\"");
    return std::vector<nginx_conf::Source>{{pattern, pattern, it->second}};
  };
  return nginx_conf::parse({"t.conf", "t.conf", text}, includes);
}

// The SyntaxError parsing `text` throws (fails the test if none).
SyntaxError error_of(const std::string& text, const std::map<std::string, std::string>& files = {}) {
  try {
    parse_text(text, files);
  } catch (const SyntaxError& e) {
    return e;
  }
  FAIL("no syntax error in: " << text);
  throw std::logic_error("unreachable");
}

// A scenario file written from `text` and loaded.
models::Scenario load_text(const std::string& text) {
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("s.toml")) << text;
  return models::load_scenario(dir.file("s.toml"));
}

cli::ImportArgs import_args(const std::string& conf, const std::string& out, const std::string& version = "1.30.4") {
  cli::ImportArgs a;
  a.conf = conf;
  a.scenario.file = out;
  a.scenario.nginx = version;
  return a;
}

// clerk import as the command runs it: its exit status and what it printed on stderr.
struct Imported {
  int status;
  std::string err;
};
Imported run_import(const cli::ImportArgs& a) {
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  const int status = cli::import_command(a);
  std::cerr.rdbuf(old);
  return {status, err.str()};
}

bool has(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

// Where an import of `text` is refused, as "FILE:LINE TOKEN", or "no error".
// An events block is added at the end unless `whole` (NGINX refuses a file
// without one); the lines of `text` stay as written.
std::string refusal(const std::string& text, bool whole = false) {
  try {
    cli::ImportOptions options;
    options.conf_file = "t.conf";
    options.conf_last_line = cli::last_line_of(text);
    cli::import_nginx(parse_text(whole ? text : text + "events {}\n"), options);
  } catch (const SyntaxError& e) {
    return fmt::format("{}:{} {}", e.file(), e.line(), e.token());
  }
  return "no error";
}

}  // namespace

TEST_CASE("nginx.conf words: quotes, escapes, comments and variables as ngx_conf_read_token reads them") {
  const auto conf = parse_text(
      "# a comment line\n"
      "a \"two words\" 'single \\' quote' x\\;y a#b;   # a comment after\n"
      "b \"tab\\there\" \"back\\\\slash\" \"keep\\qthis\";\n"
      "location x${host}y{ d; }\n");
  REQUIRE(conf.size() == 3);
  CHECK(conf[0].name == "a");
  CHECK(conf[0].line == 2);
  CHECK(conf[0].args == std::vector<std::string>{"two words", "single ' quote", "x\\;y", "a#b"});
  CHECK(conf[1].args == std::vector<std::string>{"tab\there", "back\\slash", "keep\\qthis"});
  // `${` inside a word does not open a block; the `{` after `y` does.
  CHECK(conf[2].name == "location");
  CHECK(conf[2].args == std::vector<std::string>{"x${host}y"});
  REQUIRE(conf[2].block);
  CHECK(conf[2].children.front().name == "d");
}

TEST_CASE("nginx.conf syntax errors name the file, the line and the token") {
  SECTION("an unclosed block") {
    const SyntaxError e = error_of("http {\n  server {\n    listen 80;\n  }\n");
    CHECK(e.line() == 5);
    CHECK(e.token() == "end of file");
    CHECK(std::string(e.what()).find("expecting \"}\" to close \"http\" of line 1") != std::string::npos);
  }
  SECTION("an unterminated quote") {
    const SyntaxError e = error_of("events {}\nroot \"/var/www;\nsendfile on;\n");
    CHECK(e.file() == "t.conf");
    CHECK(e.line() == 2);
    CHECK(e.token() == "\"");
  }
  SECTION("a missing semicolon before a block") {
    const SyntaxError e = error_of("worker_processes 4\nevents {\n}\n");
    CHECK(e.line() == 1);
    CHECK(e.token() == "events");
    CHECK(std::string(e.what()).find("\"worker_processes\" is not terminated by \";\"") != std::string::npos);
  }
  SECTION("a block after a directive that takes none, its last word empty") {
    // fuzz_import's finding of 2026-11-29: the token was the empty word and
    // the message did not show it.
    const SyntaxError e = error_of("events {}\nhttp {\n  root \"/srv\" \"\" {\n  }\n}\n");
    CHECK(e.line() == 3);
    CHECK(e.token().empty());
    CHECK(std::string(e.what()).find("\"root\" is not terminated by \";\" (it takes no block): \"{\" follows \"\"") !=
          std::string::npos);
  }
  SECTION("a missing semicolon before a closing brace") {
    const SyntaxError e = error_of("events {\n  accept_mutex off\n}\n");
    CHECK(e.line() == 3);
    CHECK(e.token() == "}");
  }
  SECTION("a stray closing brace") {
    const SyntaxError e = error_of("events {}\n}\n");
    CHECK(e.line() == 2);
    CHECK(e.token() == "}");
  }
  SECTION("text after a quoted word") {
    const SyntaxError e = error_of("root \"/a\"b;\n");
    CHECK(e.token() == "b");
  }
  SECTION("a block directive without its block") {
    const SyntaxError e = error_of("http;\n");
    CHECK(e.token() == "http");
  }
  SECTION("an include loop") {
    const SyntaxError e = error_of("include a.conf;\n", {{"a.conf", "sendfile on;\ninclude b.conf;\n"},
                                                         {"b.conf", "include a.conf;\n"}});
    CHECK(e.file() == "b.conf");
    CHECK(e.line() == 1);
    CHECK(std::string(e.what()).find("include loop: a.conf -> b.conf -> a.conf") != std::string::npos);
  }
  SECTION("an include of a missing file") {
    const SyntaxError e = error_of("http {\n  include missing.conf;\n}\n");
    CHECK(e.line() == 2);
    CHECK(e.token() == "missing.conf");
  }
}

TEST_CASE("nginx.conf includes are read in place, in the including block") {
  const auto conf = parse_text("http {\n  include site.conf;\n  sendfile on;\n}\n",
                               {{"site.conf", "server {\n  listen 80;\n}\n"}});
  REQUIRE(conf.size() == 1);
  REQUIRE(conf[0].children.size() == 2);
  CHECK(conf[0].children[0].name == "server");
  CHECK(conf[0].children[0].file == "site.conf");
  CHECK(conf[0].children[0].children[0].line == 2);
  CHECK(conf[0].children[1].name == "sendfile");
  // A `}` in an included file closes nothing (ngx_conf_parse of a file).
  CHECK(error_of("http {\n  include bad.conf;\n}\n", {{"bad.conf", "}\n"}}).file() == "bad.conf");
}

TEST_CASE("nginx.conf includes on disk: globs relative to the main file's folder, sorted, and none is no error") {
  common::TempDir dir("/tmp/clerk-import-test-");
  fs::create_directories(dir.file("conf.d"));
  fs::create_directories(dir.file("sub"));
  std::ofstream(dir.file("nginx.conf")) << "include sub/first.conf;\ninclude none.d/*.conf;\n";
  // Relative to the main file's folder (NGINX's conf prefix), not sub/'s.
  std::ofstream(dir.file("sub/first.conf")) << "include conf.d/*.conf;\n";
  std::ofstream(dir.file("conf.d/b.conf")) << "b_directive 2;\n";
  std::ofstream(dir.file("conf.d/a.conf")) << "a_directive 1;\n";
  const auto conf = nginx_conf::parse_file(dir.file("nginx.conf"));
  REQUIRE(conf.size() == 2);
  CHECK(conf[0].name == "a_directive");
  CHECK(conf[1].name == "b_directive");
  CHECK(conf[1].file == dir.file("conf.d/b.conf"));
}

TEST_CASE("nginx.conf directives become [nginx] keys, each with the line it came from") {
  const auto conf = parse_text(
      "worker_processes auto;\n"
      "thread_pool io threads=8 max_queue=100;\n"
      "events { accept_mutex on; accept_mutex_delay 1s; multi_accept on; epoll_events 64; use epoll; }\n"
      "http {\n"
      "  sendfile off;\n"
      "  aio threads;\n"
      "  server {\n"
      "    listen 80 reuseport;\n"
      "    root /srv;\n"
      "    location /a/ { root /elsewhere; }\n"
      "    location / { sendfile on; sendfile_max_chunk 1m; aio threads=io; keepalive_requests 7; }\n"
      "  }\n"
      "}\n");
  cli::ImportOptions options;
  options.logical_cpus = 6;
  const cli::ImportedNginx n = cli::import_nginx(conf, options);
  const models::Scenario sc = load_text("include = \"@hardware/edge-sata-ssd\"\n" + n.nginx_toml + "\n[dataset]\n" +
                                        n.dataset_toml + "files = 10\nfile_size = 4096\n" +
                                        "[clients.c]\nthreads = 1\nconnections = 1\npath = \"random\"\n");
  CHECK(sc.nginx.worker_processes == 6);
  CHECK(sc.nginx.accept->reuseport);
  CHECK(sc.nginx.accept_mutex_delay_s == Approx(1.0));
  CHECK(sc.nginx.multi_accept);
  CHECK(sc.nginx.epoll_events == 64);
  CHECK(sc.nginx.sendfile);
  CHECK(sc.nginx.sendfile_max_chunk == 1 << 20);
  CHECK(sc.nginx.keepalive_requests == 7);
  CHECK(sc.nginx.aio->thread_pool);
  CHECK(sc.nginx.thread_pool.name == "io");
  CHECK(sc.nginx.thread_pool.threads == 8);
  CHECK(sc.nginx.thread_pool.max_queue == 100);
  CHECK(sc.root == "/srv");
  CHECK(n.nginx_toml.find("t.conf:1: worker_processes auto (the profile's CPUs)") != std::string::npos);
  CHECK(n.dataset_toml.find("t.conf:9: root /srv") != std::string::npos);
  // Values elsewhere than the modelled location are warnings.
  CHECK(has(n.warnings, "t.conf:5 sendfile off: differs"));
  CHECK(has(n.warnings, "t.conf:6 aio threads: differs"));
  CHECK(has(n.warnings, "t.conf:10 root /elsewhere: differs"));
}

TEST_CASE("nginx.conf values NGINX would refuse are errors naming the token") {
  cli::ImportOptions options;
  const auto refuse = [&](const std::string& text) {
    try {
      cli::import_nginx(parse_text(text), options);
    } catch (const SyntaxError& e) {
      return e.token();
    }
    return std::string("no error");
  };
  CHECK(refuse("worker_processes many;\n") == "many");
  CHECK(refuse("events { multi_accept maybe; }\n") == "maybe");
  CHECK(refuse("http { sendfile_max_chunk 2q; }\n") == "2q");
  CHECK(refuse("http { server { location / { aio threads=nowhere; } } }\n") == "nowhere");
  CHECK(refuse("thread_pool p threads=0;\nhttp { aio threads=p; }\n") == "0");
  // Names clerk realrun would write unquoted into its nginx.conf: refused
  // here as the loader refuses them, not imported into a scenario it refuses.
  CHECK(refuse("thread_pool \"p@x\" threads=4;\nhttp { aio \"threads=p@x\"; }\n") == "threads=p@x");
  CHECK(refuse("thread_pool a threads=4;\nthread_pool \"b c\" threads=4;\nhttp { aio threads=a; }\n") == "b c");
  CHECK(refuse("thread_pool pool_1 threads=4;\nhttp { split_clients $request_uri $disk { 50% \"1;x\"; * 2; }\n"
               "server { location / { aio threads=pool_$disk; } } }\n") == "1;x");
}

TEST_CASE("clerk import maps several thread_pool directives, aio threads=pool_$disk and split_clients") {
  const auto conf = parse_text(
      "thread_pool pool_1 threads=16;\n"
      "thread_pool pool_2 threads=16;\n"
      "thread_pool pool_3 threads=16 max_queue=100;\n"
      "http {\n"
      "  split_clients $request_uri $disk {\n"
      "    33.3% 1;\n"
      "    33.3% 2;\n"
      "    * 3;\n"
      "  }\n"
      "  server { location / { sendfile on; aio threads=pool_$disk; } }\n"
      "}\n"
      "events {}\n");
  const cli::ImportedNginx n = cli::import_nginx(conf, cli::ImportOptions{});
  const models::Scenario sc = load_text("include = \"@hardware/edge-sata-ssd\"\n" + n.nginx_toml + "\n[dataset]\n" +
                                        n.dataset_toml + "files = 10\nfile_size = 4096\n" +
                                        "[clients.c]\nthreads = 1\nconnections = 1\npath = \"random\"\n");
  CHECK(sc.nginx.aio_threads_pool == "pool_$disk");
  CHECK(sc.nginx.thread_pool.name == "pool_1");
  REQUIRE(sc.nginx.more_thread_pools.size() == 2);
  CHECK(sc.nginx.more_thread_pools[1].name == "pool_3");
  CHECK(sc.nginx.more_thread_pools[1].max_queue == 100);
  CHECK(sc.nginx.split_clients.variable == "$disk");
  REQUIRE(sc.nginx.split_clients.parts.size() == 3);
  CHECK(sc.nginx.split_clients.parts[0].percent == 3330);
  CHECK(sc.nginx.split_clients.parts[2].percent == 0);
  CHECK(sc.nginx.split_clients.parts[2].value == "3");
  CHECK(n.nginx_toml.find("t.conf:5: split_clients") != std::string::npos);
  CHECK_FALSE(has(n.warnings, "split_clients"));
  // A variable no split_clients sets, and a share NGINX would refuse.
  CHECK(refusal("http { aio threads=pool_$x; }\n") == "t.conf:1 threads=pool_$x");
  CHECK(refusal("thread_pool pool_a;\nhttp { split_clients $request_uri $d { 33.333% a; }\naio threads=pool_$d; }\n") ==
        "t.conf:2 33.333%");
  // A pool declared twice, as NGINX refuses it (ngx_thread_pool_add); the fuzzer's find.
  CHECK(refusal("thread_pool disk threads=64;\nthread_pool disk threads=8;\nhttp { aio threads=disk; }\n") ==
        "t.conf:2 disk");
}

TEST_CASE("clerk import reads Debian's, the thread-pools article's and a caching proxy's style of nginx.conf") {
  common::TempDir dir("/tmp/clerk-import-test-");
  SECTION("Debian's: worker_processes auto, site files by glob") {
    std::vector<std::string> warnings;
    const auto a = import_args(CLERK_TEST_DATA "/import/debian/nginx.conf", dir.file("d.toml"));
    const models::Scenario sc = load_text(cli::imported_scenario(a, &warnings));
    CHECK(sc.nginx.worker_processes == sc.hardware.logical_cpus);
    CHECK(sc.nginx.keepalive_requests == 1000);
    CHECK(sc.root == "/var/www/html");
    CHECK_FALSE(sc.nginx.aio->thread_pool);
    CHECK(has(warnings, "gzip on"));
    CHECK(has(warnings, "keepalive.conf:2 keepalive_timeout 65"));
    // events { worker_connections 768; } becomes its key, without a warning.
    CHECK(sc.nginx.worker_connections == 768);
    for (const std::string& w : warnings) CHECK(w.find("worker_connections") == std::string::npos);
  }
  SECTION("the article's: a named pool") {
    const models::Scenario sc =
        load_text(cli::imported_scenario(import_args(CLERK_TEST_DATA "/import/article/nginx.conf", dir.file("a.toml"))));
    CHECK(sc.nginx.worker_processes == 16);
    CHECK_FALSE(sc.nginx.accept->accept_mutex);
    CHECK(sc.nginx.aio->thread_pool);
    CHECK(sc.nginx.thread_pool.name == "disk");
    CHECK(sc.nginx.thread_pool.threads == 64);
    CHECK(sc.nginx.sendfile_max_chunk == 512 * 1024);
    CHECK(sc.root == "/storage");
    // No worker_connections in its events block: NGINX's default, 512 (DEFAULT_CONNECTIONS).
    CHECK(sc.nginx.worker_connections == 512);
  }
  SECTION("a static server: directio and open_file_cache become their keys, each from its line") {
    std::vector<std::string> warnings;
    const auto a = import_args(CLERK_TEST_DATA "/import/static/nginx.conf", dir.file("s.toml"));
    const std::string text = cli::imported_scenario(a, &warnings);
    const models::Scenario sc = load_text(text);
    CHECK(sc.nginx.directio == 4u << 20);
    CHECK(sc.nginx.directio_alignment == 4096);
    CHECK(sc.nginx.output_buffers_number == 2);
    CHECK(sc.nginx.output_buffers_size == 65536);
    CHECK(sc.nginx.open_file_cache.enabled);
    CHECK(sc.nginx.open_file_cache.max == 1000);
    CHECK(sc.nginx.open_file_cache.inactive_s == 20);
    CHECK(sc.nginx.open_file_cache.valid_s == 30);
    CHECK(sc.nginx.open_file_cache.min_uses == 2);
    CHECK(sc.nginx.open_file_cache.errors);
    CHECK(sc.nginx.worker_connections == 4096);
    CHECK(has({text}, "static/nginx.conf:6: worker_connections 4096"));
    CHECK(has({text}, "static/nginx.conf:22: directio 4m"));
    CHECK(has({text}, "static/nginx.conf:12: open_file_cache max=1000 inactive=20s"));
    for (const std::string& w : warnings) {
      CHECK(w.find("directio") == std::string::npos);
      CHECK(w.find("open_file_cache") == std::string::npos);
    }
  }
  SECTION("aio on with directio and worker_aio_requests: Linux native AIO, no warning") {
    std::ofstream(dir.file("aio-on.conf"))
        << "events {\n  worker_aio_requests 64;\n}\nhttp {\n  aio on;\n  directio 8m;\n}\n";
    std::vector<std::string> warnings;
    const models::Scenario sc =
        load_text(cli::imported_scenario(import_args(dir.file("aio-on.conf"), dir.file("o.toml")), &warnings));
    CHECK(sc.nginx.directio == 8u << 20);
    CHECK(sc.nginx.aio->native_aio);
    CHECK_FALSE(sc.nginx.aio->thread_pool);
    CHECK(sc.nginx.worker_aio_requests == 64);
    for (const std::string& w : warnings) CHECK(w.find("aio") == std::string::npos);
  }
  SECTION("aio on without directio: native AIO, said to read every file in the worker") {
    std::ofstream(dir.file("aio-on.conf")) << "http {\n  aio on;\n}\nevents {}\n";
    std::vector<std::string> warnings;
    const models::Scenario sc =
        load_text(cli::imported_scenario(import_args(dir.file("aio-on.conf"), dir.file("o.toml")), &warnings));
    CHECK(sc.nginx.aio->native_aio);
    CHECK(sc.nginx.directio == 0);
    CHECK(sc.nginx.worker_aio_requests == 32);
    CHECK(has(warnings, "aio-on.conf:2 aio on: Linux native AIO reads without blocking only files read with directio"));
  }
  SECTION("a caching proxy: what is not modelled says so") {
    std::vector<std::string> warnings;
    const auto a = import_args(CLERK_TEST_DATA "/import/proxy/nginx.conf", dir.file("p.toml"));
    const models::Scenario sc = load_text(cli::imported_scenario(a, &warnings));
    CHECK(sc.nginx.accept->reuseport);
    CHECK(sc.nginx.multi_accept);
    CHECK(sc.nginx.keepalive_requests == 500);
    CHECK(has(warnings, "proxy_cache_path /var/cache/nginx levels=1:2") );
    CHECK(has(warnings, "max_size=10g"));
    CHECK(has(warnings, "split_clients"));
    // In another location than the one modelled: said, not set.
    CHECK(has(warnings, "open_file_cache max=10000 inactive=30s: differs from the modelled location's"));
    CHECK(has(warnings, "directio 4m: differs from the modelled location's"));
    CHECK(sc.nginx.directio == 0);
    CHECK_FALSE(sc.nginx.open_file_cache.enabled);
    CHECK(has(warnings, "proxy_pass"));
  }
}

TEST_CASE("clerk import: a syntax error is exit 2 and writes nothing, nor replaces what was there") {
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("bad.conf")) << "events {\n  multi_accept on;\n";
  const std::string out = dir.file("out.toml");
  CHECK(cli::import_command(import_args(dir.file("bad.conf"), out)) == 2);
  CHECK_FALSE(fs::exists(out));
  std::ofstream(out) << "kept\n";
  CHECK(cli::import_command(import_args(dir.file("bad.conf"), out)) == 2);
  std::ifstream in(out);
  std::string first;
  std::getline(in, first);
  CHECK(first == "kept");
  // Nothing left behind: only the conf and the old file.
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 2);
  // A good file replaces it.
  std::ofstream(dir.file("good.conf")) << "worker_processes 3;\nhttp { sendfile on; }\nevents {}\n";
  CHECK(cli::import_command(import_args(dir.file("good.conf"), out)) == 0);
  CHECK(models::load_scenario(out).nginx.worker_processes == 3);
}

namespace {

// The [nginx] values realrun's nginx.conf carries (nginx_conf.cpp writes a
// directive for each), as loaded, one "key = value" each. epoll_exclusive,
// aio_open, cache_fill_rate, proxy_cache, aio_nowait and io_uring are no
// directive NGINX 1.22 has: realrun notes them instead. directio's
// companions are written only with directio on, as nginx_conf.cpp does.
std::vector<std::string> written_keys(const models::Scenario& s) {
  const models::NginxConfig& n = s.nginx;
  std::vector<std::string> k = {
      "version = " + n.version,
      fmt::format("worker_processes = {}", n.worker_processes),
      fmt::format("accept_mutex = {}, reuseport = {}", n.accept->accept_mutex, n.accept->reuseport),
      fmt::format("accept_mutex_delay = {}ms", std::lround(n.accept_mutex_delay_s * 1000)),
      fmt::format("multi_accept = {}", n.multi_accept),
      fmt::format("epoll_events = {}", n.epoll_events),
      fmt::format("sendfile = {}", n.sendfile),
      fmt::format("sendfile_max_chunk = {}", n.sendfile_max_chunk),
      fmt::format("keepalive_requests = {}", n.keepalive_requests),
      fmt::format("aio = {}", n.aio->name),
      fmt::format("directio = {}", n.directio),
      "root = " + s.root};
  if (n.directio) {
    k.push_back(fmt::format("directio_alignment = {}", n.directio_alignment));
    k.push_back(fmt::format("output_buffers = {} {}", n.output_buffers_number, n.output_buffers_size));
  }
  const models::OpenFileCacheSpec& o = n.open_file_cache;
  k.push_back(o.enabled ? fmt::format("open_file_cache = max={} inactive={}s valid={}s min_uses={} errors={}", o.max,
                                      o.inactive_s, o.valid_s, o.min_uses, o.errors)
                        : "open_file_cache = off");
  if (n.aio->thread_pool) {
    k.push_back("aio threads pool = " + n.aio_threads_pool);
    std::vector<models::ThreadPoolConfig> pools = {n.thread_pool};
    pools.insert(pools.end(), n.more_thread_pools.begin(), n.more_thread_pools.end());
    for (const models::ThreadPoolConfig& t : pools)
      k.push_back(fmt::format("thread_pool {} threads={} max_queue={}", t.name, t.threads, t.max_queue));
  }
  if (n.split_clients.enabled()) {
    std::string parts;
    for (const models::SplitPart& p : n.split_clients.parts) parts += fmt::format(" {}:{}", p.percent, p.value);
    k.push_back("split_clients " + n.split_clients.key + " " + n.split_clients.variable + parts);
  }
  return k;
}

// The committed scenarios realrun runs: 9x, local, and the alternatives
// realrun can write (neither refusal applies), and the reuseport and
// Cloudflare studies (reuseport on, accept_mutex on and off, aio_open).
std::vector<fs::path> round_trip_scenarios() {
  std::vector<fs::path> files;
  for (const char* folder : {"nginx-9x", "local", "alternatives", "reuseport", "cloudflare"})
    for (const auto& e : fs::directory_iterator(fs::path(CLERK_SCENARIOS) / folder))
      if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("clerk import round-trips the nginx.conf realrun writes for the committed scenarios realrun can run") {
  std::size_t tried = 0;
  for (const fs::path& file : round_trip_scenarios()) {
    const models::Scenario want = models::load_scenario(file.string());
    if (!testbed::real_run_refusal(want).empty() || !testbed::nginx_refusal(want).empty()) continue;
    ++tried;
    DYNAMIC_SECTION(file.parent_path().filename().string() + "/" + file.filename().string()) {
      common::TempDir dir("/tmp/clerk-import-test-");
      testbed::realrun::NginxConfParams params;
      params.data_dir = want.root;
      params.run_dir = dir.path();
      std::ofstream(dir.file("nginx.conf")) << testbed::realrun::nginx_conf(want, params).text;
      const auto a = import_args(dir.file("nginx.conf"), dir.file("back.toml"), want.nginx.version);
      CHECK(written_keys(load_text(cli::imported_scenario(a))) == written_keys(want));
    }
  }
  // 9x and local (9, the small-files pair and its common file among them), the alternatives but aio on, io_uring,
  // aio_nowait and FreeBSD (6), reuseport (11), Cloudflare (4).
  CHECK(tried == 30);
}

TEST_CASE("nginx.conf includes that multiply without a loop stop at kMaxIncludedFiles") {
  // Each file includes the next twice: 2^13 reads of the last, no loop.
  std::map<std::string, std::string> files;
  for (int i = 0; i < 13; ++i)
    files[std::to_string(i) + ".conf"] = "include " + std::to_string(i + 1) + ".conf;\ninclude " + std::to_string(i + 1) + ".conf;\n";
  files["13.conf"] = "x 1;\n";
  const SyntaxError e = error_of("include 0.conf;\n", files);
  CHECK(std::string(e.what()).find("more than 4096 files included") != std::string::npos);
}

TEST_CASE("nginx.conf: with directio, output_buffers not a multiple of directio_alignment is refused at its line") {
  CHECK(refusal("http {\n  directio 4m;\n  output_buffers 2 1000;\n}\n") == "t.conf:3 1000");
  CHECK(refusal("http {\n  directio 4m;\n  directio_alignment 4k;\n  output_buffers 2 6k;\n}\n") == "t.conf:4 6k");
  // The release's 2 32k with a 64k alignment: the alignment is named.
  CHECK(refusal("http {\n  directio 4m;\n  directio_alignment 64k;\n}\n") == "t.conf:3 64k");
  CHECK(refusal("http {\n  directio 4m;\n  directio_alignment 64k;\n  output_buffers 1 128k;\n}\n") == "no error");
  CHECK(refusal("http {\n  directio off;\n  output_buffers 2 1000;\n}\n") == "no error");
}

TEST_CASE("nginx.conf: open_file_cache_valid and inactive= in ms are refused, as ngx_parse_time(..., 1) does") {
  CHECK(refusal("http {\n  open_file_cache_valid 1500ms;\n}\n") == "t.conf:2 1500ms");
  CHECK(refusal("http {\n  open_file_cache_valid 2000ms;\n}\n") == "t.conf:2 2000ms");
  CHECK(refusal("http {\n  open_file_cache max=10 inactive=500ms;\n}\n") == "t.conf:2 500ms");
  CHECK(refusal("http {\n  open_file_cache max=10 inactive=1m30s;\n  open_file_cache_valid 45;\n}\n") == "no error");
  // accept_mutex_delay is read in milliseconds: ms stays valid there.
  CHECK(refusal("events {\n  accept_mutex_delay 250ms;\n}\n", true) == "no error");
}

TEST_CASE("nginx.conf: perl_set and js_set take no block, another module's block is read and listed as ignored") {
  // perl_set is NGX_CONF_TAKE2 and js_set NGX_CONF_TAKE23: `;`, no block.
  const auto conf = parse_text("http {\n  perl_set $a 'sub { return 1; }';\n  js_set $b main.b;\n}\n");
  REQUIRE(conf.size() == 1);
  CHECK(conf[0].children.size() == 2);
  CHECK(error_of("http {\n  js_set $b main.b { }\n}\n").line() == 2);
  // A directive known to take no block, written with one, is still an error.
  CHECK(error_of("http {\n  sendfile on { }\n}\n").token() == "on");
  // nginx-rtmp's blocks: read as written; the outer block is ignored, not what it holds.
  const auto rtmp = parse_text(
      "rtmp {\n  server {\n    listen 1935;\n    application live {\n      live on;\n    }\n  }\n}\n"
      "http {\n  server {\n    location / { sendfile on; }\n  }\n}\nevents {}\n");
  REQUIRE(rtmp.size() == 3);
  CHECK(rtmp[0].block);
  CHECK(rtmp[0].children[0].children[1].name == "application");
  CHECK(rtmp[0].children[0].children[1].block);
  const cli::ImportedNginx n = cli::import_nginx(rtmp, cli::ImportOptions{});
  CHECK(has(n.ignored, "rtmp (t.conf:1)"));
  CHECK_FALSE(has(n.ignored, "application"));
  CHECK_FALSE(has(n.ignored, "listen"));
  CHECK_FALSE(has(n.ignored, "live"));
}

TEST_CASE("nginx.conf includes are read to at most 16 MiB whatever stat() says, and globs counted before reading") {
  common::TempDir dir("/tmp/clerk-import-test-");
  const auto error_in = [&](const std::string& text) {
    std::ofstream(dir.file("nginx.conf")) << text;
    try {
      nginx_conf::parse_file(dir.file("nginx.conf"));
    } catch (const SyntaxError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // procfs files report size 0: pagemap has 8 bytes per page of the address
  // space (far more than 16 MiB), status a few lines that are no nginx.conf.
  REQUIRE(fs::exists("/proc/self/pagemap"));
  CHECK(error_in("include /proc/self/pagemap;\n").find("\"/proc/self/pagemap\" is larger than 16 MiB") != std::string::npos);
  CHECK(error_in("include /proc/self/status;\n").find("/proc/self/status:") != std::string::npos);
  // 4097 matches, the last a folder: refused for their number, none read.
  fs::create_directories(dir.file("many"));
  for (std::size_t i = 0; i < nginx_conf::kMaxIncludedFiles; ++i)
    std::ofstream(dir.file(fmt::format("many/{:05}.conf", i))) << "x 1;\n";
  fs::create_directories(dir.file("many/99999.conf"));
  const std::string many = error_in("include many/*.conf;\n");
  CHECK(many.find("more than 4096 files included in all (4097 match") != std::string::npos);
  CHECK(many.find("not a regular file") == std::string::npos);
}

TEST_CASE("clerk import refuses an nginx.conf without an events block, as NGINX does, at the main file's last line") {
  // ngx_event_init_conf: "no \"events\" section in configuration", found once the whole file is read.
  const std::string text = "worker_processes 2;\nhttp {\n  sendfile on;\n}\n";
  CHECK(refusal(text, true) == "t.conf:4 events");
  CHECK(refusal(text + "events {\n}\n", true) == "no error");
  // An events block an include brings in is the file's.
  const auto included = parse_text(text + "include ev.conf;\n", {{"ev.conf", "events {\n  worker_connections 64;\n}\n"}});
  CHECK(cli::import_nginx(included, cli::ImportOptions{}).nginx_toml.find("ev.conf:2: worker_connections 64") !=
        std::string::npos);
  // clerk import: exit 2, the message names the file and the line, nothing written.
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("no-events.conf")) << text;
  const std::string out = dir.file("out.toml");
  const Imported run = run_import(import_args(dir.file("no-events.conf"), out));
  CHECK(run.status == 2);
  CHECK(run.err.find(dir.file("no-events.conf") + ":4: no \"events\" section in configuration") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("clerk import notes NGINX's default worker_connections, 512, when the events block does not set it") {
  const cli::ImportedNginx n = cli::import_nginx(parse_text("http {}\nevents {\n  multi_accept on;\n}\n"), {});
  CHECK(n.nginx_toml.find("worker_connections = 512") != std::string::npos);
  REQUIRE(n.notes.size() == 1);
  CHECK(n.notes.front().find("t.conf:2: events has no worker_connections") != std::string::npos);
  CHECK(n.notes.front().find("512") != std::string::npos);
  CHECK(cli::import_nginx(parse_text("events {\n  worker_connections 64;\n}\n"), {}).notes.empty());
  // clerk import prints it, and the file is written.
  common::TempDir dir("/tmp/clerk-import-test-");
  const std::string out = dir.file("a.toml");
  const Imported run = run_import(import_args(CLERK_TEST_DATA "/import/article/nginx.conf", out));
  CHECK(run.status == 0);
  CHECK(run.err.find("clerk import: note: " CLERK_TEST_DATA "/import/article/nginx.conf:") != std::string::npos);
  CHECK(run.err.find("written as NGINX's default, worker_connections = 512") != std::string::npos);
  CHECK(models::load_scenario(out).nginx.worker_connections == 512);
}

TEST_CASE("clerk import refuses worker_connections NGINX refuses: fewer than the listening sockets + 1") {
  // ngx_event_init_conf: "N worker_connections are not enough for M listening sockets".
  const std::string two_ports = "http {\n  server { listen 80; }\n  server { listen 127.0.0.1:8080 reuseport; }\n}\n";
  CHECK(refusal("events {\n  worker_connections 2;\n}\n" + two_ports, true) == "t.conf:2 2");
  CHECK(refusal("events {\n  worker_connections 3;\n}\n" + two_ports, true) == "no error");
  // The same port twice is one socket; IPv6's wildcard another; a server without listen is *:80.
  const std::string one_port = "http {\n  server { listen 80; }\n  server { listen 0.0.0.0:80; }\n}\n";
  CHECK(refusal("events { worker_connections 2; }\n" + one_port, true) == "no error");
  CHECK(refusal("events { worker_connections 2; }\nhttp {\n  server { listen 80; listen [::]:80; }\n}\n", true) ==
        "t.conf:1 2");
  CHECK(refusal("events { worker_connections 1; }\nhttp {\n  server { root /srv; }\n}\n", true) == "t.conf:1 1");
  CHECK(refusal("events { worker_connections 2; }\nhttp {\n  server { root /srv; }\n}\n", true) == "no error");
  // A file with no server: the scenario still listens on one socket, as the loader counts.
  CHECK(refusal("events { worker_connections 1; }\n", true) == "t.conf:1 1");
  // A stream server's socket counts too.
  CHECK(refusal("events { worker_connections 2; }\nhttp { server { listen 80; } }\nstream { server { listen 53 udp; } }\n",
                true) == "t.conf:1 2");
  // The message says what NGINX says.
  try {
    cli::import_nginx(parse_text("events { worker_connections 2; }\n" + two_ports), {});
    FAIL("no refusal");
  } catch (const SyntaxError& e) {
    CHECK(std::string(e.what()).find("2 worker_connections are not enough for 2 listening sockets") != std::string::npos);
  }
}

TEST_CASE("clerk import refuses a second worker_processes or events block, as nginx -t does") {
  // ngx_set_worker_processes and ngx_events_block: "is duplicate".
  CHECK(refusal("worker_processes 2;\nworker_processes 4;\n") == "t.conf:2 worker_processes");
  CHECK(refusal("events {\n}\nhttp {}\nevents {\n  worker_connections 64;\n}\n", true) == "t.conf:4 events");
  CHECK(refusal("http {}\nhttp {}\n") == "t.conf:2 http");
  // The message says what NGINX says, and where the first one is.
  try {
    cli::import_nginx(parse_text("worker_processes 2;\nworker_processes 4;\nevents {}\n"), {});
    FAIL("no refusal");
  } catch (const SyntaxError& e) {
    CHECK(std::string(e.what()).find("t.conf:2: \"worker_processes\" directive is duplicate (at t.conf:1)") !=
          std::string::npos);
  }
  // An included file's directives are the including block's.
  const auto included = parse_text("events {\n  worker_connections 64;\n  include more.conf;\n}\n",
                                   {{"more.conf", "\nworker_connections 128;\n"}});
  try {
    cli::import_nginx(included, {});
    FAIL("no refusal");
  } catch (const SyntaxError& e) {
    CHECK(fmt::format("{}:{} {}", e.file(), e.line(), e.token()) == "more.conf:2 worker_connections");
  }
  // clerk import: exit 2, the file and the line named, nothing written.
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("twice.conf")) << "events {}\nworker_processes 1;\nworker_processes 2;\n";
  const std::string out = dir.file("out.toml");
  const Imported run = run_import(import_args(dir.file("twice.conf"), out));
  CHECK(run.status == 2);
  CHECK(run.err.find(dir.file("twice.conf") + ":3: \"worker_processes\" directive is duplicate") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("clerk import refuses every directive it maps that NGINX takes once per block, given twice in one") {
  // Each is read by a handler that refuses a value already set: the
  // ngx_conf_set_*_slot functions (flag, num, msec, sec, size, off, bufs) and
  // ngx_event_connections, ngx_event_use, ngx_http_core_set_aio, _directio, _open_file_cache, _root.
  const std::vector<std::string> events = {"accept_mutex on",     "accept_mutex_delay 500ms", "multi_accept on",
                                           "worker_connections 64", "use epoll",             "epoll_events 64",
                                           "worker_aio_requests 32"};
  const std::vector<std::string> http = {"sendfile on",       "sendfile_max_chunk 1m",   "keepalive_requests 100",
                                         "aio threads",       "aio_write on",            "directio 4m",
                                         "directio_alignment 512", "output_buffers 2 32k", "open_file_cache max=10",
                                         "open_file_cache_valid 60s", "open_file_cache_min_uses 1",
                                         "open_file_cache_errors on", "root /srv"};
  for (const std::string& d : events) {
    INFO(d);
    const std::string name = d.substr(0, d.find(' '));
    CHECK(refusal("events {\n  " + d + ";\n}\n", true) == "no error");
    CHECK(refusal("events {\n  " + d + ";\n  " + d + ";\n}\n", true) == "t.conf:3 " + name);
  }
  for (const std::string& d : http) {
    INFO(d);
    const std::string name = d.substr(0, d.find(' '));
    CHECK(refusal("http {\n  " + d + ";\n}\n") == "no error");
    CHECK(refusal("http {\n  " + d + ";\n  " + d + ";\n}\n") == "t.conf:3 " + name);
    // In a location, too; in another block it is NGINX's merge, not a duplicate.
    CHECK(refusal("http {\n  server {\n    location / {\n      " + d + ";\n      " + d + ";\n    }\n  }\n}\n") ==
          "t.conf:5 " + name);
    CHECK(refusal("http {\n  " + d + ";\n  server {\n    " + d + ";\n    location / { " + d + "; }\n  }\n}\n") ==
          "no error");
  }
  // root and alias set one value (ngx_http_core_root): the second of either is refused.
  CHECK(refusal("http { server { location /a/ {\n  root /a;\n  alias /b/;\n} } }\n") == "t.conf:3 alias");
  // What may repeat does: listen, index, thread pools of other names.
  CHECK(refusal("thread_pool a threads=2;\nthread_pool b threads=2;\n"
                "http { server {\n  listen 80;\n  listen 8080;\n  index a.html;\n  index b.html;\n} }\n") == "no error");
  // Another module's block is not looked into (nginx-rtmp's own directives).
  CHECK(refusal("rtmp {\n  sendfile on;\n  sendfile on;\n}\n") == "no error");
}

TEST_CASE("clerk import refuses thread_pool threads=0 even when no aio uses the pool, as ngx_thread_pool does") {
  CHECK(refusal("thread_pool spare threads=0;\n") == "t.conf:1 0");
  CHECK(refusal("thread_pool spare threads=4 max_queue=x;\n") == "t.conf:1 x");
  CHECK(refusal("thread_pool spare threads=4;\n") == "no error");
}

TEST_CASE("nginx.conf includes that are symbolic link loops are reported as loops, not missing files") {
  common::TempDir dir("/tmp/clerk-import-test-");
  fs::create_symlink(dir.file("loop.conf"), dir.file("loop.conf"));  // a link to itself: ELOOP
  std::ofstream(dir.file("nginx.conf")) << "events {}\nhttp {\n  include loop.conf;\n}\n";
  try {
    nginx_conf::parse_file(dir.file("nginx.conf"));
    FAIL("no error");
  } catch (const SyntaxError& e) {
    CHECK(e.file() == dir.file("nginx.conf"));
    CHECK(e.line() == 3);
    CHECK(e.token() == "loop.conf");
    CHECK(std::string(e.what()).find("a symbolic link loop (Too many levels of symbolic links)") != std::string::npos);
    CHECK(std::string(e.what()).find("no such file") == std::string::npos);
  }
  // A missing file is still a missing file.
  std::ofstream(dir.file("nginx.conf")) << "events {}\ninclude missing.conf;\n";
  CHECK_THROWS_WITH(nginx_conf::parse_file(dir.file("nginx.conf")), Catch::Contains("no such file"));
  // The main file a loop: clerk import says so, exit 2.
  const Imported run = run_import(import_args(dir.file("loop.conf"), dir.file("out.toml")));
  CHECK(run.status == 2);
  CHECK(run.err.find(dir.file("loop.conf") + ": cannot open \"" + dir.file("loop.conf") + "\": a symbolic link loop") !=
        std::string::npos);
}

TEST_CASE("clerk import shows the control characters and bytes of a hostile nginx.conf escaped in its errors") {
  common::TempDir dir("/tmp/clerk-import-test-");
  const std::string out = dir.file("out.toml");
  const auto error_of_import = [&](const std::string& conf) {
    std::ofstream(dir.file("evil.conf"), std::ios::binary) << conf;
    const Imported run = run_import(import_args(dir.file("evil.conf"), out));
    CHECK(run.status == 2);
    return run.err;
  };
  // An escape sequence, a NUL (which cut the message short) and a byte that is not UTF-8.
  const std::string e1 = error_of_import(std::string("events {}\nworker_processes \x1b[2J") + '\0' + "\xff;\n");
  CHECK(e1.find("invalid value \"\\x1b[2J\\0\\xff\" in \"worker_processes\"") != std::string::npos);
  CHECK(e1.find("(at \"\\x1b[2J\\0\\xff\")") != std::string::npos);
  CHECK(e1.find('\x1b') == std::string::npos);
  CHECK(e1.find('\0') == std::string::npos);
  // A newline in a quoted word, and one a \n escape makes: one line of message.
  const std::string e2 = error_of_import("events {}\nworker_processes \"1\nclerk: all good\\n\";\n");
  CHECK(e2.find("invalid value \"1\\nclerk: all good\\n\"") != std::string::npos);
  CHECK(std::count(e2.begin(), e2.end(), '\n') == 1);
  // A directive's name.
  const std::string e3 = error_of_import("events {}\n\"evil\x1b]0;title\x07\" {\n");
  CHECK(e3.find("to close \"evil\\x1b]0;title\\x07\"") != std::string::npos);
  CHECK(e3.find('\x1b') == std::string::npos);
  // An include's name, with a newline in it.
  const std::string e4 = error_of_import("events {}\ninclude \"missing\n.conf\";\n");
  CHECK(e4.find("missing\\n.conf\": no such file") != std::string::npos);
}

TEST_CASE("clerk import refuses a root or alias with a control character, which the loader's dataset.root refuses") {
  // Found by fuzz_import in stop 43's CI: a NUL in root was imported into a
  // scenario the loader then refused (config_loader.cpp, dataset.root).
  cli::ImportOptions options;
  const auto refused = [&](const std::string& text) {
    try {
      cli::import_nginx(parse_text(text), options);
    } catch (const SyntaxError& e) {
      CHECK(std::string(e.what()).find("control character") != std::string::npos);
      return e.token();
    }
    return std::string("no error");
  };
  CHECK(refused(std::string("events {}\nhttp { root \"/srv/a") + '\0' + "b\"; }\n") == "/srv/a\\0b");
  CHECK(refused("events {}\nhttp { root \"/srv/\\tw\"; }\n") == "/srv/\\tw");  // the \t escape: a tab
  CHECK(refused("events {}\nhttp { server { location /x/ { alias \"/srv/\x1b[2Jw/\"; } } }\n") == "/srv/\\x1b[2Jw/");
  CHECK(refused("events {}\nhttp { root \"/srv/\x7fw\"; }\n") == "/srv/\\x7fw");
  // What the loader takes, the import takes: spaces and UTF-8 in a path.
  CHECK(refused("events {}\nhttp { root \"/srv/my files/caf\xc3\xa9\"; }\n") == "no error");
}

TEST_CASE("clerk import refuses an nginx.conf that begins with a byte order mark, as NGINX does") {
  // Nothing in ngx_conf_file.c skips one: the mark is the first word's start,
  // an unknown directive. The main file and an included one alike, at line 1.
  const std::string bom = "\xef\xbb\xbf";
  const SyntaxError main = error_of(bom + "events {}\n");
  CHECK(main.file() == "t.conf");
  CHECK(main.line() == 1);
  CHECK(main.token() == bom);
  CHECK(std::string(main.what()).find("byte order mark") != std::string::npos);
  CHECK(error_of("events {}\nhttp {\n  include site.conf;\n}\n", {{"site.conf", bom + "server {}\n"}}).file() ==
        "site.conf");
  // A mark later in a file is a word's bytes, as NGINX reads them.
  CHECK(parse_text("x " + bom + ";\n").front().args == std::vector<std::string>{bom});
}

TEST_CASE("clerk import refuses an output that is an included file, an empty one too, or the hardware profile") {
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("nginx.conf")) << "events {}\ninclude empty.conf;\nhttp { sendfile on; }\n";
  std::ofstream(dir.file("empty.conf")) << "";
  // An empty include is valid NGINX: it adds nothing.
  CHECK(cli::import_command(import_args(dir.file("nginx.conf"), dir.file("ok.toml"))) == 0);
  CHECK(models::load_scenario(dir.file("ok.toml")).nginx.sendfile);
  CHECK(parse_text("include e.conf;\nevents {}\n", {{"e.conf", ""}}).size() == 1);
  // Written over, the include would be lost: refused, left empty.
  CHECK(cli::import_command(import_args(dir.file("nginx.conf"), dir.file("empty.conf"))) == 2);
  CHECK(fs::file_size(dir.file("empty.conf")) == 0);
  // The profile --hardware names (here one that includes a preset), refused and kept.
  fs::create_directories(dir.file("hardware"));
  const std::string profile = dir.file("hardware/mine.toml");
  std::ofstream(profile) << "include = \"@hardware/edge-sata-ssd\"\n";
  const auto before = fs::file_size(profile);
  cli::ImportArgs a = import_args(dir.file("nginx.conf"), profile);
  a.scenario.hardware = profile;
  CHECK(cli::import_command(a) == 2);
  CHECK(fs::file_size(profile) == before);
  // Another output with that profile is written.
  a.scenario.file = dir.file("mine-out.toml");
  CHECK(cli::import_command(a) == 0);
}

TEST_CASE("clerk import refuses a directive it knows where NGINX does not allow it, at its line (probe 5, finding 3)") {
  // Each context as ngx_conf_handler checks the command's type bits
  // (cli/import/nginx_import.cpp, kAllowedIn): "is not allowed here".
  // Main-level directives (NGX_MAIN_CONF) elsewhere.
  CHECK(refusal("http {\n  worker_processes 8;\n}\n") == "t.conf:2 worker_processes");
  CHECK(refusal("events {\n  worker_processes 8;\n}\n", true) == "t.conf:2 worker_processes");
  CHECK(refusal("http { server { location / {\n  worker_processes 8;\n} } }\n") == "t.conf:2 worker_processes");
  CHECK(refusal("http { server { location / {\n  thread_pool default threads=99;\n  aio threads;\n} } }\n") ==
        "t.conf:2 thread_pool");
  CHECK(refusal("http {\n  worker_cpu_affinity auto;\n}\n") == "t.conf:2 worker_cpu_affinity");
  // Event directives (NGX_EVENT_CONF) outside events.
  CHECK(refusal("http {\n  worker_connections 1024;\n}\n") == "t.conf:2 worker_connections");
  CHECK(refusal("http { server { location / {\n  worker_connections 1024;\n} } }\n") == "t.conf:2 worker_connections");
  CHECK(refusal("multi_accept on;\n") == "t.conf:1 multi_accept");
  CHECK(refusal("http {\n  use epoll;\n}\n") == "t.conf:2 use");
  // http directives (NGX_HTTP_*_CONF) at the main level or in events.
  for (const std::string d : {"sendfile on", "aio threads", "directio 4m", "open_file_cache max=10", "root /srv",
                              "keepalive_requests 10", "output_buffers 2 32k", "index i.html"}) {
    INFO(d);
    const std::string name = d.substr(0, d.find(' '));
    CHECK(refusal("events {}\n" + d + ";\n", true) == "t.conf:2 " + name);
    CHECK(refusal("events {\n  " + d + ";\n}\n", true) == "t.conf:2 " + name);
  }
  // Blocks: server at the main level, events or http nested, events in http.
  CHECK(refusal("server {\n  listen 80;\n}\n") == "t.conf:1 server");
  CHECK(refusal("events {\n  events {}\n}\n", true) == "t.conf:2 events");
  CHECK(refusal("http {\n  http {}\n}\n") == "t.conf:2 http");
  CHECK(refusal("http {\n  events {}\n}\n", true) == "t.conf:2 events");
  CHECK(refusal("http { server {\n  server {}\n} }\n") == "t.conf:2 server");
  // http's own levels: listen only in a server, location not in http,
  // alias only in a location, split_clients and proxy_cache_path only in http.
  CHECK(refusal("http {\n  listen 80;\n}\n") == "t.conf:2 listen");
  CHECK(refusal("http {\n  location / {}\n}\n") == "t.conf:2 location");
  CHECK(refusal("http { server {\n  alias /srv/;\n} }\n") == "t.conf:2 alias");
  CHECK(refusal("http { server {\n  split_clients $uri $d { * a; }\n} }\n") == "t.conf:2 split_clients");
  CHECK(refusal("http { server {\n  proxy_cache_path /c keys_zone=c:1m;\n} }\n") == "t.conf:2 proxy_cache_path");
  // if: sendfile and root are allowed in a location's if (NGX_HTTP_LIF_CONF),
  // not in a server's (NGX_HTTP_SIF_CONF); aio in neither; no if in an if.
  CHECK(refusal("http { server { location / { if ($x) {\n  sendfile on;\n  root /srv;\n} } } }\n") == "no error");
  CHECK(refusal("http { server { if ($x) {\n  sendfile on;\n} } }\n") == "t.conf:2 sendfile");
  CHECK(refusal("http { server { location / { if ($x) {\n  aio threads;\n} } } }\n") == "t.conf:2 aio");
  CHECK(refusal("http { server { location / { if ($x) {\n  if ($y) {}\n} } } }\n") == "t.conf:2 if");
  // limit_except holds NGX_HTTP_LMT_CONF: root is not allowed, access_log and proxy_pass are.
  CHECK(refusal("http { server { location / { limit_except GET {\n  root /srv;\n} } } }\n") == "t.conf:2 root");
  CHECK(refusal("http { server { location / { limit_except GET {\n  access_log off;\n  proxy_pass http://u;\n} } } }\n") ==
        "no error");
  // Where NGINX allows them, as before; a location in a location too.
  CHECK(refusal("worker_processes 2;\nthread_pool p threads=4;\nevents { worker_connections 64; multi_accept on; }\n"
                "http {\n  sendfile on;\n  server {\n    listen 80;\n    root /srv;\n"
                "    location / {\n      aio threads=p;\n      location /a/ { alias /b/; }\n    }\n  }\n}\n", true) ==
        "no error");
  // An included file's directives are in the including block's context.
  const auto included = parse_text("events {}\nhttp {\n  include more.conf;\n}\n", {{"more.conf", "\nworker_processes 4;\n"}});
  try {
    cli::import_nginx(included, {});
    FAIL("no refusal");
  } catch (const SyntaxError& e) {
    CHECK(fmt::format("{}:{} {}", e.file(), e.line(), e.token()) == "more.conf:2 worker_processes");
    CHECK(std::string(e.what()).find("more.conf:2: \"worker_processes\" directive is not allowed here") != std::string::npos);
  }
  // Third-party directives are not checked (listed as ignored, as before),
  // nor what a block of another module (stream, upstream, rtmp) holds.
  CHECK(refusal("more_set_headers x;\nhttp {\n  lua_shared_dict d 1m;\n  server { vts_display on; }\n}\n") == "no error");
  CHECK(refusal("stream {\n  server {\n    listen 53 udp;\n  }\n}\nrtmp { server { listen 1935; } }\n"
                "http { upstream u {\n  server 127.0.0.1;\n} }\n") == "no error");
}

TEST_CASE("clerk import: a directive not allowed where it is written is exit 2, named, nothing written") {
  common::TempDir dir("/tmp/clerk-import-test-");
  std::ofstream(dir.file("w1.conf")) << "events { worker_connections 1024; }\nhttp {\n  worker_processes 8;\n"
                                        "  server { listen 80; }\n}\n";
  const std::string out = dir.file("w1.toml");
  const Imported run = run_import(import_args(dir.file("w1.conf"), out));
  CHECK(run.status == 2);
  CHECK(run.err.find(dir.file("w1.conf") + ":3: \"worker_processes\" directive is not allowed here") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("clerk import refuses split_clients shares NGINX refuses, used by aio or not") {
  // ngx_http_split_clients: "invalid percent value" for 0%; the block: the total past 100%.
  CHECK(refusal("http {\n  split_clients $uri $v {\n    60% a;\n    50% b;\n  }\n}\n") == "t.conf:4 50%");
  CHECK(refusal("http {\n  split_clients $uri $v {\n    0% a;\n    * b;\n  }\n}\n") == "t.conf:3 0%");
  CHECK(refusal("http {\n  split_clients $uri $v {\n    * a;\n    1% b;\n  }\n}\n") == "t.conf:4 1%");
  CHECK(refusal("http {\n  split_clients $uri $v {\n    50% a;\n    50% b;\n    * c;\n  }\n}\n") == "no error");
  CHECK(refusal("thread_pool p1 threads=2;\nthread_pool p2 threads=2;\nhttp {\n"
                "  split_clients $request_uri $disk {\n    70% 1;\n    40% 2;\n  }\n"
                "  server { location / { aio threads=p$disk; } }\n}\n") == "t.conf:6 40%");
}
