// open_file_cache (models/server/open_file_cache.h) against hand-made
// sequences, and per worker in a whole run.
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "models/server/open_file_cache.h"
#include "tests/load_error.h"
#include "tests/whole_run.h"

namespace {

using models::OpenFileCache;
using Lookup = OpenFileCache::Lookup;

models::OpenFileCacheSpec spec(std::uint32_t max, double inactive, double valid, std::uint32_t min_uses = 1) {
  models::OpenFileCacheSpec s;
  s.enabled = true;
  s.max = max;
  s.inactive_s = inactive;
  s.valid_s = valid;
  s.min_uses = min_uses;
  return s;
}

// Which of `files` the cache holds, in the order given.
std::vector<std::uint32_t> held(const OpenFileCache& c, std::initializer_list<std::uint32_t> files) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t f : files)
    if (c.holds(f)) out.push_back(f);
  return out;
}
using Files = std::vector<std::uint32_t>;

const std::string kData = CLERK_TEST_DATA;

}  // namespace

TEST_CASE("open_file_cache: a second open within valid is a hit, with no path walk") {
  OpenFileCache c(spec(10, 60, 60));
  CHECK(c.open(7, 0.0) == Lookup::kOpen);
  CHECK(c.open(7, 1.0) == Lookup::kHit);
  CHECK(c.open(7, 59.9) == Lookup::kHit);
  CHECK(c.stats().hits == 2);
  CHECK(c.stats().opens == 1);
}

TEST_CASE("open_file_cache: after open_file_cache_valid the entry is retested, then valid again from then") {
  OpenFileCache c(spec(10, 600, 60));
  CHECK(c.open(7, 0.0) == Lookup::kOpen);
  CHECK(c.open(7, 60.0) == Lookup::kRevalidate);  // now - created < valid fails at exactly 60 s
  CHECK(c.open(7, 119.0) == Lookup::kHit);         // created again at 60 s
  CHECK(c.open(7, 120.0) == Lookup::kRevalidate);
  CHECK(c.stats().revalidations == 2);
  OpenFileCache never(spec(10, 600, 0));  // open_file_cache_valid 0: every use is a stat()
  never.open(1, 0.0);
  CHECK(never.open(1, 0.0) == Lookup::kRevalidate);
}

TEST_CASE("open_file_cache: an entry unused for inactive is dropped at the end of a later request") {
  OpenFileCache c(spec(10, 20, 600));
  c.open(1, 0.0);
  c.open(2, 10.0);
  CHECK(c.size() == 2);
  // At 25 s file 1 was last used 25 s ago (> inactive 20 s): the cleanup
  // of this request drops it; file 2 (15 s) stays.
  c.open(3, 25.0);
  CHECK(held(c, {1, 2, 3}) == Files{2, 3});
  CHECK(c.open(1, 26.0) == Lookup::kOpen);  // dropped: opened again
  // Exactly inactive old is kept (now - accessed <= inactive).
  OpenFileCache d(spec(10, 20, 600));
  d.open(1, 0.0);
  d.open(2, 20.0);
  CHECK(d.holds(1));
}

TEST_CASE("open_file_cache: a cleanup drops at most two inactive entries") {
  OpenFileCache c(spec(10, 5, 600));
  for (std::uint32_t f = 1; f <= 4; ++f) c.open(f, 0.0);
  c.open(9, 100.0);  // four inactive entries; ngx_expire_old_cached_files(cache, 1) takes two
  CHECK(held(c, {1, 2, 3, 4}) == Files{3, 4});
  CHECK(c.stats().evictions == 2);
}

TEST_CASE("open_file_cache: at max the least recently used entry is dropped by force") {
  OpenFileCache c(spec(3, 600, 600));
  c.open(1, 0.0);
  c.open(2, 1.0);
  c.open(3, 2.0);
  c.open(1, 3.0);  // 1 is now the most recently used; 2 the least
  c.open(4, 4.0);
  CHECK(c.size() == 3);
  CHECK(held(c, {1, 2, 3, 4}) == Files{1, 3, 4});
  CHECK(c.stats().evictions == 1);
}

TEST_CASE("open_file_cache: below min_uses the descriptor is closed and the next use opens again") {
  OpenFileCache c(spec(10, 600, 600, 3));
  CHECK(c.open(5, 0.0) == Lookup::kOpen);  // uses 1 < 3: closed at cleanup
  CHECK(c.open(5, 1.0) == Lookup::kOpen);  // uses 2 < 3: opened again, closed again
  CHECK(c.open(5, 2.0) == Lookup::kOpen);  // uses 3: opened, kept
  CHECK(c.open(5, 3.0) == Lookup::kHit);
}

TEST_CASE("open_file_cache: each worker has its own cache, so each walks the hot path once") {
  // One hot file, two workers, four connections: without the cache every
  // request walks the path; with it each worker walks it once, not once in
  // all (a shared cache), nor once per request.
  auto run = [&](std::vector<std::string> o) { return tests::run_file(kData + "/stages-one-hot.toml", o, 5); };
  const std::vector<std::string> two = {"nginx.worker_processes=2", "clients.hot.connections=4", "clients.hot.threads=2",
                                        "nginx.reuseport=true"};
  auto with = two;
  with.push_back("nginx.open_file_cache=\"max=10\"");
  const models::RunResult off = run(two);
  const models::RunResult on = run(with);
  REQUIRE(off.workers.size() == 2);
  REQUIRE(on.workers[0].requests > 0);
  REQUIRE(on.workers[1].requests > 0);
  const std::uint64_t per_walk = off.dentry_lookups / off.server_requests;  // the path's components
  REQUIRE(per_walk >= 2);
  CHECK(off.dentry_lookups == per_walk * off.server_requests);
  CHECK(on.dentry_lookups == 2 * per_walk);
  // Revalidated after every open_file_cache_valid: 0 s makes every request a stat(), a walk each.
  with.push_back("nginx.open_file_cache_valid=0");
  const models::RunResult always = run(with);
  CHECK(always.dentry_lookups == per_walk * always.server_requests);
}

TEST_CASE("open_file_cache: times are whole seconds, as ngx_time() gives them") {
  // Created at 10.9 s (second 10), used at 70.0 s: 70 - 10 = 60 is not
  // below valid 60, so the entry is retested (the fractions would say 59.1).
  OpenFileCache c(spec(10, 600, 60));
  CHECK(c.open(7, 10.9) == Lookup::kOpen);
  CHECK(c.open(7, 70.0) == Lookup::kRevalidate);
  // Within one second everything is the same second: 69.99 - 10.0 is 59.
  OpenFileCache d(spec(10, 600, 60));
  d.open(7, 10.0);
  CHECK(d.open(7, 69.99) == Lookup::kHit);
  // inactive 20 s: accessed at 1.0 s, cleanup at 21.9 s: 21 - 1 = 20 is
  // not more than 20, kept (the fractions would say 20.9, dropped).
  OpenFileCache e(spec(10, 20, 600));
  e.open(1, 1.0);
  e.open(2, 21.9);
  CHECK(e.holds(1));
}

TEST_CASE("open_file_cache_valid and inactive= are whole seconds, as NGINX reads them") {
  auto key_of = [](const std::vector<std::string>& overrides) {
    return tests::load_error(kData + "/small-hdd.toml", overrides).key();
  };
  CHECK(key_of({"nginx.open_file_cache_valid=\"1500ms\""}) == "nginx.open_file_cache_valid");
  CHECK(key_of({"nginx.open_file_cache_valid=0.5"}) == "nginx.open_file_cache_valid");
  CHECK(key_of({"nginx.open_file_cache=\"max=10 inactive=1500ms\""}) == "nginx.open_file_cache");
  CHECK(key_of({"nginx.open_file_cache=\"max=10 inactive=2.5s\""}) == "nginx.open_file_cache");
  // Whole seconds in any unit are taken (clerk import writes milliseconds).
  const models::Scenario sc = models::load_scenario(
      kData + "/small-hdd.toml", {"nginx.open_file_cache=\"max=10 inactive=20000ms\"", "nginx.open_file_cache_valid=\"30000ms\""});
  CHECK(sc.nginx.open_file_cache.inactive_s == 20);
  CHECK(sc.nginx.open_file_cache.valid_s == 30);
}
