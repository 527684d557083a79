#include "cli/import/nginx_import.h"
#include "cli/toml_string.h"
#include "common/shown_text.h"

#include "models/server/aio_modes.h"
#include "models/server/nginx_word.h"
#include "models/server/split_clients.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace cli {

namespace {

using nginx_conf::Directive;
using nginx_conf::SyntaxError;

std::string where(const Directive& d) { return d.file + ":" + std::to_string(d.line); }

std::string as_written(const Directive& d) {
  std::string s = d.name;
  for (const std::string& a : d.args) s += " " + a;
  return s;
}

[[noreturn]] void invalid(const Directive& d, const std::string& token, const std::string& why) {
  throw SyntaxError(d.file, d.line, token, "invalid value \"" + token + "\" in \"" + d.name + "\": " + why);
}

const std::string& one_arg(const Directive& d) {
  if (d.args.size() != 1)
    throw SyntaxError(d.file, d.line, d.name, "invalid number of arguments in \"" + d.name + "\" directive");
  return d.args.front();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ngx_conf_set_flag_slot: "on" or "off", in any case.
bool flag(const Directive& d) {
  const std::string v = lower(one_arg(d));
  if (v != "on" && v != "off") invalid(d, one_arg(d), "it must be \"on\" or \"off\"");
  return v == "on";
}

// ngx_atoi: digits only.
std::optional<std::uint64_t> digits(const std::string& s) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoull(s);
}

std::uint64_t number(const Directive& d, const std::string& s, std::uint64_t lo, std::uint64_t hi) {
  const std::optional<std::uint64_t> n = digits(s);
  if (!n || *n < lo || *n > hi) invalid(d, s, fmt::format("a whole number from {} to {}", lo, hi));
  return *n;
}

// ngx_parse_size: a number with k, m or g (powers of 1024) or none.
std::uint64_t size(const Directive& d, const std::string& s) {
  std::string n = s;
  std::uint64_t scale = 1;
  if (!n.empty()) {
    const char u = static_cast<char>(std::tolower(static_cast<unsigned char>(n.back())));
    if (u == 'k' || u == 'm' || u == 'g') {
      scale = u == 'k' ? 1u << 10 : u == 'm' ? 1u << 20 : 1u << 30;
      n.pop_back();
    }
  }
  const std::optional<std::uint64_t> v = digits(n);
  if (!v || *v > (std::uint64_t{1} << 40) / scale) invalid(d, s, "a size like 512k or 2m");
  return *v * scale;
}

constexpr std::uint64_t kMaxMsec = 100'000'000;

// ngx_parse_time: numbers with ms, s, m, h, d, w, M, y, combined ("1m30s");
// a number without a unit is seconds. In milliseconds. `in_seconds`: the
// directive is read with ngx_parse_time(..., 1), which refuses ms.
std::uint64_t msec(const Directive& d, const std::string& s, bool in_seconds = false) {
  std::uint64_t total = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < s.size()) {
    std::size_t j = i;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    const std::optional<std::uint64_t> v = digits(s.substr(i, j - i));
    if (!v) invalid(d, s, "a time like 500ms, 75s or 1m30s");
    std::uint64_t scale = 1000;  // no unit: seconds
    if (s.compare(j, 2, "ms") == 0) {
      if (in_seconds) invalid(d, s, "whole seconds, like 30s or 1m (NGINX reads this time in seconds, without ms)");
      scale = 1, j += 2;
    } else if (j < s.size()) {
      switch (s[j]) {
        case 's': scale = 1000; break;
        case 'm': scale = 60'000; break;
        case 'h': scale = 3'600'000; break;
        case 'd': scale = 86'400'000; break;
        case 'w': scale = 604'800'000; break;
        case 'M': scale = 2'592'000'000; break;
        case 'y': scale = 31'536'000'000; break;
        default: invalid(d, s, "a time like 500ms, 75s or 1m30s");
      }
      ++j;
    }
    // The loader's longest time: 100000 s.
    if (*v > kMaxMsec / scale || total + *v * scale > kMaxMsec) invalid(d, s, "at most 100000s");
    total += *v * scale;
    any = true;
    i = j;
  }
  if (!any) invalid(d, s, "a time like 500ms, 75s or 1m30s");
  return total;
}

// Whether `s` is UTF-8 (TOML takes nothing else, in strings or comments).
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7f >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 0x2) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

// A comment's text on one line (a directive's argument may hold a newline),
// UTF-8 as TOML wants it: controls and bytes that are not UTF-8 shown
// escaped, as in messages (common/shown_text.h).
std::string one_line(const std::string& s) { return common::shown_text(s); }

// What the loader's dataset.root refuses (config_loader.cpp, shown_text):
// a byte below 0x20 or DEL, which a report would show as is.
bool has_control_character(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == 0x7f;
  });
}

// "key = value" and the directive it came from, lined up as clerk new lines up its comments.
std::string key_line(const std::string& assignment, const Directive& d, const std::string& note = "") {
  return fmt::format("{:<34}# {}: {}{}\n", assignment, one_line(where(d)), one_line(as_written(d)),
                     note.empty() ? "" : " (" + note + ")");
}

const Directive* first(const std::vector<Directive>& in, const std::string& name) {
  for (const Directive& d : in)
    if (d.name == name) return &d;
  return nullptr;
}

const Directive* last(const std::vector<Directive>& in, const std::string& name) {
  const Directive* found = nullptr;
  for (const Directive& d : in)
    if (d.name == name) found = &d;
  return found;
}

// The blocks whose contents are not directives (a MIME table, a map's
// pairs...), and another module's blocks (nginx-rtmp's `rtmp`): the block
// is listed, not what it holds.
bool opaque_block(const Directive& d) {
  const std::string& name = d.name;
  return name == "types" || name == "map" || name == "geo" || name == "split_clients" || name == "charset_map" ||
         name == "match" || (name.size() > 6 && name.ends_with("_block")) ||
         (d.block && !nginx_conf::known_block(name));
}

void walk(const std::vector<Directive>& in, const std::function<void(const Directive&)>& visit) {
  for (const Directive& d : in) {
    visit(d);
    if (!opaque_block(d)) walk(d.children, visit);
  }
}

// The directives clerk maps that NGINX takes at most once per block: the
// second in the same block (an included file's directives are the
// including block's) is "\"NAME\" directive is duplicate" at `nginx -t`.
// Their handlers refuse a value already set: ngx_conf_set_flag_slot
// (accept_mutex, multi_accept, sendfile, aio_write, open_file_cache_errors),
// _num_slot (epoll_events, worker_aio_requests, keepalive_requests,
// open_file_cache_min_uses), _msec_slot (accept_mutex_delay), _sec_slot
// (open_file_cache_valid), _size_slot (sendfile_max_chunk), _off_slot
// (directio_alignment), _bufs_slot (output_buffers), and their own:
// ngx_set_worker_processes, ngx_events_block, ngx_http_block,
// ngx_event_connections, ngx_event_use, ngx_http_core_set_aio,
// ngx_http_core_directio, ngx_http_core_open_file_cache, and
// ngx_http_core_root for root and alias, which set one value between them.
// (listen, index and thread_pool may repeat; thread_pool refuses a name twice.)
constexpr std::array<std::string_view, 24> kOncePerBlock = {
    "worker_processes", "events", "http", "accept_mutex", "accept_mutex_delay", "multi_accept",
    "worker_connections", "use", "epoll_events", "worker_aio_requests", "sendfile", "sendfile_max_chunk",
    "keepalive_requests", "aio", "aio_write", "directio", "directio_alignment", "output_buffers",
    "open_file_cache", "open_file_cache_valid", "open_file_cache_min_uses", "open_file_cache_errors", "root", "alias"};

// The setting a once-per-block directive sets: root and alias share one.
std::string_view setting_of(std::string_view name) { return name == "alias" ? "root" : name; }

[[noreturn]] void duplicate(const Directive& again, const Directive& first_one) {
  const std::string earlier =
      again.name == first_one.name ? "" : ", \"" + first_one.name + "\" directive was specified earlier";
  throw SyntaxError(again.file, again.line, again.name,
                    "\"" + again.name + "\" directive is duplicate" + earlier + " (at " + where(first_one) +
                        "): NGINX takes it once per block and refuses the file");
}

// Refuses a second once-per-block directive in any block of `in`, as ngx_conf_parse does.
void check_once_per_block(const std::vector<Directive>& in) {
  std::map<std::string_view, const Directive*> seen;
  for (const Directive& d : in) {
    if (std::find(kOncePerBlock.begin(), kOncePerBlock.end(), d.name) == kOncePerBlock.end()) continue;
    const auto [at, fresh] = seen.try_emplace(setting_of(d.name), &d);
    if (!fresh) duplicate(d, *at->second);
  }
  for (const Directive& d : in)
    if (d.block && !opaque_block(d)) check_once_per_block(d.children);
}

// The contexts a directive may be written in: the type bits of its
// ngx_command_t (ngx_conf_file.h, ngx_event.h, ngx_http_config.h). Each
// block sets the context of what it holds (cf->cmd_type): events
// NGX_EVENT_CONF, http NGX_HTTP_MAIN_CONF, its server NGX_HTTP_SRV_CONF, a
// location NGX_HTTP_LOC_CONF (ngx_http_core_location), an if in a server
// NGX_HTTP_SIF_CONF and in a location NGX_HTTP_LIF_CONF
// (ngx_http_rewrite_if), limit_except NGX_HTTP_LMT_CONF
// (ngx_http_core_limit_except).
enum Context : unsigned {
  kMain = 1u << 0,     // NGX_MAIN_CONF
  kEvent = 1u << 1,    // NGX_EVENT_CONF
  kHttpMain = 1u << 2, // NGX_HTTP_MAIN_CONF
  kHttpSrv = 1u << 3,  // NGX_HTTP_SRV_CONF
  kHttpLoc = 1u << 4,  // NGX_HTTP_LOC_CONF
  kHttpSif = 1u << 5,  // NGX_HTTP_SIF_CONF
  kHttpLif = 1u << 6,  // NGX_HTTP_LIF_CONF
  kHttpLmt = 1u << 7,  // NGX_HTTP_LMT_CONF
};
constexpr unsigned kHttpAny = kHttpMain | kHttpSrv | kHttpLoc;  // MAIN|SRV|LOC, the usual http mask

struct AllowedIn {
  std::string_view name;
  unsigned contexts;
};

// Where NGINX takes each directive the importer knows, from its
// ngx_command_t in nginx's source (github.com/nginx/nginx at 3f6f782, 2026).
// A directive written elsewhere is "\"NAME\" directive is not allowed here"
// (ngx_conf_handler). Directives of other names (third-party modules) are
// not checked: clerk lists them, as before.
constexpr std::array<AllowedIn, 51> kAllowedIn = {{
    // src/core/nginx.c, src/core/ngx_thread_pool.c: NGX_MAIN_CONF|NGX_DIRECT_CONF.
    {"worker_processes", kMain}, {"worker_cpu_affinity", kMain}, {"thread_pool", kMain},
    // src/event/ngx_event.c, src/http/ngx_http.c, src/stream/ngx_stream.c,
    // src/mail/ngx_mail.c: NGX_MAIN_CONF|NGX_CONF_BLOCK.
    {"events", kMain}, {"http", kMain}, {"stream", kMain}, {"mail", kMain},
    // src/event/ngx_event.c (ngx_event_core_commands),
    // src/event/modules/ngx_epoll_module.c: NGX_EVENT_CONF.
    {"worker_connections", kEvent}, {"use", kEvent}, {"multi_accept", kEvent}, {"accept_mutex", kEvent},
    {"accept_mutex_delay", kEvent}, {"epoll_events", kEvent}, {"worker_aio_requests", kEvent},
    // src/http/ngx_http_core_module.c: server NGX_HTTP_MAIN_CONF; location
    // SRV|LOC; listen SRV; alias LOC; limit_except LOC; types MAIN|SRV|LOC.
    {"server", kHttpMain}, {"location", kHttpSrv | kHttpLoc}, {"listen", kHttpSrv}, {"alias", kHttpLoc},
    {"limit_except", kHttpLoc}, {"types", kHttpAny},
    // ngx_http_core_module.c: root, sendfile, limit_rate MAIN|SRV|LOC|LIF.
    {"root", kHttpAny | kHttpLif}, {"sendfile", kHttpAny | kHttpLif}, {"limit_rate", kHttpAny | kHttpLif},
    // ngx_http_core_module.c: MAIN|SRV|LOC.
    {"sendfile_max_chunk", kHttpAny}, {"aio", kHttpAny}, {"aio_write", kHttpAny}, {"directio", kHttpAny},
    {"directio_alignment", kHttpAny}, {"open_file_cache", kHttpAny}, {"open_file_cache_valid", kHttpAny},
    {"open_file_cache_min_uses", kHttpAny}, {"open_file_cache_errors", kHttpAny},
    {"keepalive_requests", kHttpAny}, {"keepalive_timeout", kHttpAny},
    // ngx_http_copy_filter_module.c, modules/ngx_http_index_module.c: MAIN|SRV|LOC.
    {"output_buffers", kHttpAny}, {"index", kHttpAny},
    // modules/ngx_http_rewrite_module.c: if SRV|LOC (an if in an if is refused).
    {"if", kHttpSrv | kHttpLoc},
    // modules/: map, geo, split_clients, charset_map, upstream (ngx_http_upstream.c),
    // proxy_cache_path: NGX_HTTP_MAIN_CONF.
    {"map", kHttpMain}, {"geo", kHttpMain}, {"split_clients", kHttpMain}, {"charset_map", kHttpMain},
    {"upstream", kHttpMain}, {"proxy_cache_path", kHttpMain},
    // modules/ngx_http_gzip_filter_module.c: MAIN|SRV|LOC|LIF; ngx_http_log_module.c access_log also LMT.
    {"gzip", kHttpAny | kHttpLif}, {"access_log", kHttpAny | kHttpLif | kHttpLmt},
    // modules/ngx_http_ssl_module.c, v2/ngx_http_v2_module.c: MAIN|SRV.
    {"ssl_certificate", kHttpMain | kHttpSrv}, {"http2", kHttpMain | kHttpSrv},
    // modules/ngx_http_proxy_module.c proxy_pass LOC|LIF|LMT; fastcgi_, uwsgi_, grpc_pass LOC|LIF.
    {"proxy_pass", kHttpLoc | kHttpLif | kHttpLmt}, {"fastcgi_pass", kHttpLoc | kHttpLif},
    {"uwsgi_pass", kHttpLoc | kHttpLif}, {"grpc_pass", kHttpLoc | kHttpLif},
}};

// The contexts `name` is allowed in, or none for a directive the importer does not know.
std::optional<unsigned> allowed_in(std::string_view name) {
  for (const AllowedIn& a : kAllowedIn)
    if (a.name == name) return a.contexts;
  return std::nullopt;
}

// The context of what block `d`, written in `outer`, holds; none for a block
// whose contents are another set of directives (upstream, types, map,
// stream, mail, a third-party module's...), which is not checked.
std::optional<Context> inner_context(const Directive& d, Context outer) {
  if (d.name == "events") return kEvent;
  if (d.name == "http") return kHttpMain;
  if (d.name == "server") return kHttpSrv;
  if (d.name == "location") return kHttpLoc;
  if (d.name == "if") return outer == kHttpSrv ? kHttpSif : kHttpLif;
  if (d.name == "limit_except") return kHttpLmt;
  return std::nullopt;
}

// Refuses a known directive written where NGINX refuses it, as ngx_conf_handler
// does: "\"NAME\" directive is not allowed here", at its line.
void check_contexts(const std::vector<Directive>& in, Context context) {
  for (const Directive& d : in) {
    const std::optional<unsigned> allowed = allowed_in(d.name);
    if (!allowed) continue;
    if (!(*allowed & context))
      throw SyntaxError(d.file, d.line, d.name,
                        "\"" + d.name + "\" directive is not allowed here: NGINX refuses the file (nginx -t)");
    if (d.block)
      if (const std::optional<Context> inner = inner_context(d, context)) check_contexts(d.children, *inner);
  }
}

// Every split_clients block's shares, used by aio or not, as
// ngx_http_split_clients (the line) and ngx_conf_split_clients_block (the
// running total) check them: "invalid percent value" for 0% or a share it
// cannot read, "percent total is greater than 100%" at the line that passes
// it ("*" counts as reaching 100%).
void check_split_clients(const std::vector<Directive>& conf) {
  for (const Directive& http : conf) {
    if (http.name != "http") continue;
    for (const Directive& d : http.children) {
      if (d.name != "split_clients") continue;
      std::uint32_t total = 0;
      for (const Directive& part : d.children) {
        std::uint32_t hundredths = 0;
        if (!models::parse_split_share(part.name, hundredths))
          throw SyntaxError(part.file, part.line, part.name,
                            "invalid percent value \"" + part.name + "\" in split_clients (at " + where(d) +
                                "): a share more than 0% with two decimals at most, like 33.3%, or *");
        total = hundredths ? total + std::min<std::uint32_t>(hundredths, 10001) : 10000;
        if (total > 10000)
          throw SyntaxError(part.file, part.line, part.name,
                            "percent total is greater than 100% in split_clients (at " + where(d) + ") with this line's share");
      }
    }
  }
}

// Blocks that only hold others: their directives are listed, not they.
bool structural(const std::string& name) {
  return name == "http" || name == "events" || name == "server" || name == "location" || name == "if" ||
         name == "limit_except";
}

// What NGINX does with a directive clerk does not model: the answer it would change.
std::optional<std::string> unmodelled(const Directive& d) {
  const std::string a0 = d.args.empty() ? "" : lower(d.args.front());
  if (d.name == "proxy_cache_path") {
    std::string levels = "none", max_size = "no limit";
    for (const std::string& a : d.args) {
      if (a.starts_with("levels=")) levels = a.substr(7);
      if (a.starts_with("max_size=")) max_size = a.substr(9);
    }
    return "a disk cache (levels=" + levels + ", max_size=" + max_size + ": the cache manager deletes past it): "
           "each miss writes a cache file (open(O_CREAT) and rename() in the worker), each hit reads it from this "
           "disk; clerk models the writes only as nginx.cache_fill_rate, the share of requests that write one, "
           "which the file cannot tell: set it from your cache's miss ratio";
  }
  if (d.name == "split_clients")
    return "serves variants of requests by a hash of a variable; clerk serves every request alike: write one "
           "scenario per variant";
  if (d.name == "keepalive_timeout")
    return "closes keep-alive connections idle that long; clerk's clients never leave a connection idle, so it "
           "changes the answer only for traffic that does";
  if (d.name == "worker_cpu_affinity")
    return "pins each worker to CPUs; clerk's scheduler places workers freely";
  if (d.name == "use" && a0 != "epoll") return "another event method than epoll; clerk models epoll";
  if (d.name == "gzip" && a0 == "on") return "compresses responses: CPU time per byte in the worker, not modelled";
  if (d.name == "ssl_certificate" || (d.name == "listen" && std::find(d.args.begin(), d.args.end(), "ssl") != d.args.end()))
    return "TLS: handshakes and encryption cost CPU in the worker, and sendfile needs kTLS; not modelled";
  if (d.name == "http2" && a0 == "on") return "HTTP/2 streams share a connection; clerk models HTTP/1.1";
  if (d.name == "proxy_pass" || d.name == "fastcgi_pass" || d.name == "uwsgi_pass" || d.name == "grpc_pass")
    return "answers from an upstream instead of the disk; clerk serves files only";
  if (d.name == "access_log" && a0 != "off")
    return "writes a line per request (buffered writes in the worker); writes are not modelled";
  if (d.name == "limit_rate" && a0 != "0") return "paces each response; not modelled";
  return std::nullopt;
}

// The socket a `listen` argument names, as a key: "unix:PATH", or the
// family and the port ("[...]" is IPv6; a bare address listens on port 80,
// ngx_parse_url's default); `udp` (stream) is a socket of its own.
std::string listen_key(const Directive& d) {
  if (d.args.empty()) return "";
  const std::string& a = d.args.front();
  const bool udp = std::find(d.args.begin() + 1, d.args.end(), "udp") != d.args.end();
  const std::string proto = udp ? "/udp" : "";
  if (a.starts_with("unix:")) return a;
  std::string family = "4", port;
  if (a.starts_with("[")) {
    family = "6";
    const std::size_t close = a.find("]:");
    port = close == std::string::npos ? "80" : a.substr(close + 2);
  } else if (digits(a)) {
    port = a;
  } else {
    const std::size_t colon = a.rfind(':');
    port = colon == std::string::npos ? "80" : a.substr(colon + 1);
  }
  return family + ":" + port + proto;
}

// The listening sockets NGINX has when ngx_event_init_conf checks
// worker_connections (cycle->listening, before reuseport clones them):
// per context (http, stream, mail), one per distinct family and port of its
// servers' listen directives, and an http server without one listens on
// *:80 (ngx_http_core_server, NGINX started as root). A lower bound: NGINX
// opens a socket of its own for an address beside a wildcard on the same
// port when it has `bind` or an option that implies it (ngx_http_init_listening),
// which this does not count, so it refuses only what NGINX refuses.
std::size_t listening_sockets(const std::vector<Directive>& conf) {
  std::set<std::string> sockets;
  for (const Directive& top : conf) {
    if (top.name != "http" && top.name != "stream" && top.name != "mail") continue;
    walk(top.children, [&](const Directive& server) {
      if (server.name != "server" || !server.block) return;
      bool listens = false;
      for (const Directive& d : server.children)
        if (d.name == "listen" && !d.args.empty()) sockets.insert(top.name + " " + listen_key(d)), listens = true;
      if (!listens && top.name == "http") sockets.insert("http 4:80");
    });
  }
  return sockets.size();
}

// The scope chain of the modelled location: http, its first server, and that server's location /.
struct Scopes {
  const Directive* http = nullptr;
  const Directive* server = nullptr;
  const Directive* location = nullptr;

  // The innermost directive `name` of the chain (NGINX's loc_conf merge).
  const Directive* effective(const std::string& name) const {
    for (const Directive* scope : {location, server, http})
      if (scope)
        if (const Directive* d = last(scope->children, name)) return d;
    return nullptr;
  }
};

Scopes modelled_scopes(const std::vector<Directive>& conf) {
  Scopes s;
  s.http = first(conf, "http");
  if (!s.http) return s;
  s.server = first(s.http->children, "server");
  if (!s.server) return s;
  for (const Directive& d : s.server->children)
    if (d.name == "location" && (d.args == std::vector<std::string>{"/"} || d.args == std::vector<std::string>{"=", "/"}))
      return s.location = &d, s;
  s.location = first(s.server->children, "location");
  return s;
}

class Importer {
 public:
  Importer(const std::vector<Directive>& conf, const ImportOptions& o) : conf_(conf), options_(o) {}

  ImportedNginx run() {
    check_contexts(conf_, kMain);
    check_split_clients(conf_);
    check_once_per_block(conf_);
    scopes_ = modelled_scopes(conf_);
    out_.nginx_toml = "[nginx]                           # nginx.conf's directives, each from the line named\n";
    out_.nginx_toml += fmt::format("{:<34}# --nginx: the release whose defaults fill what the file does not set\n",
                                   fmt::format("version = {}", toml_string(options_.version)));
    main_level();
    events();
    http();
    thread_pool();
    dataset_root();
    list_others();
    check_events();
    return out_;
  }

 private:
  void mapped(const Directive& d) { handled_.insert(&d); }
  const Directive* directio_at_ = nullptr;  // directio SIZE in the modelled location
  void warn(const std::string& what) { out_.warnings.push_back(one_line(what)); }
  void add(const std::string& assignment, const Directive& d, const std::string& note = "") {
    out_.nginx_toml += key_line(assignment, d, note);
    mapped(d);
  }

  void main_level() {
    if (const Directive* d = last(conf_, "worker_processes")) {
      const std::string& v = one_arg(*d);
      if (v == "auto") add(fmt::format("worker_processes = {}", options_.logical_cpus), *d, "the profile's CPUs");
      else add(fmt::format("worker_processes = {}", number(*d, v, 1, 1024)), *d);
    } else {
      out_.nginx_toml += "worker_processes = 1              # not set: NGINX's default, 1\n";
    }
  }

  // Whether the events block leaves accept_mutex on: its own directive, else
  // the release's default (on before 1.11.3).
  bool accept_mutex_on(const std::vector<Directive>& in) const {
    if (const Directive* d = last(in, "accept_mutex")) return flag(*d);
    const auto release = models::nginx_release_defaults(options_.version);
    return release && release->accept_mutex;
  }

  void events() {
    const Directive* ev = first(conf_, "events");
    if (!ev) return;
    events_at_ = ev;
    mapped(*ev);
    const auto& in = ev->children;
    if (const Directive* d = last(in, "accept_mutex")) add(fmt::format("accept_mutex = \"{}\"", flag(*d) ? "on" : "off"), *d);
    if (const Directive* d = last(in, "accept_mutex_delay")) {
      const std::uint64_t ms = msec(*d, one_arg(*d));
      if (ms == 0 && accept_mutex_on(in))
        throw SyntaxError(d->file, d->line, one_arg(*d),
                          "accept_mutex_delay 0 with accept_mutex on: a worker that lost the mutex polls epoll_wait "
                          "without sleeping, a busy loop clerk does not model (give it 1ms or more)");
      add(fmt::format("accept_mutex_delay = \"{}ms\"", ms), *d);
    }
    if (const Directive* d = last(in, "multi_accept")) add(fmt::format("multi_accept = \"{}\"", flag(*d) ? "on" : "off"), *d);
    if (const Directive* d = last(in, "worker_connections")) {
      worker_connections_ = number(*d, one_arg(*d), 1, 1048576);
      worker_connections_at_ = d;
      add(fmt::format("worker_connections = {}", worker_connections_), *d);
    } else {
      out_.nginx_toml += "worker_connections = 512          # not set: NGINX's default, 512 (DEFAULT_CONNECTIONS)\n";
      out_.notes.push_back(one_line(fmt::format("{}: events has no worker_connections: written as NGINX's default, "
                                                "worker_connections = 512 (DEFAULT_CONNECTIONS, ngx_event.c)", where(*ev))));
    }
    if (const Directive* d = last(in, "epoll_events"))
      add(fmt::format("events_per_wait = {}", number(*d, one_arg(*d), 1, 1 << 20)), *d);
    if (const Directive* d = last(in, "worker_aio_requests"))
      add(fmt::format("worker_aio_requests = {}", number(*d, one_arg(*d), 1, 65536)), *d);
    if (const Directive* d = last(in, "use"); d && lower(one_arg(*d)) == "epoll") mapped(*d);  // what clerk models
  }

  // An http-context directive as the modelled location sees it; other values
  // elsewhere are a warning.
  const Directive* http_value(const std::string& name) {
    const Directive* d = scopes_.effective(name);
    if (!scopes_.http) return d;
    walk(scopes_.http->children, [&](const Directive& other) {
      if (other.name == name) handled_.insert(&other);  // the same value elsewhere: said by the key
      if (other.name == name && &other != d && (!d || other.args != d->args)) {
        warn(fmt::format("{} {}: differs from the modelled location's ({}); clerk models one "
                                            "location, {}", where(other), as_written(other),
                                            d ? where(*d) : "NGINX's default", location_words()));
        handled_.insert(&other);
      }
    });
    return d;
  }

  std::string location_words() const {
    if (scopes_.location) return "the location at " + where(*scopes_.location);
    if (scopes_.server) return "the server at " + where(*scopes_.server);
    return "the http block";
  }

  void http() {
    if (!scopes_.http) {
      warn("no http block: the scenario has NGINX's defaults");
    } else {
      mapped(*scopes_.http);
      if (scopes_.server) mapped(*scopes_.server);
      if (scopes_.location) mapped(*scopes_.location);
    }
    reuseport();
    sendfile();
    if (const Directive* d = http_value("sendfile_max_chunk"))
      add(fmt::format("sendfile_max_chunk = {}", size(*d, one_arg(*d))), *d, size(*d, one_arg(*d)) ? "" : "no limit");
    if (const Directive* d = http_value("keepalive_requests"))
      add(fmt::format("keepalive_requests = {}", number(*d, one_arg(*d), 1, 4294967295ULL)), *d);
    directio();
    open_file_cache();
    aio();
  }

  // directio SIZE|off, directio_alignment SIZE, output_buffers NUMBER SIZE
  // (ngx_http_core_module.c, ngx_http_copy_filter_module.c).
  void directio() {
    if (const Directive* d = http_value("directio")) {
      const std::string& v = one_arg(*d);
      if (lower(v) == "off") add("directio = \"off\"", *d);
      else add(fmt::format("directio = {}", positive_size(*d, v)), *d, "files at least this large: O_DIRECT");
      directio_at_ = lower(v) == "off" ? nullptr : d;
    }
    std::uint64_t alignment = 512;  // ngx_http_core_module: directio_alignment 512
    const Directive* alignment_at = http_value("directio_alignment");
    if (const Directive* d = alignment_at) {
      alignment = size(*d, one_arg(*d));
      if (alignment < 512 || (alignment & (alignment - 1))) invalid(*d, one_arg(*d), "clerk takes a power of two from 512");
      add(fmt::format("directio_alignment = {}", alignment), *d);
    }
    if (const Directive* d = http_value("output_buffers")) {
      if (d->args.size() != 2) invalid(*d, as_written(*d), "output_buffers NUMBER SIZE");
      const std::uint64_t n = number(*d, d->args[0], 1, 1024);
      const std::uint64_t bytes = size(*d, d->args[1]);
      if (bytes < 512 || bytes > (64u << 20)) invalid(*d, d->args[1], "clerk takes 512 bytes to 64m");
      if (directio_at_ && bytes % alignment)
        invalid(*d, d->args[1], misaligned_buffers(bytes, alignment));
      add(fmt::format("output_buffers = \"{} {}\"", n, bytes), *d, directio_at_ ? "" : "used only by directio files here");
    } else if (const auto release = models::nginx_release_defaults(options_.version);
               directio_at_ && alignment_at && release && release->output_buffers_size % alignment) {
      invalid(*alignment_at, one_arg(*alignment_at),
              misaligned_buffers(release->output_buffers_size, alignment) + " (the release's output_buffers)");
    }
  }

  // With directio NGINX reads output_buffers-sized pieces with O_DIRECT, and
  // Linux fails an O_DIRECT read whose length is not a multiple of the
  // logical block size with EINVAL (open(2)); the loader refuses it too.
  static std::string misaligned_buffers(std::uint64_t bytes, std::uint64_t alignment) {
    return fmt::format("with directio, {}-byte output buffers are not a multiple of directio_alignment {}: "
                       "O_DIRECT reads of them fail with EINVAL", bytes, alignment);
  }

  // open_file_cache max=N [inactive=TIME] | off, and its companions.
  void open_file_cache() {
    if (const Directive* d = http_value("open_file_cache")) {
      if (d->args.size() == 1 && lower(d->args[0]) == "off") {
        add("open_file_cache = \"off\"", *d);
      } else {
        std::uint64_t max = 0, inactive_ms = 60'000;  // ngx_http_core_open_file_cache: inactive = 60
        for (const std::string& a : d->args) {
          if (a.starts_with("max=")) max = number(*d, a.substr(4), 1, 100'000'000);
          else if (a.starts_with("inactive=")) inactive_ms = msec(*d, a.substr(9), true);
          else invalid(*d, a, "max=N or inactive=TIME");
        }
        if (!max) invalid(*d, as_written(*d), "\"open_file_cache\" must have the \"max\" parameter");
        add(fmt::format("open_file_cache = \"max={} inactive={}ms\"", max, inactive_ms), *d);
      }
    }
    if (const Directive* d = http_value("open_file_cache_valid"))
      add(fmt::format("open_file_cache_valid = \"{}ms\"", msec(*d, one_arg(*d), true)), *d);
    if (const Directive* d = http_value("open_file_cache_min_uses"))
      add(fmt::format("open_file_cache_min_uses = {}", number(*d, one_arg(*d), 0, 4294967295ULL)), *d);
    if (const Directive* d = http_value("open_file_cache_errors"))
      add(fmt::format("open_file_cache_errors = \"{}\"", flag(*d) ? "on" : "off"), *d);
  }

  // A size of at least one byte (directio 0 means nothing NGINX would do).
  std::uint64_t positive_size(const Directive& d, const std::string& v) {
    const std::uint64_t bytes = size(d, v);
    if (bytes == 0) invalid(d, v, "a size of at least 1 byte, or off");
    return bytes;
  }

  void reuseport() {
    if (!scopes_.http) return;
    const Directive* with = nullptr;
    walk(scopes_.http->children, [&](const Directive& d) {
      if (d.name == "listen" && std::find(d.args.begin(), d.args.end(), "reuseport") != d.args.end() && !with) with = &d;
    });
    if (with) add("reuseport = \"on\"", *with, "a listening socket per worker");
  }

  void sendfile() {
    const Directive* d = http_value("sendfile");
    if (d && flag(*d)) return add("sendfile = \"on\"", *d);
    out_.nginx_toml += "sendfile = \"on\"                  # clerk models sendfile on only\n";
    if (d) mapped(*d);
    warn(fmt::format("{}: sendfile is off{}: NGINX reads with read() into output_buffers and "
                                        "writes; clerk models sendfile on only, so the scenario says on",
                                        d ? where(*d) + " " + as_written(*d) : "sendfile",
                                        d ? "" : " (NGINX's default)"));
  }

  void aio() {
    const Directive* d = http_value("aio");
    if (!d) return;
    const std::string v = one_arg(*d);
    // The mode whose nginx.conf word this is (aio_modes.h: `conf`); "off"
    // is the default mode's (no directive, reads in the worker).
    const std::string word = v.substr(0, v.find('='));
    const models::AioMode* mode = nullptr;
    for (const models::AioMode* m : models::aio_modes())
      if (m->conf && word == m->conf) mode = m;
    const models::AioMode* off = models::aio_modes().front();
    if (!mode && v == "off") mode = off;
    if (!mode || (word != v && !mode->thread_pool)) invalid(*d, v, "it must be \"off\"" + aio_words());
    const std::string assignment = fmt::format("aio = \"{}\"", mode->name);
    if (mode->native_aio && !directio_at_)
      warn(where(*d) + " aio on: Linux native AIO reads without blocking only files read with directio "
                       "(O_DIRECT); without it every file is sent with sendfile() in the worker, as with aio off");
    if (mode->thread_pool) {
      pool_name_ = word == v ? "default" : v.substr(word.size() + 1);
      if (pool_name_.empty()) invalid(*d, v, "=POOL names a pool");
      if (!valid_utf8(pool_name_)) invalid(*d, one_line(v), "clerk's scenario files are UTF-8");
      if (!models::is_nginx_word(pool_name_, true)) invalid(*d, one_line(v), std::string("a pool's name: ") + models::kNginxWordRule);
      if (pool_name_.find('$') != std::string::npos) {
        split_at_ = split_clients_of(pool_name_);
        if (!split_at_)
          invalid(*d, v, "a pool chosen by a variable is modelled only when split_clients sets it (aio threads=pool_$disk)");
      }
      pool_at_ = d;
      std::size_t pools = 0;
      for (const Directive& t : conf_) pools += t.name == "thread_pool";
      // Several pools, or one chosen per request: [[nginx.thread_pool]] and the pool's name in aio.
      named_pools_ = split_at_ || pools > 1;
      if (named_pools_) return add(fmt::format("aio = {}", toml_string(std::string(mode->name) + "=" + pool_name_)), *d);
    }
    add(assignment, *d);
  }

  // The http block's split_clients whose $variable `name` holds (aio threads=pool_$disk), or null.
  const Directive* split_clients_of(const std::string& name) const {
    if (!scopes_.http) return nullptr;
    for (const Directive& d : scopes_.http->children)
      if (d.name == "split_clients" && d.args.size() == 2 && d.args[1].size() > 1 && name.find(d.args[1]) != std::string::npos)
        return &d;
    return nullptr;
  }

  // split_clients $request_uri $disk { 33.3% 1; * 3; } as [nginx.split_clients].
  void split_clients() {
    const Directive& d = *split_at_;
    if (d.args[0] != "$request_uri" && d.args[0] != "$uri")
      invalid(d, d.args[0], "clerk hashes the request's URI: \"$request_uri\" or \"$uri\"");
    std::string parts;
    for (const Directive& part : d.children) {
      if (part.args.size() != 1) invalid(part, part.name, "each line is a share and a value, like 33.3% one;");
      std::uint32_t hundredths = 0;
      if (!models::parse_split_share(part.name, hundredths)) invalid(part, part.name, "a share like 33.3% or *");
      if (!valid_utf8(part.args[0])) invalid(part, one_line(part.args[0]), "clerk's scenario files are UTF-8");
      if (!part.args[0].empty() && !models::is_nginx_word(part.args[0]))
        invalid(part, one_line(part.args[0]), std::string("a value: ") + models::kNginxWordRule);
      parts += fmt::format("{}[{}, {}]", parts.empty() ? "" : ", ", toml_string(part.name), toml_string(part.args[0]));
    }
    if (parts.empty()) invalid(d, d.args[1], "split_clients needs at least one line");
    out_.nginx_toml += "\n[nginx.split_clients]\n";
    out_.nginx_toml += key_line(fmt::format("key = {}", toml_string(d.args[0])), d, "");
    out_.nginx_toml += key_line(fmt::format("variable = {}", toml_string(d.args[1])), d, "");
    add(fmt::format("parts = [{}]", parts), d);
  }

  // Every thread_pool directive as [[nginx.thread_pool]], in order (aio names one, or one per request).
  void named_thread_pools() {
    bool named = false;
    for (const Directive& d : conf_) {
      if (d.name != "thread_pool") continue;
      if (d.args.empty()) invalid(d, d.name, "thread_pool NAME threads=N");
      named = named || d.args.front() == pool_name_;
      out_.nginx_toml += "\n[[nginx.thread_pool]]\n";
      pool_keys(d, d.args.front());
    }
    if (!split_at_ && !named) {
      // ngx_thread_pool_init_conf: "default" exists without a directive; any other name must be declared.
      if (pool_name_ != "default")
        throw SyntaxError(pool_at_->file, pool_at_->line, pool_name_, "unknown thread pool \"" + pool_name_ + "\"");
      out_.nginx_toml += "\n[[nginx.thread_pool]]\nname = \"default\"                  # no thread_pool default: NGINX's own, 32 threads\n";
      out_.nginx_toml += "threads = 32\nmax_queue = 65536\n";
    }
    if (split_at_) split_clients();
  }

  struct PoolSize {
    std::uint64_t threads = 32, max_queue = 65536;
  };

  // thread_pool NAME threads=N [max_queue=M]'s values, checked as ngx_thread_pool
  // checks them for every pool, used or not ("invalid threads value" for 0).
  static PoolSize pool_size(const Directive& pool) {
    PoolSize size;
    for (std::size_t i = 1; i < pool.args.size(); ++i) {
      const std::string& a = pool.args[i];
      if (a.starts_with("threads=")) size.threads = number(pool, a.substr(8), 1, 65536);
      else if (a.starts_with("max_queue=")) size.max_queue = number(pool, a.substr(10), 0, 1 << 30);
      else invalid(pool, a, "threads=N or max_queue=M");
    }
    return size;
  }

  void pool_keys(const Directive& pool, const std::string& name) {
    const auto [threads, max_queue] = pool_size(pool);
    if (!valid_utf8(name)) invalid(pool, one_line(name), "clerk's scenario files are UTF-8");
    if (!models::is_nginx_word(name)) invalid(pool, one_line(name), std::string("a pool's name: ") + models::kNginxWordRule);
    add(fmt::format("name = {}", toml_string(name)), pool);
    add(fmt::format("threads = {}", threads), pool);
    add(fmt::format("max_queue = {}", max_queue), pool);
  }

  // The modes' nginx.conf words, for an error: `, "threads" or "threads=POOL"`.
  static std::string aio_words() {
    std::string out;
    for (const models::AioMode* m : models::aio_modes())
      if (m->conf) out += fmt::format(", \"{}\"", m->conf) + (m->thread_pool ? fmt::format(", \"{}=POOL\"", m->conf) : "");
    return out;
  }

  void thread_pool() {
    std::set<std::string> names;
    for (const Directive& d : conf_) {
      if (d.name != "thread_pool") continue;
      mapped(d);
      pool_size(d);
      // ngx_thread_pool_add(): a name declared twice is a configuration error.
      if (!d.args.empty() && !names.insert(d.args.front()).second)
        throw SyntaxError(d.file, d.line, d.args.front(), "duplicate thread pool \"" + d.args.front() + "\"");
    }
    if (!pool_at_) return;
    if (named_pools_) return named_thread_pools();
    const Directive* pool = nullptr;
    for (const Directive& d : conf_)
      if (d.name == "thread_pool" && !d.args.empty() && d.args.front() == pool_name_) pool = &d;
    out_.nginx_toml += "\n[nginx.thread_pool]\n";
    if (!pool) {
      // ngx_thread_pool_init_conf: "default" exists without a directive; any other name must be declared.
      if (pool_name_ != "default")
        throw SyntaxError(pool_at_->file, pool_at_->line, pool_name_, "unknown thread pool \"" + pool_name_ + "\"");
      out_.nginx_toml += "name = \"default\"                  # no thread_pool default: NGINX's own, 32 threads\n";
      out_.nginx_toml += "threads = 32\nmax_queue = 65536\n";
      return;
    }
    pool_keys(*pool, pool_name_);
  }

  // root, or alias in the location (the location's prefix replaced by it).
  void dataset_root() {
    const Directive* alias = scopes_.location ? last(scopes_.location->children, "alias") : nullptr;
    const Directive* root = http_value("root");
    const Directive* d = alias ? alias : root;
    if (!d) return;
    if (alias && root) mapped(*root);
    const std::string& path = one_arg(*d);
    if (!valid_utf8(path)) invalid(*d, one_line(path), "clerk's scenario files are UTF-8");
    if (has_control_character(path))
      invalid(*d, one_line(path), "a control character: clerk shows dataset.root in its reports as is and refuses it");
    out_.dataset_toml += key_line("root = " + toml_string(path), *d, alias ? "the location's alias" : "");
    mapped(*d);
    if (scopes_.http)
      walk(scopes_.http->children, [&](const Directive& other) {
        if (other.name == "alias" && &other != d) {
          warn(where(other) + " " + as_written(other) + ": another location's files; clerk models one "
                                  "location, " + location_words());
          handled_.insert(&other);
        }
      });
  }

  // What ngx_event_init_conf refuses once the whole file is read: no
  // events block ("no \"events\" section in configuration"; NGINX names no
  // line, so the main file's last line, where the block was still missing),
  // and fewer worker_connections than the listening sockets + 1 (one slot
  // each, and one for the channel to the master).
  void check_events() {
    if (!events_at_)
      throw SyntaxError(options_.conf_file, options_.conf_last_line, "events",
                        "no \"events\" section in configuration: NGINX refuses to start without one "
                        "(ngx_event_init_conf); add events { worker_connections N; }");
    // A file with no server still gives a scenario that listens on one
    // socket (the loader counts it): NGINX, with no listening socket, would
    // accept worker_connections 1 there, but the scenario could not.
    const std::size_t in_file = listening_sockets(conf_);
    const std::size_t listening = std::max<std::size_t>(1, in_file);
    if (worker_connections_ >= listening + 1) return;
    const Directive& at = worker_connections_at_ ? *worker_connections_at_ : *events_at_;
    throw SyntaxError(at.file, at.line, worker_connections_at_ ? one_arg(at) : at.name,
                      fmt::format("{} worker_connections are not enough for {} listening sockets{}: NGINX refuses "
                                  "it at start (ngx_event_init_conf needs one per listening socket and one for the "
                                  "channel: at least {})", worker_connections_, listening,
                                  in_file ? "" : " (the file has no server; the scenario listens on one)", listening + 1));
  }

  void list_others() {
    std::map<std::string, std::pair<const Directive*, std::size_t>> ignored;
    std::vector<std::string> order;
    walk(conf_, [&](const Directive& d) {
      if (handled_.count(&d) || structural(d.name)) return;
      if (const std::optional<std::string> what = unmodelled(d)) {
        warn(where(d) + " " + as_written(d) + ": " + *what);
        return;
      }
      auto [it, fresh] = ignored.try_emplace(d.name, &d, 0);
      if (fresh) order.push_back(d.name);
      ++it->second.second;
    });
    for (const std::string& name : order) {
      const auto& [d, n] = ignored[name];
      out_.ignored.push_back(one_line(n == 1 ? fmt::format("{} ({})", name, where(*d))
                                    : fmt::format("{} ({}, {} times)", name, where(*d), n)));
    }
  }

  const std::vector<Directive>& conf_;
  const ImportOptions& options_;
  Scopes scopes_;
  ImportedNginx out_;
  std::set<const Directive*> handled_;
  std::string pool_name_;
  const Directive* pool_at_ = nullptr;
  const Directive* split_at_ = nullptr;  // the split_clients aio threads=NAME's variable comes from
  bool named_pools_ = false;             // [[nginx.thread_pool]] and aio = "threads=NAME"
  const Directive* events_at_ = nullptr;
  const Directive* worker_connections_at_ = nullptr;  // none: NGINX's default
  std::uint64_t worker_connections_ = 512;            // DEFAULT_CONNECTIONS (ngx_event.c)
};

}  // namespace

std::size_t last_line_of(const std::string& text) {
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return std::max<std::size_t>(1, newlines + (!text.empty() && text.back() != '\n' ? 1 : 0));
}

ImportedNginx import_nginx(const std::vector<Directive>& conf, const ImportOptions& options) {
  return Importer(conf, options).run();
}

}  // namespace cli
