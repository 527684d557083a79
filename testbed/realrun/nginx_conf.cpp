#include "testbed/realrun/nginx_conf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/server/nginx_word.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {

namespace {

// Defense in depth behind the loader (models/server/nginx_word.h): every
// piece of scenario or command-line text written unquoted into the file is
// checked again here, so that no caller (a scenario built in code, a loader
// that missed a key) can add a directive of its own.
const std::string& word(const char* what, const std::string& text, bool variables = false) {
  if (!models::is_nginx_word(text, variables))
    throw RealRunError(fmt::format("refusing to write nginx.conf: {} \"{}\" is not one plain NGINX word ({})", what,
                                   comment_text(text), models::kNginxWordRule));
  return text;
}

// One path argument (root, pid, error_log, temp paths): `path` + `suffix`,
// written as it is when it holds only letters, digits and "_-./", else
// double-quoted. ngx_conf_read_token (ngx_conf_file.c) ends a bare word at
// whitespace, ';' or '{' and reads '}', '#', quotes, backslash and '$'
// specially; inside double quotes only '"' ends the word, a backslash makes
// the tokenizer pass over the next character, and on copying the word
// backslash-quote and two backslashes become '"' and one backslash (other
// pairs are kept, but for \n \t \r, which become control characters). So
// '"' and backslash are escaped with a backslash and everything else is
// literal ('$' sets no state inside quotes but for a '{' right after it,
// which quotes keep literal anyway). What cannot be written
// (nginx_path_problem) is refused.
std::string path_arg(const char* what, const std::string& path, std::string_view suffix, bool root = false) {
  if (const std::string why = nginx_path_problem(path, root); !why.empty())
    throw RealRunError(fmt::format("refusing to write nginx.conf: {} \"{}\" {}", what, comment_text(path), why));
  const std::string full = path + std::string(suffix);
  const bool plain = std::all_of(full.begin(), full.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           std::string_view("_-./").find(ch) != std::string_view::npos;
  });
  if (plain) return full;
  std::string quoted = "\"";
  for (const char ch : full) {
    if (ch == '"' || ch == '\\') quoted += '\\';
    quoted += ch;
  }
  return quoted + '"';
}

}  // namespace

std::string nginx_path_problem(std::string_view path, bool root) {
  if (path.empty()) return "is empty";
  if (std::any_of(path.begin(), path.end(), [](char ch) {
        const auto u = static_cast<unsigned char>(ch);
        return u < 0x20 || u == 0x7f;
      }))
    return "holds a control character (a newline, a tab, ...), which clerk does not write into the nginx.conf it "
           "runs as root; choose another";
  // ngx_http_core_root counts every '$' of root's value as a variable
  // (ngx_http_script_variables_count) and compiles it as a script: quoting
  // does not make a '$' literal there.
  if (root && path.find('$') != std::string_view::npos)
    return "holds '$', which NGINX's root directive reads as a variable, quoted or not; choose another";
  // ngx_conf_read_token refuses a word longer than its buffer
  // (NGX_CONF_BUFFER, 4096 bytes, quotes and the file names clerk adds
  // after the path included).
  if (path.size() > kNginxPathMax)
    return fmt::format("is longer than the {} bytes clerk writes as one NGINX argument (NGINX reads at most 4096, "
                       "NGX_CONF_BUFFER); choose a shorter one",
                       kNginxPathMax);
  return {};
}

// Text for a '#' comment line: a comment ends at the newline (ngx_conf_read_token),
// so every control character, newline included, becomes '?'.
std::string comment_text(std::string_view text) {
  std::string out(text);
  for (char& ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  return out;
}

std::uint32_t scenario_connections(const models::Scenario& scenario) {
  std::uint32_t total = 0;
  for (const auto& g : scenario.clients) total += g.threads == 0 ? 0 : g.connections / g.threads * g.threads;
  return total;
}

std::uint32_t worker_connections(const models::Scenario& scenario) {
  // nginx.worker_connections when the scenario sets it (the model limits
  // each worker to it). Otherwise: each connection is one fd per worker at
  // worst, plus files open for sendfile and the listening sockets: room for
  // every connection on one worker.
  const std::uint32_t set = scenario.nginx.worker_connections;
  return set ? set : std::max<std::uint32_t>(4096, 2 * scenario_connections(scenario) + 256);
}

NginxConf nginx_conf(const models::Scenario& scenario, const NginxConfParams& p) {
  const models::NginxConfig& n = scenario.nginx;
  NginxConf out;
  const std::uint32_t conns = scenario_connections(scenario);
  const std::uint32_t worker_connections = realrun::worker_connections(scenario);
  // listen backlog: NGINX's default 511, or enough for every connection
  // arriving at once (the kernel caps it at net.core.somaxconn).
  const std::uint32_t backlog = std::max<std::uint32_t>(511, conns);
  const bool threads = n.aio->thread_pool;
  const bool reuseport = n.accept->reuseport;

  std::string& c = out.text;
  c += "# Generated by clerk realrun for scenario " + comment_text(scenario.name) + "\n";
  c += "daemon off;            # clerk supervises the master\n";
  c += "master_process on;\n";
  if (p.as_root) c += "user root;             # workers read the data set and write run_dir's temp paths\n";
  // nginx.worker_processes
  c += fmt::format("worker_processes {};\n", n.worker_processes);
  c += fmt::format("worker_rlimit_nofile {};\n", 2 * worker_connections + 1024);
  const auto run_path = [&](std::string_view file) { return path_arg("the run directory", p.run_dir, file); };
  const std::string root = path_arg("the data directory", p.data_dir, "", true);
  c += fmt::format("pid {};\n", run_path("/nginx.pid"));
  c += fmt::format("error_log {} warn;\n", run_path("/error.log"));
  // nginx.thread_pool (used by aio threads only): thread_pool lives at main level.
  if (threads) {
    c += fmt::format("thread_pool {} threads={} max_queue={};\n", word("thread pool name", n.thread_pool.name), n.thread_pool.threads,
                     n.thread_pool.max_queue);
    for (const models::ThreadPoolConfig& t : n.more_thread_pools)  // [[nginx.thread_pool]]'s others
      c += fmt::format("thread_pool {} threads={} max_queue={};\n", word("thread pool name", t.name), t.threads, t.max_queue);
  }
  c += "\nevents {\n";
  c += "    use epoll;\n";
  c += fmt::format("    worker_connections {};\n", worker_connections);
  // nginx.accept_mutex: on, off, or "reuseport" (accept_mutex off + listen ... reuseport)
  c += fmt::format("    accept_mutex {};\n", n.accept->accept_mutex ? "on" : "off");
  // nginx.accept_mutex_delay
  c += fmt::format("    accept_mutex_delay {}ms;\n", static_cast<long>(std::lround(n.accept_mutex_delay_s * 1000)));
  // nginx.multi_accept
  c += fmt::format("    multi_accept {};\n", n.multi_accept ? "on" : "off");
  // nginx.epoll_events
  c += fmt::format("    epoll_events {};\n", n.epoll_events);
  c += "}\n\nhttp {\n";
  c += "    access_log off;\n";
  c += "    default_type application/octet-stream;\n";
  // Debian's build puts temp paths under /var/lib/nginx: keep them in run_dir.
  for (const char* t : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
    c += fmt::format("    {}_temp_path {};\n", t, run_path(fmt::format("/{}_temp", t)));
  // nginx.sendfile
  c += fmt::format("    sendfile {};\n", n.sendfile ? "on" : "off");
  // nginx.sendfile_max_chunk: 0 is "no limit" (NGINX 1.21.4 changed the default from 0 to 2m, so say it).
  c += fmt::format("    sendfile_max_chunk {};\n", n.sendfile_max_chunk);
  // nginx.keepalive_requests
  c += fmt::format("    keepalive_requests {};\n", n.keepalive_requests);
  c += "    keepalive_timeout 75s;\n";
  // nginx.directio, directio_alignment, output_buffers (written only when
  // directio is on, so that a scenario without it writes the file it did).
  if (n.directio) {
    c += fmt::format("    directio {};\n", n.directio);
    c += fmt::format("    directio_alignment {};\n", n.directio_alignment);
    c += fmt::format("    output_buffers {} {};\n", n.output_buffers_number, n.output_buffers_size);
  }
  // nginx.open_file_cache and its companions
  if (n.open_file_cache.enabled) {
    const models::OpenFileCacheSpec& o = n.open_file_cache;
    // Whole seconds: inactive= and open_file_cache_valid are ngx_parse_time(.., 1) and sec slots.
    c += fmt::format("    open_file_cache max={} inactive={}s;\n", o.max, std::llround(o.inactive_s));
    c += fmt::format("    open_file_cache_valid {}s;\n", std::llround(o.valid_s));
    c += fmt::format("    open_file_cache_min_uses {};\n", o.min_uses);
    c += fmt::format("    open_file_cache_errors {};\n", o.errors ? "on" : "off");
  }
  // nginx.split_clients: the block, line by line (split_clients.h).
  if (n.split_clients.enabled()) {
    c += fmt::format("    split_clients {} {} {{\n", word("split_clients key", n.split_clients.key, true),
                     word("split_clients variable", n.split_clients.variable, true));
    for (const models::SplitPart& part : n.split_clients.parts) {
      if (!part.value.empty()) word("split_clients value", part.value);
      c += part.percent ? fmt::format("        {}.{:02}% \"{}\";\n", part.percent / 100, part.percent % 100, part.value)
                        : fmt::format("        * \"{}\";\n", part.value);
    }
    c += "    }\n";
  }
  c += "    server {\n";
  c += fmt::format("        listen 127.0.0.1:{}{} backlog={};\n", p.port, reuseport ? " reuseport" : "", backlog);
  // dataset.root: the scenario's root is served from data_dir.
  c += fmt::format("        root {};\n", root);
  c += "        location / {\n";
  // nginx.aio: the mode's directive (aio_modes.h), with the scenario's pool if it has one.
  // aio threads=NAME as the scenario names it (pool_$disk), else its one pool's name.
  const std::string pool = !n.aio_threads_pool.empty() ? n.aio_threads_pool
                           : n.thread_pool.name != "default" && n.more_thread_pools.empty() ? n.thread_pool.name
                                                                                           : std::string();
  if (n.aio->conf)
    c += fmt::format("            aio {}{};\n", n.aio->conf,
                     threads && !pool.empty() ? "=" + word("aio threads pool", pool, true) : std::string());
  c += "        }\n    }\n}\n";

  if (scenario.root != p.data_dir)
    out.notes.push_back(fmt::format("root {} served from {}", scenario.root, p.data_dir));
  if (n.aio_open)
    out.notes.push_back("nginx.aio_open (Cloudflare's patch) is not in NGINX 1.22: open() stays in the event loop");
  if (!n.proxy_cache.empty() || !scenario.hardware.disks.empty())
    out.notes.push_back("nginx.proxy_cache and [disks] are not reproduced: every file is served from the data "
                        "directory on this machine's one disk, each read through the pool split_clients names");
  if (n.cache_fill_rate > 0)
    out.notes.push_back("nginx.cache_fill_rate is not reproduced: the real server writes no cache files");
  if (n.accept->shared_without_mutex() && !n.epoll_exclusive)
    out.notes.push_back(
        "NGINX 1.22 on Linux uses EPOLLEXCLUSIVE with accept_mutex off; the scenario models it without");
  // ngx_drain_connections (ngx_connection.c, from ngx_get_connection): with
  // at most worker_connections / 16 slots free, the real server closes idle
  // keep-alive connections to free slots; the model does not (listen_sockets.h).
  if (n.worker_connections)
    out.notes.push_back(fmt::format(
        "nginx.worker_connections {}: with at most {} slots free a real worker closes idle keep-alive connections "
        "to free some (ngx_drain_connections, \"worker_connections are not enough, reusing connections\"); the "
        "model does not, so it can refuse connections the real server takes",
        n.worker_connections, n.worker_connections / 16));
  if (n.version != "1.22.1" && n.version != "1.22")
    out.notes.push_back(fmt::format("the scenario models NGINX {}; the real server is Debian's 1.22", n.version));
  return out;
}

}  // namespace testbed::realrun
