// nginx.conf for a scenario: the directives the model honours, mapped one
// by one (see nginx_conf.cpp), for Debian's NGINX 1.22 run from a scratch
// directory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/scenario/scenario.h"

namespace testbed::realrun {

struct NginxConfParams {
  std::string data_dir;  // root
  std::string run_dir;   // pid, error log, temp paths
  std::uint16_t port = 18080;
  bool as_root = true;   // workers run as root (they read data_dir, write run_dir's temp paths)
};

struct NginxConf {
  std::string text;
  std::vector<std::string> notes;  // scenario settings real NGINX 1.22 cannot honour, and substitutions
};

// Throws testbed::RealRunError, writing nothing, when a name it would write
// unquoted is not one plain NGINX word (models/server/nginx_word.h: the
// loader refuses such names first; this is the second line), or when a path
// cannot be written (nginx_path_problem). Paths of other characters than
// letters, digits and "_-./" are written double-quoted, '"' and '\\' escaped.
NginxConf nginx_conf(const models::Scenario& scenario, const NginxConfParams& params);

// The longest data or run directory clerk writes: NGINX reads at most
// NGX_CONF_BUFFER (4096) bytes as one argument (ngx_conf_read_token), and
// the written argument is at most twice the path (every byte escaped), two
// quotes and the longest file name clerk adds ("/client_body_temp", 17
// bytes): 2 * 2000 + 19 < 4096. (Linux's PATH_MAX is 4096 too.)
inline constexpr std::size_t kNginxPathMax = 2000;

// Why `path` cannot be written into nginx.conf as one path argument (empty,
// a control character, too long, or '$' in `root`'s value, which NGINX reads
// as a variable even quoted), or "" when it can. clerk realrun asks this
// before anything runs (exit 2); nginx_conf asks it again.
std::string nginx_path_problem(std::string_view path, bool root);

// `text` for a '#' comment line: control characters (a newline ends the
// comment) become '?'.
std::string comment_text(std::string_view text);

// Total connections the scenario's wrk groups keep open.
std::uint32_t scenario_connections(const models::Scenario& scenario);

// The worker_connections both servers get: nginx.worker_connections when the
// scenario sets it, else room for every connection on one worker.
std::uint32_t worker_connections(const models::Scenario& scenario);

}  // namespace testbed::realrun
