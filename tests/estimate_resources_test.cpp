// models::estimate_resources: what a run will need, before it starts
// (issue 21, finding 5: memory grew without bound with duration and rates;
// the 2026-11-28 probe, finding 6: the data set's files, the thread pools,
// preloads and trace windows were not counted; the 2026-11-29 probe,
// findings 1, 2 and 7: io_uring's ring pools, the disks' drives and units
// and what a run reads into the page cache were not). Each term is checked against
// the peak memory of a run measured in a child process (wait4's ru_maxrss):
// the estimate's growth between a small and a large case within a factor of
// the measured growth.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "common/sanitizer.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/resource_estimate.h"
#include "models/scenario/world.h"

namespace {

models::Scenario with_clients(std::uint32_t connections, double rate) {
  models::Scenario sc;
  models::WrkGroupSpec g;
  g.connections = connections;
  g.timeout_s = 2;
  g.rate = rate;
  sc.clients = {g, g};
  sc.warmup.settled = false;  // a cold start: the window's seconds alone (a warm-up's are held before them)
  return sc;
}

const std::string kSmall = std::string(CLERK_TEST_DATA) + "/small-hdd.toml";

// The estimate of `kSmall` with `overrides` over `seconds`.
double estimate(const std::vector<std::string>& overrides, double seconds) {
  return models::estimate_resources(models::load_scenario(kSmall, overrides), seconds).total_bytes();
}

// The peak resident memory, in bytes, of a child process that builds the
// World of `kSmall` with `overrides`, runs `seconds` of it and takes its
// result, as `clerk run` does (the end-of-run figures allocate too).
double measured_peak(const std::vector<std::string>& overrides, double seconds) {
  const models::Scenario sc = models::load_scenario(kSmall, overrides);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int code = 0;
    try {
      models::World w(sc, sc.seed, seconds);
      w.run();
      const models::RunResult r = w.result(0);
      code = r.clients.empty() ? 1 : 0;
    } catch (...) {
      code = 1;
    }
    ::_exit(code);
  }
  int status = 0;
  struct rusage usage {};
  REQUIRE(::wait4(child, &status, 0, &usage) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return static_cast<double>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
}

// The bytes of the part named `what` (0 when the estimate has none).
double part(const models::ResourceEstimate& e, const std::string& what) {
  for (const models::ResourceEstimate::Part& p : e.parts)
    if (p.what == what) return p.bytes;
  return 0;
}

double part_of(const std::vector<std::string>& overrides, const std::string& what) {
  return part(models::estimate_resources(models::load_scenario(kSmall, overrides), 1), what);
}

// An SSD of `units` units ([disks.NAME]'s keys, or an array's member).
std::string ssd_table(int units) {
  return "{type=\"ssd\", capacity=\"64g\", bandwidth=\"500MB/s\", read_latency=\"50us\", parallelism=" +
         std::to_string(units) + "}";
}

// `arrays` [disks.aN] RAID0 arrays of `devices` SSDs of `units` units each.
std::vector<std::string> raid0_arrays(int arrays, int devices, int units) {
  std::vector<std::string> out;
  for (int i = 0; i < arrays; ++i)
    out.push_back("disks.a" + std::to_string(i) + "={type=\"raid0\", devices=" + std::to_string(devices) +
                  ", member=" + ssd_table(units) + "}");
  return out;
}

constexpr bool kSanitized = common::kAddressSanitizer;  // shadow memory and quarantine: peaks are not the model's

// From `small` to `large` the estimate grows by at least `at_least` bytes,
// and by no less than the measured peak grows nor more than `factor` times it.
void check_term(const std::vector<std::string>& small, const std::vector<std::string>& large, double seconds,
                double at_least, double factor) {
  const double estimated = estimate(large, seconds) - estimate(small, seconds);
  CHECK(estimated >= at_least);
  if (kSanitized) return;
  const double measured = measured_peak(large, seconds) - measured_peak(small, seconds);
  INFO("estimated growth " << estimated / 1e6 << " MB, measured " << measured / 1e6 << " MB");
  CHECK(measured > 0);
  CHECK(estimated >= measured / 1.25);  // an upper bound, give or take the allocator's rounding
  CHECK(estimated <= measured * factor);
}

}  // namespace

TEST_CASE("the estimate counts the data set's files: 96 bytes each, measured") {
  check_term({"dataset.files=4096", "dataset.tree=[64,64]", "dataset.file_size=\"4k\""},
             {"dataset.files=262144", "dataset.tree=[512,512]", "dataset.file_size=\"4k\""}, 0.01,
             258048 * 96.0, 2);
}

TEST_CASE("the estimate counts every worker's thread pool threads with aio threads, none without") {
  check_term({"nginx.aio=\"threads\"", "nginx.worker_processes=1", "nginx.thread_pool.threads=32"},
             {"nginx.aio=\"threads\"", "nginx.worker_processes=16", "nginx.thread_pool.threads=1024"}, 0.01,
             (16 * 1024 - 32) * 400.0, 2);
  CHECK(estimate({"nginx.worker_processes=16", "nginx.thread_pool.threads=1024"}, 1) ==
        estimate({"nginx.worker_processes=16", "nginx.thread_pool.threads=32"}, 1));
}

// The sixth hostile probe (2026-11-29), finding 1: with aio = "io_uring" on a kernel
// with async buffered reads each worker's ring pool has one wait entry per
// SQ entry; 1,024 workers of 32,768 entries took about 14 GB, not counted.
TEST_CASE("the estimate counts every worker's io_uring ring pool, measured") {
  const std::vector<std::string> ring = {"nginx.aio=\"io_uring\"", "nginx.worker_processes=16",
                                         "nginx.io_uring.entries=4096"};
  CHECK(part_of(ring, "io_uring rings") == Approx(16 * 4096 * 432.0));
  CHECK(part_of({"nginx.aio=\"threads\"", "nginx.worker_processes=16"}, "io_uring rings") == 0);
  // Before 5.9 the pool is io-wq's: min(entries, 4 x CPUs) = 16 on small-hdd's 4 CPUs.
  std::vector<std::string> io_wq = ring;
  io_wq.push_back("kernel.release=\"5.4.0\"");
  CHECK(part_of(io_wq, "io_uring rings") == Approx(16 * 16 * 432.0));
  check_term({"nginx.aio=\"io_uring\"", "nginx.worker_processes=1", "nginx.io_uring.entries=32"}, ring, 0.01,
             (16 * 4096 - 32) * 400.0, 2);
}

// Finding 2: each unit of each SSD of each array is a slot; 256 x 4,096
// units an array took about 46 MB, and the number of [disks.NAME] has no cap.
TEST_CASE("the estimate counts every drive and SSD unit of [disk] and [disks.NAME], measured") {
  const std::vector<std::string> one = raid0_arrays(1, 2, 1);
  const std::vector<std::string> two = raid0_arrays(2, 256, 1024);
  // small-hdd's [disk] (one drive of one unit) and two arrays of 256 x 1,024 units.
  CHECK(part_of(two, "disk units") == Approx((1 + 512) * 4096.0 + (1 + 512 * 1024) * 48.0));
  CHECK(part_of({"disks.d={type=\"ssd\", capacity=\"64g\", bandwidth=\"500MB/s\", read_latency=\"50us\", "
                 "parallelism=4096}"},
                "disk units") == Approx(2 * 4096.0 + (1 + 4096) * 48.0));
  check_term(one, two, 0.01, (512 * 1024 - 2) * 44.0, 2);
}

// Finding 7 of the sixth probe: what the run reads into the page cache, up
// to memory.page_cache or the data set. A 1 TiB data set read at 300 GB/s
// into a cache of 1024t in 4k units grew by gigabytes a simulated second,
// none of it counted.
TEST_CASE("the estimate counts the cache units a run can read in: the page cache's, or the data set's if less") {
  const std::vector<std::string> big = {"memory.page_cache=\"1024t\"", "memory.cache_unit=\"4k\"",
                                        "disk.capacity=\"2t\"", "dataset.files=1048576",
                                        "dataset.tree=[1024,1024]", "dataset.file_size=\"1m\""};
  // The data set is the smaller: 2^20 files of 256 units.
  CHECK(part_of(big, "cache units read in") == Approx(1048576 * 256 * 80.0));
  // The page cache is: small-hdd's 64m in 64k units.
  CHECK(part_of({}, "cache units read in") == Approx(1024 * 80.0));
  // A preload is counted once, as preloaded units: 32 files of 16 units.
  CHECK(part_of({"dataset.preload_fraction=0.125"}, "cache units read in") == Approx((1024 - 32 * 16) * 80.0));
}

TEST_CASE("the estimate counts the preloaded cache units: entry and slot") {
  const std::vector<std::string> base = {"dataset.files=1", "dataset.tree=[1]", "memory.cache_unit=\"4k\"",
                                         "memory.page_cache=\"2g\"", "preload=[\"/1\"]", "clients.random.path=\"/1\"",
                                         "clients.hot.path=\"/1\""};
  std::vector<std::string> small = base, large = base;
  small.push_back("dataset.file_size=\"256m\"");
  large.push_back("dataset.file_size=\"1g\"");
  check_term(small, large, 0.01, 196608 * 36.0, 2);
}

TEST_CASE("the estimate counts a trace group's report windows") {
  const std::string trace = std::string(CLERK_TEST_DATA) + "/trace/combined.log";
  auto group = [&](const char* window) {
    return std::vector<std::string>{"clients.log={threads=1, connections=4, trace=\"" + trace + "\", window=\"" +
                                    window + "\"}"};
  };
  const std::vector<std::string> small = group("10s"), large = group("1ms");
  // combined.log's lines fall due over 10.5 s: 2 s make 2,000 windows of 1 ms.
  check_term(small, large, 2, 1999 * 4 * 2402.0, 4);
}

// The 2026-11-28 probe 5, finding 2: at 1e9 requests/s the peak grew about
// 2.3 times as fast as the estimate (8 bytes a request against about 19-22
// measured). Every request of the large case is due and unsent (an HDD
// serves a few hundred a second), so the peak's growth is the backlog's.
TEST_CASE("the estimate counts an open-loop backlog at what each due request takes, measured") {
  check_term({"clients.random.rate=1000"}, {"clients.random.rate=1e9"}, 0.004, 3.9e6 * 8, 1.5);
}

// The sixth probe, finding 2: a warm-up runs the same load, and what it
// leaves unsent is queued into the window; the estimate counted the window's
// backlog only, so a warm-up of any length was accepted at any rate.
TEST_CASE("the estimate counts the backlog an open loop builds during a fixed warm-up, measured") {
  check_term({"clients.random.rate=1e9"}, {"clients.random.rate=1e9", "warmup=\"0.004s\""}, 0.004, 3.9e6 * 8, 1.5);
}

// Probe 7, finding 1: wrk's per-second windows are kept from t = 0 through
// the warm-up (the visualizer shows them) and dropped when the window
// begins, so a long warm-up held as many as a window that long; the
// estimate counted the window's seconds only. Twenty near-idle groups
// (0.01 requests a second: each second's windows, nothing else).
TEST_CASE("the estimate counts the per-second windows a fixed warm-up keeps, measured") {
  std::vector<std::string> idle = {"clients.random.rate=0.01"};
  for (int g = 0; g < 20; ++g)
    idle.push_back("clients.g" + std::to_string(g) + "={threads=1, connections=1, path=\"random\", rate=0.01}");
  std::vector<std::string> warmed = idle;
  warmed.push_back("warmup=\"1000s\"");
  check_term(idle, warmed, 0.01, 21 * 1000 * 2 * 2402.0 * 4, 5);
  // The window and the warm-up are not held at once: the longer counts.
  const models::ResourceEstimate long_warmup = models::estimate_resources(models::load_scenario(kSmall, warmed), 1000);
  const models::ResourceEstimate window_only = models::estimate_resources(models::load_scenario(kSmall, idle), 1000);
  CHECK(part(long_warmup, "per-second series") == part(window_only, "per-second series"));
}

TEST_CASE("a settled warm-up's backlog is bounded by warmup_max, and a refusal says the warm-up") {
  const double window = part_of({"clients.random.rate=1000", "warmup=\"0s\""}, "open-loop backlog");
  CHECK(part_of({"clients.random.rate=1000", "warmup=\"settled\"", "warmup_max=\"99s\""}, "open-loop backlog") ==
        Approx(window * 100));
  const models::Scenario sc =
      models::load_scenario(kSmall, {"clients.random.rate=1e9", "warmup=\"settled\"", "warmup_max=\"1000s\""});
  if (models::memory_budget_bytes() >= 1e9 * 1000 * 8) return;
  try {
    models::check_fits_machine(sc, 0.01, sc.file);
    FAIL("accepted");
  } catch (const models::ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("a run of 0.01 s after a warm-up of up to 1000 s would need"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("largest part, open-loop backlog"));
  }
}

TEST_CASE("data sets, pools, preloads and replays too large for the machine are refused before they start") {
  const double budget = models::memory_budget_bytes();
  REQUIRE(budget > 0);
  auto refused = [&](const std::vector<std::string>& overrides, double seconds, const std::string& part) {
    INFO(part);
    const models::Scenario sc = models::load_scenario(kSmall, overrides);
    try {
      models::check_fits_machine(sc, seconds, sc.file);
      FAIL("accepted");
    } catch (const models::ConfigError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::Contains(kSmall));
      CHECK_THAT(e.what(), Catch::Matchers::Contains("largest part, " + part));
    }
  };
  // 2^30 files of 1 byte: 96 GiB of tables (the probe's ran out of memory, exit 3).
  if (budget < 1073741824.0 * 96)
    refused({"dataset.files=1073741824", "dataset.tree=[32768,32768]", "dataset.file_size=1", "disk.capacity=\"32t\""},
            0.01, "data set files");
  // 1,024 workers of 65,536 threads: 27 GiB.
  if (budget < 1024 * 65536 * 432.0)
    refused({"nginx.aio=\"threads\"", "nginx.worker_processes=1024", "nginx.thread_pool.threads=65536"}, 0.01,
            "thread pool threads");
  // 16 files of 1 TiB preloaded in 4 KiB units: 144 GiB of entries and slots.
  if (budget < 16 * 268435456.0 * 36)
    refused({"dataset.files=16", "dataset.tree=[16]", "dataset.file_size=\"1t\"", "disk.capacity=\"32t\"",
             "memory.cache_unit=\"4k\"", "memory.page_cache=\"32t\"", "dataset.preload_fraction=1",
             "clients.random.path=\"/1\"", "clients.hot.path=\"/1\""},
            0.01, "preloaded cache units");
  // The sixth probe's shapes. 1,024 workers of 32,768 ring entries: 13.5 GiB.
  if (budget < 1024 * 32768 * 432.0)
    refused({"nginx.aio=\"io_uring\"", "nginx.worker_processes=1024", "nginx.io_uring.entries=32768"}, 0.01,
            "io_uring rings");
  // 300 arrays of 256 SSDs of 4,096 units: 14.1 GiB.
  if (budget < 300 * 256 * 4096 * 48.0) refused(raid0_arrays(300, 256, 4096), 0.01, "disk units");
  // 16 files of 1 TiB read into a 32t page cache in 4 KiB units: 320 GiB of entries and slots.
  if (budget < 16 * 268435456.0 * 80)
    refused({"dataset.files=16", "dataset.tree=[16]", "dataset.file_size=\"1t\"", "disk.capacity=\"32t\"",
             "memory.cache_unit=\"4k\"", "memory.page_cache=\"32t\"", "clients.random.path=\"/1\"",
             "clients.hot.path=\"/1\""},
            0.01, "cache units read in");
  // A day of 1 ms trace windows: 86.4 million windows, 3.1 TiB.
  refused({"clients.log={threads=1, connections=4, trace=\"" + std::string(CLERK_TEST_DATA) +
           "/trace/combined.log\", window=\"1ms\"}"},
          86400, "trace windows");
}

TEST_CASE("the estimate grows linearly with simulated time, connections and open-loop rate") {
  const models::Scenario sc = with_clients(100, 0);
  const double a = models::estimate_resources(sc, 1000).total_bytes();
  const double b = models::estimate_resources(sc, 2000).total_bytes();
  const double c = models::estimate_resources(sc, 3000).total_bytes();
  CHECK(b > a);
  CHECK(c - b == Approx(b - a));
  // Two groups: two latency windows each per second, of 2,402 bins.
  CHECK((b - a) / 1000 >= 4 * 2402.0);
  CHECK(models::estimate_resources(with_clients(200, 0), 10).total_bytes() >
        models::estimate_resources(with_clients(100, 0), 10).total_bytes());
  CHECK(models::estimate_resources(with_clients(100, 1e6), 10).total_bytes() >
        models::estimate_resources(with_clients(100, 0), 10).total_bytes() + 2 * 1e6 * 10 * 7);
}

TEST_CASE("a run too large for the machine is refused with its estimate") {
  REQUIRE(models::memory_budget_bytes() > 0);
  const models::Scenario huge = with_clients(16000000, 0);  // 2 x 16 million connections
  try {
    models::check_fits_machine(huge, 10, "huge.toml");
    FAIL("a run of 32 million connections was accepted");
  } catch (const models::ConfigError& e) {
    const std::string what = e.what();
    CHECK(what.find("huge.toml") != std::string::npos);
    CHECK(what.find("connections") != std::string::npos);
    CHECK(what.find("GiB") != std::string::npos);
  }
  CHECK_NOTHROW(models::check_fits_machine(with_clients(100, 0), 60, "small.toml"));
}

// The new parts refuse what grew without bound, not what the project runs:
// every committed scenario (those that load alone; hardware profiles and
// shared parts do not) fits at its own duration.
TEST_CASE("no committed scenario is refused for memory") {
  REQUIRE(models::memory_budget_bytes() > 0);
  int loaded = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(CLERK_SWEEP_SOURCE_DIR) + "/scenarios")) {
    if (entry.path().extension() != ".toml") continue;
    models::Scenario sc;
    try {
      sc = models::load_scenario(entry.path().string());
    } catch (const models::ConfigError&) {
      continue;  // not a scenario of its own
    }
    ++loaded;
    INFO(entry.path().string() << ": " << models::estimate_resources(sc, sc.duration_s).text());
    CHECK_NOTHROW(models::check_fits_machine(sc, sc.duration_s, sc.file));
  }
  CHECK(loaded >= 20);
}
