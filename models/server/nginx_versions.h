// NGINX releases the model knows, and the defaults each gives the directives
// the model reads (nginx_config.h). One place: the scenario loader, `clerk
// new --nginx` and the key reference all read this table.
//
// Known releases are every release tag of nginx's repository from 1.9.0 to
// the current stable line (release-1.9.0 ... release-1.30.4) plus the
// mainline after it (1.31.0 ... 1.31.4); tags have no gaps, so a line and
// its last patch name them all. A version between or beyond them ("1.22.2",
// "1.9", "9.9") is refused: it names no release whose defaults are known.
//
// Defaults that moved, from nginx's CHANGES (docs/xml/nginx/changes.xml):
//   1.11.3  "now the "accept_mutex" directive is turned off by default"
//           (ngx_event_core_init_conf: ngx_conf_init_value(ecf->accept_mutex, 0));
//   1.11.3  "now nginx uses EPOLLEXCLUSIVE on Linux" (ngx_enable_accept_events /
//           ngx_event_process_init under NGX_HAVE_EPOLLEXCLUSIVE; Linux 4.5+;
//           only with accept_mutex off and without reuseport);
//   1.19.10 "the default value of the "keepalive_requests" directive was
//           changed to 1000" (100 before);
//   1.21.4  "the default value of the "sendfile_max_chunk" directive was
//           changed to 2 megabytes" (0, no limit, before), and in the same
//           release ngx_http_write_filter_module.c posts the next write to
//           ngx_posted_next_events instead of ngx_add_timer(wev, 1);
//   1.21.5  "now nginx always uses sendfile(SF_NODISKIO) on FreeBSD" (commit
//           20c35434e, "Simplified sendfile(SF_NODISKIO) usage": FreeBSD 11+
//           loads the pages itself; 1.7.11 to 1.21.4 preloaded them with a
//           1-byte aio read when both aio and sendfile were on, CHANGES 1.7.11);
//   1.21.6  "when using EPOLLEXCLUSIVE on Linux client connections were
//           unevenly distributed among worker processes" (bugfix): from this
//           release ngx_event_accept ends with ngx_reorder_accept_events,
//           which re-adds the listen socket every 16 accept events
//           (`c->requests++ % 16`);
//   1.9.5   "now the "output_buffers" directive uses two buffers by default"
//           (ngx_http_copy_filter_module.c: ngx_conf_merge_bufs_value(conf->bufs,
//           prev->bufs, 2, 32768); 1, 32768 at release-1.9.4).
// Unchanged over all known releases (checked in src/ at release-1.9.0 and
// release-1.30.4): directio off, directio_alignment 512, open_file_cache
// off, open_file_cache_valid 60s, open_file_cache_min_uses 1 and
// open_file_cache_errors off (ngx_http_core_merge_loc_conf), multi_accept off, accept_mutex_delay 500ms, sendfile off,
// aio off, epoll events 512, thread_pool threads=32 max_queue=65536, and
// `aio threads` with thread pools (CHANGES 1.7.11: "experimental thread
// support"), available in every known release built --with-threads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace models {

// The release a scenario without nginx.version models: the newest tag of
// the current stable line (even minor), release-1.30.4.
inline constexpr const char* kNginxCurrentStable = "1.30.4";

struct NginxReleaseDefaults {
  std::string version;
  bool accept_mutex = true;                  // on before 1.11.3
  bool epoll_exclusive = false;              // with accept_mutex off, 1.11.3+
  std::uint32_t accept_reorder_every = 0;    // 16 from 1.21.6 (ngx_reorder_accept_events)
  std::uint32_t keepalive_requests = 100;    // 1000 from 1.19.10
  std::uint64_t sendfile_max_chunk = 0;      // 2m from 1.21.4; 0: no limit
  bool write_posted_next = false;            // from 1.21.4; a 1 ms timer before
  bool thread_pools = true;                  // aio threads, from 1.7.11
  // FreeBSD: sendfile(SF_NODISKIO) whenever sendfile is on, FreeBSD 11's
  // sendfile reading by itself (1.21.5+); before, only with aio on, an
  // aio_read() preloading the pages (1.7.11-1.21.4).
  bool sendfile_nodiskio_always = false;
  std::uint32_t output_buffers_number = 1;   // output_buffers 1 32k; 2 32k from 1.9.5
  std::uint64_t output_buffers_size = 32768;
};

// The defaults of `version` ("1.22.1"); nothing for a version that is not a
// known release.
std::optional<NginxReleaseDefaults> nginx_release_defaults(const std::string& version);

// Every known release, oldest first.
std::vector<std::string> nginx_known_releases();

// The known releases in short, for error messages: "1.9.0-1.9.15, 1.10.0-1.10.3, ...".
std::string nginx_known_releases_text();

}  // namespace models
