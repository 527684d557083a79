// nginx.conf's directives as scenario keys: the inverse of the nginx.conf
// `clerk realrun` writes for a scenario (testbed/realrun/nginx_conf.cpp),
// for any nginx.conf. Each key it writes carries the file and line of the
// directive it came from in a TOML comment.
//
// Which location is modelled: clerk serves one location, so the importer
// takes the first `server` of the `http` block and, in it, `location /` (or
// its first location, or the server itself). A directive of the http
// context (sendfile, aio, root...) takes the value NGINX would use there:
// the location's, else the server's, else http's (NGINX's merge of loc_conf
// from http to server to location, ngx_http_core_merge_loc_conf). A
// different value elsewhere in the file is a warning.
//
// What it does not model is a warning saying what it would change; what
// changes nothing in the model (logs, MIME types, server names) is listed as
// ignored.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/import/nginx_conf_parser.h"
#include "models/server/nginx_versions.h"

namespace cli {

struct ImportOptions {
  std::string version = models::kNginxCurrentStable;  // [nginx] version: the release whose defaults fill what the file does not set
  std::uint32_t logical_cpus = 1;  // worker_processes auto (ngx_ncpu: the CPUs online)
  // The main file, as given, and its last line: where a refusal NGINX makes
  // only once the whole file is read (no events block) is reported.
  std::string conf_file = "nginx.conf";
  std::size_t conf_last_line = 1;
};

struct ImportedNginx {
  std::string nginx_toml;    // the [nginx] table's lines (and [nginx.thread_pool]'s), header included
  std::string dataset_toml;  // [dataset] lines: root
  // One line each, UTF-8 (for TOML comments):
  std::vector<std::string> warnings;  // "FILE:LINE directive: what it would change"
  std::vector<std::string> ignored;   // "directive (FILE:LINE, N times)"
  std::vector<std::string> notes;     // what the file leaves to NGINX's defaults and the importer says
};

// The line `text` ends on (its last line with a character, 1 when empty).
std::size_t last_line_of(const std::string& text);

// Throws nginx_conf::SyntaxError for a value NGINX itself would refuse
// (worker_processes abc, an unknown thread pool, thread_pool threads=0 even
// unused, a directive NGINX takes once per block given twice in one, like
// a second worker_processes or events block), naming file, line and token;
// and for what NGINX refuses once the whole file is read (ngx_event_init_conf):
// no events block (at options.conf_file's last line), or worker_connections
// fewer than the listening sockets + 1 (at the directive's line).
ImportedNginx import_nginx(const std::vector<nginx_conf::Directive>& conf, const ImportOptions& options);

}  // namespace cli
