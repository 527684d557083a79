#include "models/server/nginx_versions.h"

#include <array>
#include <cstdio>

namespace models {

namespace {

// One release line: 1.MINOR.0 to 1.MINOR.LAST, as tagged in nginx's
// repository (git tag -l 'release-1.*').
struct ReleaseLine {
  int minor;
  int last_patch;
};

constexpr std::array<ReleaseLine, 23> kLines = {{
    {9, 15},  {10, 3}, {11, 13}, {12, 2}, {13, 12}, {14, 2}, {15, 12}, {16, 1},
    {17, 10}, {18, 0}, {19, 10}, {20, 2}, {21, 6},  {22, 1}, {23, 4},  {24, 0},
    {25, 5},  {26, 3}, {27, 5},  {28, 3}, {29, 8},  {30, 4}, {31, 4},
}};

// A release as 1.MINOR.PATCH compared in order.
struct Release {
  int minor;
  int patch;
  bool at_least(int m, int p) const { return minor > m || (minor == m && patch >= p); }
};

std::optional<Release> parse_known(const std::string& version) {
  int major = 0, minor = 0, patch = 0, used = 0;
  if (std::sscanf(version.c_str(), "%d.%d.%d%n", &major, &minor, &patch, &used) != 3 ||
      static_cast<std::size_t>(used) != version.size() || major != 1)
    return std::nullopt;
  const std::string canonical = "1." + std::to_string(minor) + "." + std::to_string(patch);
  if (canonical != version) return std::nullopt;  // "1.09.0", "1.9.+0"
  for (const ReleaseLine& l : kLines)
    if (l.minor == minor && patch >= 0 && patch <= l.last_patch) return Release{minor, patch};
  return std::nullopt;
}

}  // namespace

std::optional<NginxReleaseDefaults> nginx_release_defaults(const std::string& version) {
  const std::optional<Release> r = parse_known(version);
  if (!r) return std::nullopt;
  NginxReleaseDefaults d;
  d.version = version;
  d.accept_mutex = !r->at_least(11, 3);             // CHANGES 1.11.3: accept_mutex off by default
  d.epoll_exclusive = r->at_least(11, 3);           // CHANGES 1.11.3: EPOLLEXCLUSIVE on Linux
  d.accept_reorder_every = r->at_least(21, 6) ? 16 : 0;  // ngx_reorder_accept_events, 1.21.6
  d.keepalive_requests = r->at_least(19, 10) ? 1000 : 100;  // CHANGES 1.19.10
  d.sendfile_max_chunk = r->at_least(21, 4) ? 2 * 1024 * 1024 : 0;  // CHANGES 1.21.4
  d.write_posted_next = r->at_least(21, 4);         // ngx_http_write_filter_module.c, 1.21.4
  d.thread_pools = r->at_least(7, 11);              // CHANGES 1.7.11: thread pools
  d.sendfile_nodiskio_always = r->at_least(21, 5);  // CHANGES 1.21.5: sendfile(SF_NODISKIO) always on FreeBSD
  d.output_buffers_number = r->at_least(9, 5) ? 2 : 1;  // CHANGES 1.9.5: two buffers by default
  d.output_buffers_size = 32768;                    // ngx_http_copy_filter_module.c: 32768 in every release
  return d;
}

std::vector<std::string> nginx_known_releases() {
  std::vector<std::string> out;
  for (const ReleaseLine& l : kLines)
    for (int p = 0; p <= l.last_patch; ++p) out.push_back("1." + std::to_string(l.minor) + "." + std::to_string(p));
  return out;
}

std::string nginx_known_releases_text() {
  std::string out;
  for (const ReleaseLine& l : kLines) {
    const std::string line = "1." + std::to_string(l.minor) + ".";
    out += (out.empty() ? "" : ", ") + line + "0";
    if (l.last_patch > 0) out += "-" + line + std::to_string(l.last_patch);
  }
  return out;
}

}  // namespace models
