// NGINX releases and their defaults (models/server/nginx_versions.h): each
// row against nginx's CHANGES, through the release table and through the
// loader; unknown versions refused naming the known ones; no version: the
// current stable line.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/load_error.h"
#include "models/scenario/config_loader.h"
#include "models/server/nginx_versions.h"

namespace {

const std::string kKeys = std::string(CLERK_TEST_DATA) + "/keys";

struct Row {
  const char* version;
  bool accept_mutex;
  bool epoll_exclusive;
  std::uint32_t keepalive_requests;
  std::uint64_t sendfile_max_chunk;
  bool write_posted_next;
};

// Releases on each side of every change, with the CHANGES entry that moved it.
const std::vector<Row> kRows = {
    {"1.9.0", true, false, 100, 0, false},    // the 2015 scenarios' release
    {"1.11.2", true, false, 100, 0, false},   // the last release with accept_mutex on by default
    {"1.11.3", false, true, 100, 0, false},   // CHANGES 1.11.3: accept_mutex off by default; EPOLLEXCLUSIVE on Linux
    {"1.13.9", false, true, 100, 0, false},   // Cloudflare's scenarios' release
    {"1.19.9", false, true, 100, 0, false},
    {"1.19.10", false, true, 1000, 0, false}, // CHANGES 1.19.10: keepalive_requests default 1000
    {"1.21.3", false, true, 1000, 0, false},
    {"1.21.4", false, true, 1000, 2u << 20, true},  // CHANGES 1.21.4: sendfile_max_chunk 2m; ngx_posted_next_events
    {"1.22.1", false, true, 1000, 2u << 20, true},  // Debian 12
    {"1.30.4", false, true, 1000, 2u << 20, true},  // the current stable line's newest
    {"1.31.4", false, true, 1000, 2u << 20, true},  // the newest mainline tag
};

using tests::load_error;

}  // namespace

TEST_CASE("nginx versions: each release's defaults as its CHANGES entries give them") {
  for (const Row& r : kRows) {
    INFO(r.version);
    const auto d = models::nginx_release_defaults(r.version);
    REQUIRE(d);
    CHECK(d->version == r.version);
    CHECK(d->accept_mutex == r.accept_mutex);
    CHECK(d->epoll_exclusive == r.epoll_exclusive);
    CHECK(d->keepalive_requests == r.keepalive_requests);
    CHECK(d->sendfile_max_chunk == r.sendfile_max_chunk);
    CHECK(d->write_posted_next == r.write_posted_next);
    CHECK(d->thread_pools);  // CHANGES 1.7.11: thread pools, before every known release
  }
}

TEST_CASE("nginx versions: ngx_reorder_accept_events every 16 accept events from 1.21.6") {
  // CHANGES 1.21.6: "when using EPOLLEXCLUSIVE on Linux client connections
  // were unevenly distributed among worker processes".
  CHECK(models::nginx_release_defaults("1.21.5")->accept_reorder_every == 0);
  CHECK(models::nginx_release_defaults("1.21.6")->accept_reorder_every == 16);
  CHECK(models::nginx_release_defaults("1.22.1")->accept_reorder_every == 16);
}

TEST_CASE("nginx versions: output_buffers is 1 32k until 1.9.5 and 2 32k since") {
  // CHANGES 1.9.5: "now the output_buffers directive uses two buffers by default".
  for (const auto& [version, number] : std::vector<std::pair<const char*, std::uint32_t>>{
           {"1.9.0", 1}, {"1.9.4", 1}, {"1.9.5", 2}, {"1.22.1", 2}, {"1.31.4", 2}}) {
    INFO(version);
    const auto d = models::nginx_release_defaults(version);
    REQUIRE(d);
    CHECK(d->output_buffers_number == number);
    CHECK(d->output_buffers_size == 32768);
  }
}

TEST_CASE("nginx versions: the loader takes its defaults from the release") {
  for (const Row& r : kRows) {
    INFO(r.version);
    const models::NginxConfig n =
        models::load_scenario(kKeys + "/preset.toml", {std::string("nginx.version=\"") + r.version + "\""}).nginx;
    CHECK(n.version == r.version);
    CHECK(n.accept->accept_mutex == r.accept_mutex);
    CHECK(n.epoll_exclusive == r.epoll_exclusive);
    CHECK(n.keepalive_requests == r.keepalive_requests);
    CHECK(n.sendfile_max_chunk == r.sendfile_max_chunk);
    CHECK(n.write_posted_next == r.write_posted_next);
  }
  // A key given still wins; EPOLLEXCLUSIVE follows an accept_mutex turned on (NGINX uses it only with the mutex off).
  const models::NginxConfig on = models::load_scenario(kKeys + "/preset.toml",
                                                       {"nginx.version=\"1.22.1\"", "nginx.accept_mutex=on",
                                                        "nginx.keepalive_requests=7"}).nginx;
  CHECK((on.accept->accept_mutex && !on.accept->reuseport));
  CHECK_FALSE(on.epoll_exclusive);
  CHECK(on.keepalive_requests == 7);
  CHECK_FALSE(models::load_scenario(kKeys + "/preset.toml", {"nginx.version=\"1.22.1\"", "nginx.reuseport=on"})
                  .nginx.epoll_exclusive);
}

TEST_CASE("nginx versions: without a version, the current stable line's newest release") {
  const models::NginxConfig n = models::load_scenario(kKeys + "/preset.toml").nginx;
  CHECK(n.version == "1.30.4");
  CHECK(std::string(models::kNginxCurrentStable) == "1.30.4");
  CHECK(n.accept->shared_without_mutex());
  CHECK(n.epoll_exclusive);
  CHECK(n.keepalive_requests == 1000);
  CHECK(n.sendfile_max_chunk == 2u << 20);
  CHECK(n.write_posted_next);
}

TEST_CASE("nginx versions: every tag from release-1.9.0 to release-1.31.4, and nothing between or beyond") {
  const std::vector<std::string> known = models::nginx_known_releases();
  CHECK(known.size() == 148);  // git tag -l 'release-1.*' from 1.9.0 on, in nginx's repository
  CHECK(known.front() == "1.9.0");
  CHECK(known.back() == "1.31.4");
  for (const char* v : {"1.9.15", "1.10.3", "1.18.0", "1.24.0", "1.30.0"}) CHECK(models::nginx_release_defaults(v));
  for (const char* v : {"1.8.1", "1.9.16", "1.18.1", "1.22.2", "1.31.5", "1.32.0", "2.0.0", "1.9", "9.9", "1.09.0",
                        "1.9.0 ", "latest", ""})
    CHECK_FALSE(models::nginx_release_defaults(v));
}

TEST_CASE("nginx versions: an unknown version is a ConfigError on nginx.version listing the known releases") {
  for (const char* bad : {"\"9.9\"", "\"1.22\"", "\"1.22.2\"", "\"1.22.1a\"", "\"latest\"", "\"1.-2.3\""}) {
    INFO(bad);
    const models::ConfigError e = load_error(kKeys + "/preset.toml", {std::string("nginx.version=") + bad});
    CHECK(e.key() == "nginx.version");
    const std::string what = e.what();
    CHECK(what.find("must be a known NGINX release (1.9.0-1.9.15, 1.10.0-1.10.3,") != std::string::npos);
    CHECK(what.find("1.18.0, ") != std::string::npos);
    CHECK(what.find("1.30.0-1.30.4, 1.31.0-1.31.4)") != std::string::npos);
  }
}
