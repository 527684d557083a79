// split_clients (models/server/split_clients.h) against values computed
// apart from it, and several named pools on several disks
// (models/server/pool_choice.h, models/hardware/disk_set.h) in whole runs.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "tests/load_error.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/server/split_clients.h"
#include "tests/whole_run.h"

namespace {

const std::string kPools = std::string(CLERK_TEST_DATA) + "/pools";

using tests::load_error;

const models::RunResult::PoolFigures& pool(const models::RunResult& r, const std::string& name) {
  for (const auto& p : r.pool_figures)
    if (p.name == name) return p;
  FAIL("no pool " << name);
  throw std::logic_error("unreachable");
}

}  // namespace

// The expected hashes come from a separate implementation written for this
// test in Python from Appleby's MurmurHash2 (seed 0 ^ len, m = 0x5bd1e995,
// r = 24, bytes read little-endian), as ngx_murmur_hash2 computes it.
TEST_CASE("split_clients: MurmurHash2 of known strings") {
  CHECK(models::murmur_hash2("") == 0u);  // h = 0, and the final mix keeps 0
  CHECK(models::murmur_hash2("a") == 0x92685f5eu);
  CHECK(models::murmur_hash2("ab") == 0x1aa14063u);
  CHECK(models::murmur_hash2("abc") == 0x13577c9bu);
  CHECK(models::murmur_hash2("abcd") == 0x26873021u);
  CHECK(models::murmur_hash2("/1/1/1") == 0xba1b460du);
  CHECK(models::murmur_hash2("hello, world") == 0x4b4c9d80u);
  CHECK(models::murmur_hash2("The quick brown fox jumps over the lazy dog") == 0x212729d0u);
}

TEST_CASE("split_clients: shares read as ngx_atofp with two decimals") {
  std::uint32_t h = 1;
  CHECK((models::parse_split_share("33.3%", h) && h == 3330));
  CHECK((models::parse_split_share("0.5%", h) && h == 50));
  CHECK((models::parse_split_share("100%", h) && h == 10000));
  CHECK((models::parse_split_share("2.05%", h) && h == 205));
  CHECK((models::parse_split_share("*", h) && h == 0));
  CHECK_FALSE(models::parse_split_share("33.333%", h));  // a third decimal
  CHECK_FALSE(models::parse_split_share("0%", h));       // zero is invalid
  CHECK_FALSE(models::parse_split_share("33", h));       // no %
  CHECK_FALSE(models::parse_split_share("%", h));
  CHECK_FALSE(models::parse_split_share("1.2.3%", h));
}

// The module's documentation: with 0.5% ".one", 2.0% ".two", * "", hash
// values 0 to 21474835 give ".one", 21474836 to 107374180 ".two", the rest "".
TEST_CASE("split_clients: cumulative bounds as nginx.org documents them") {
  const models::SplitClients split({{50, ".one"}, {200, ".two"}, {0, ""}});
  REQUIRE(split.bounds().size() == 3);
  CHECK(split.bounds()[0] == 21474836u);   // first hash of the second part
  CHECK(split.bounds()[1] == 107374181u);  // first hash of the third
  CHECK(split.bounds()[2] == 0u);          // "*"
}

TEST_CASE("split_clients: a URI falls in the part its hash's bound says") {
  // 33.3% "1"; 33.3% "2"; * "3": bounds 3330 * 0xffffffff / 10000 = 1430224109, then twice that.
  const models::SplitClients split({{3330, "1"}, {3330, "2"}, {0, "3"}});
  CHECK(split.bounds()[0] == 1430224109u);
  CHECK(split.bounds()[1] == 2860448218u);
  CHECK(split.part_of("/1/1/1") == 2);  // 0xba1b460d = 3122349581, past both
  CHECK(split.part_of("a") == 1);       // 0x92685f5e = 2456313694: between the two bounds
}

TEST_CASE("split_clients: without a \"*\" a hash past every share gets the empty value") {
  const models::SplitClients split({{1000, "ten"}});  // 10%
  CHECK(split.part_of("/1/1/1") == 1);                // 3122349581 >= 429496729: none
  CHECK(split.part_of("") == 0);                       // hash 0
}

TEST_CASE("split_clients: shares over many URIs within sampling error") {
  const models::SplitClients split({{3330, "1"}, {3330, "2"}, {0, "3"}});
  const int n = 200000;
  std::vector<int> count(4, 0);
  for (int i = 0; i < n; ++i) ++count[split.part_of("/" + std::to_string(i / 4096 + 1) + "/" + std::to_string(i % 4096 + 1))];
  const double expect[3] = {0.333, 0.333, 0.334};
  for (int p = 0; p < 3; ++p) {
    const double share = static_cast<double>(count[p]) / n;
    const double sigma = std::sqrt(expect[p] * (1 - expect[p]) / n);  // binomial, about 0.00105
    CHECK(std::abs(share - expect[p]) < 5 * sigma);
  }
  CHECK(count[3] == 0);
}

TEST_CASE("split_clients: shares over 100% are refused, a \"*\" counting as 100%") {
  CHECK(models::split_shares_exceed_100({{6000, "a"}, {5000, "b"}}));
  CHECK_FALSE(models::split_shares_exceed_100({{6000, "a"}, {4000, "b"}}));
  CHECK(models::split_shares_exceed_100({{0, "a"}, {1, "b"}}));  // a share after "*"
  CHECK_THROWS_AS(models::SplitClients({{6000, "a"}, {5000, "b"}}), std::invalid_argument);
}

TEST_CASE("named pools: config errors name file, line and key") {
  SECTION("aio threads=NAME of no pool") {
    const models::ConfigError e = load_error(kPools + "/unknown-pool.toml");
    CHECK(e.key() == "nginx.aio");
    CHECK(e.file().find("unknown-pool.toml") != std::string::npos);
    CHECK(e.line() == 5);
    CHECK(std::string(e.what()).find("pool_none") != std::string::npos);
  }
  SECTION("shares over 100%") {
    const models::ConfigError e = load_error(kPools + "/shares-over-100.toml");
    CHECK(e.key() == "nginx.split_clients.parts");
    CHECK(e.file().find("shares-over-100.toml") != std::string::npos);
    CHECK(e.line() == 5);
    CHECK(std::string(e.what()).find("greater than 100%") != std::string::npos);
  }
  SECTION("a split_clients value whose pool is not declared") {
    const models::ConfigError e = load_error(kPools + "/missing-pool-for-value.toml");
    CHECK(e.key() == "nginx.aio");
    CHECK(std::string(e.what()).find("pool_other") != std::string::npos);
  }
  SECTION("a proxy_cache zone no proxy_cache_path declares") {
    const models::ConfigError e = load_error(kPools + "/slow-disk.toml", {"nginx.proxy_cache=\"zone_$disk\""});
    CHECK(e.key() == "nginx.proxy_cache");
  }
}

// The 9x article's reason for a pool per disk: a slow disk delays only its
// own pool's queue. Open-loop load, half the URIs on each disk: with a pool
// per disk the fast disk's tasks wait for nothing but its own threads; with
// one pool of as many threads (FIFO, ngx_thread_pool.c) they queue behind the
// slow disk's backlog like every task.
TEST_CASE("named pools: per-disk pools keep a slow disk from delaying the other disk's reads") {
  const models::RunResult per_disk = tests::run_file(kPools + "/slow-disk.toml", {}, 20);
  const models::RunResult one_pool = tests::run_file(kPools + "/slow-disk.toml", {"nginx.aio=\"threads=shared\""}, 20);
  const auto& fast = pool(per_disk, "pool_fast");
  const auto& slow = pool(per_disk, "pool_slow");
  const auto& shared = pool(one_pool, "shared");
  REQUIRE(fast.tasks > 100);
  REQUIRE(slow.tasks > 10);
  REQUIRE(shared.tasks > 100);
  CHECK(pool(per_disk, "shared").tasks == 0);  // declared, named by no request
  CHECK(pool(one_pool, "pool_fast").tasks == 0);
  // The slow disk's backlog: its own pool's tasks wait long, and so do the
  // one pool's, fast-disk tasks among them.
  CHECK(slow.mean_queue_wait_s > 0.5);
  CHECK(shared.mean_queue_wait_s > 0.5);
  // The fast disk's pool: a read of about 2.5 ms (1 ms + 256 KiB at 200 MB/s)
  // on 2 threads at 50 requests a second waits a few ms at most.
  CHECK(fast.mean_queue_wait_s < 0.05);
  CHECK(fast.mean_queue_wait_s < shared.mean_queue_wait_s / 10);
  // Per disk: both carry reads; the fast one is far from busy, the slow one is.
  REQUIRE(per_disk.disk_figures.size() == 3);
  CHECK(per_disk.disk_figures[1].name == "fast");
  CHECK(per_disk.disk_figures[2].name == "slow");
  CHECK(per_disk.disk_figures[1].read_bytes_per_s > 0);
  CHECK(per_disk.disk_figures[2].utilization > 0.9);
  CHECK(per_disk.disk_figures[1].utilization < 0.5);
}

TEST_CASE("named pools: every request accounted for with several pools and disks") {
  const models::RunResult r = tests::run_file(kPools + "/slow-disk.toml", {}, 5);
  std::uint64_t tasks = 0;
  for (const auto& p : r.pool_figures) tasks += p.tasks;
  CHECK(tasks == r.pool_tasks);
}
