// nginx.conf for a scenario: the directives the model honours, mapped one
// by one (see nginx_conf.cpp), for Debian's NGINX 1.22 run from a scratch
// directory.
#pragma once
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

// Throws testbed::RealRunError, writing nothing, when a name or path it would write
// unquoted is not one plain NGINX word (models/server/nginx_word.h): the
// loader refuses such names first; this is the second line.
NginxConf nginx_conf(const models::Scenario& scenario, const NginxConfParams& params);

// `text` for a '#' comment line: control characters (a newline ends the
// comment) become '?'.
std::string comment_text(std::string_view text);

// Total connections the scenario's wrk groups keep open.
std::uint32_t scenario_connections(const models::Scenario& scenario);

}  // namespace testbed::realrun
