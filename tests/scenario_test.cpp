// Whole runs: reproducibility, accounting, and what NGINX would do.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/scenario/config_loader.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"
#include "tests/load_error.h"
#include "tests/whole_run.h"

namespace {

const std::string kData = CLERK_TEST_DATA;

models::RunResult run(const std::vector<std::string>& overrides = {}, std::uint64_t seed = 3, double seconds = 5) {
  return tests::run_file(kData + "/small-hdd.toml", overrides, seconds, seed);
}

using tests::group;

void check_accounting(const models::RunResult& r) {
  for (const auto& c : r.clients) {
    std::uint64_t failed = 0;
    for (const auto& [reason, n] : c.failed) failed += n;
    INFO("group " << c.spec.name);
    CHECK(c.issued == c.complete + failed + c.in_flight);
    CHECK(c.in_flight <= c.connections_open);
  }
}

}  // namespace

TEST_CASE("the same seed gives byte-identical JSON, another seed does not") {
  const std::string a = models::to_json(run(), false).dump(2);
  const std::string b = models::to_json(run(), false).dump(2);
  const std::string c = models::to_json(run({}, 4), false).dump(2);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("every request is completed and failed with a reason and or in flight") {
  check_accounting(run());
  check_accounting(run({"nginx.aio=threads"}));
}

TEST_CASE("a full thread pool queue fails the task and logs as NGINX does") {
  // One thread and no queue: a second concurrent task overflows.
  const auto r = run({"nginx.aio=threads", "nginx.thread_pool.threads=1", "nginx.thread_pool.max_queue=0"});
  CHECK(r.pool_overflows > 0);
  CHECK(r.server_failed.at("thread_pool_overflow") == r.pool_overflows);
  REQUIRE_FALSE(r.error_log.empty());
  CHECK(r.error_log.front() == "thread pool \"default\" queue overflow: 0 tasks waiting");
  std::uint64_t client_failed = 0, read_errors = 0;
  for (const auto& c : r.clients) {
    for (const auto& [reason, n] : c.failed) client_failed += n;
    read_errors += c.errors.read;
  }
  CHECK(client_failed == r.pool_overflows);  // each closed connection cost one request
  CHECK(read_errors == r.pool_overflows);    // which wrk counts as a read error, then reconnects
  check_accounting(r);
}

TEST_CASE("blocking reads put workers in D state, the pool keeps them sleeping") {
  // The metadata caches start cold: open() reads each top-level directory's
  // block and inode-table block once in the worker, a few dozen reads.
  const auto blocking = run();
  const auto threads = run({"nginx.aio=threads"});
  CHECK(blocking.workers_disk_wait > 0.5);
  // With the pool only open()'s cold reads (about 40 here) block a worker.
  CHECK(threads.workers_disk_wait < blocking.workers_disk_wait / 4);
  CHECK(threads.workers_sleeping > 0.5);
  CHECK(threads.pool_tasks > 0);
  // The cached file's connections are served far faster when the loop never blocks.
  CHECK(group(threads, "hot").complete > 3 * group(blocking, "hot").complete);
}

TEST_CASE("open() blocks the worker even with the pool unless it is offloaded too") {
  const auto read_only = run({"nginx.aio=threads"});
  const auto with_open = run({"nginx.aio=threads", "nginx.aio_open=true"});
  CHECK(read_only.workers_disk_wait > 0.1);  // cold metadata caches: open() reads in the worker
  CHECK(with_open.workers_disk_wait == 0);
  CHECK(with_open.metadata_reads > 0);       // the same reads, now in pool threads
  CHECK(with_open.blocked_wait_s == 0);
}

TEST_CASE("each pool task costs one event in its pool thread and two in its worker") {
  // Everyone reads the cached file through the pool, and nothing else costs
  // CPU: the worker posts the task and handles its completion (an event
  // each), the pool thread is woken, takes the task and writes the eventfd
  // (one event). Few tasks run at once on 4 CPUs: running is CPU time.
  const std::vector<std::string> common = {"nginx.aio=threads",   "clients.random.path=\"/1/1\"", "preload=[\"/1/1\"]",
                                           "cpu.request=0",       "cpu.sendfile_byte=0"};
  auto with = common;
  with.push_back("cpu.event=\"50us\"");
  const auto r = run(with);
  const auto none = run(common);
  CHECK(none.pool_running == 0);
  REQUIRE(r.pool_tasks > 1000);
  const double tasks = static_cast<double>(r.pool_tasks);
  const double pool_cpu_s = r.pool_running * static_cast<double>(r.pool_threads) * r.duration_s;
  const double worker_cpu_s = r.workers_running * static_cast<double>(r.workers.size()) * r.duration_s;
  CHECK(pool_cpu_s == Approx(tasks * 50e-6).epsilon(0.02));
  CHECK(worker_cpu_s == Approx(2 * tasks * 50e-6).epsilon(0.02));
  check_accounting(r);
}

TEST_CASE("pool_worker and pool_thread split a pool task's CPU between the worker and its pool thread") {
  // The same run as above, each side given its own cost: 30 us in the
  // worker's main thread (15 posting, 15 completing), 70 us in the pool
  // thread, and nothing else costs CPU. With the worker this cheap, more
  // pool threads run at once than 4 CPUs hold (running would count their
  // wait for a CPU too): 16 CPUs, so that running is CPU time.
  const std::vector<std::string> split = {"nginx.aio=threads",     "clients.random.path=\"/1/1\"",
                                          "preload=[\"/1/1\"]",    "cpu.request=0",
                                          "cpu.sendfile_byte=0",   "cpu.logical_cpus=16",
                                          "cpu.pool_worker=\"30us\"", "cpu.pool_thread=\"70us\""};
  const auto r = run(split);
  REQUIRE(r.pool_tasks > 1000);
  const double tasks = static_cast<double>(r.pool_tasks);
  const double pool_cpu_s = r.pool_running * static_cast<double>(r.pool_threads) * r.duration_s;
  const double worker_cpu_s = r.workers_running * static_cast<double>(r.workers.size()) * r.duration_s;
  CHECK(pool_cpu_s == Approx(tasks * 70e-6).epsilon(0.02));
  CHECK(worker_cpu_s == Approx(tasks * 30e-6).epsilon(0.02));
  check_accounting(r);
}

TEST_CASE("without pool_worker and pool_thread a pool task costs three events, byte for byte") {
  // Profiles written before the split keep their results exactly: the
  // defaults are 2 x event in the worker and event in the pool thread.
  const std::vector<std::string> common = {"nginx.aio=threads", "cpu.event=\"17.2us\""};
  auto explicit_split = common;
  explicit_split.insert(explicit_split.end(), {"cpu.pool_worker=\"34.4us\"", "cpu.pool_thread=\"17.2us\""});
  const models::Scenario sc = models::load_scenario(kData + "/small-hdd.toml", common);
  CHECK(sc.hardware.costs.pool_worker == 2 * sc.hardware.costs.event);
  CHECK(sc.hardware.costs.pool_thread == sc.hardware.costs.event);
  CHECK(sc.hardware.costs.pool_post() == sc.hardware.costs.event);
  CHECK(sc.hardware.costs.pool_complete() == sc.hardware.costs.event);
  const auto a = run(common), b = run(explicit_split);
  CHECK(models::to_json(a, false).dump(2) == models::to_json(b, false).dump(2));
  const auto c = run({"nginx.aio=threads", "cpu.event=\"17.2us\"", "cpu.pool_worker=\"13us\""});
  CHECK(models::to_json(a, false).dump(2) != models::to_json(c, false).dump(2));  // the keys are read
}

TEST_CASE("after each full chunk the next write waits for the 1 ms timer") {
  // One connection to the cached file on a 10 Gbit/s NIC: a 512 KiB chunk
  // leaves in 0.45 ms, so the timer between a response's two chunks shows.
  // The other group reads random files through the pool and barely uses
  // the NIC. NGINX's clock has millisecond resolution: the deferral costs 1
  // to 2 ms after the turn that saw the first chunk done, less the time that
  // chunk is still on the wire.
  const std::vector<std::string> common = {"clients.random.connections=1", "clients.random.threads=1",
                                           "clients.hot.connections=1",    "clients.hot.threads=1",
                                           "preload=[\"/1/1\"]",          "nic.line_rate=10Gbit/s",
                                           "nginx.aio=threads"};
  auto with = common;
  with.push_back("nginx.sendfile_max_chunk=512k");
  auto without = common;
  without.push_back("nginx.sendfile_max_chunk=0");
  const double chunked = group(run(with, 3, 2), "hot").raw.mean();
  const double whole = group(run(without, 3, 2), "hot").raw.mean();
  CHECK(chunked - whole > 0.0005);
  CHECK(chunked - whole < 0.0021);
}

TEST_CASE("an SSD's sequential_bandwidth is a rate, unset by default, and a bad one names its key") {
  const std::string cf = kData + "/../../scenarios/cloudflare/blocking.toml";
  CHECK(std::get<models::SsdSpec>(models::load_scenario(cf, {}).hardware.disk).sequential_bandwidth_Bps == 0);
  CHECK(std::get<models::SsdSpec>(models::load_scenario(cf, {"disk.sequential_bandwidth=\"2GB/s\""}).hardware.disk).sequential_bandwidth_Bps ==
        Approx(2e9));
  try {
    models::load_scenario(cf, {"disk.sequential_bandwidth=\"fast\""});
    FAIL("no error for disk.sequential_bandwidth");
  } catch (const models::ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("disk.sequential_bandwidth") && Catch::Contains("must be a rate"));
  }
}

TEST_CASE("an SSD's sequential_depth_bandwidth is read as depth_bandwidth is, rates may fall, and it needs sequential_bandwidth") {
  const std::string cf = kData + "/../../scenarios/cloudflare/blocking.toml";
  const auto ssd = [&](const std::vector<std::string>& overrides) {
    return std::get<models::SsdSpec>(models::load_scenario(cf, overrides).hardware.disk);
  };
  CHECK(ssd({}).sequential_depth_bandwidth.empty());
  // A measured table whose rate dips at depth 4 loads as written.
  const models::SsdSpec d = ssd({"disk.sequential_bandwidth=\"3GB/s\"",
                                 "disk.sequential_depth_bandwidth=[[1, \"1GB/s\"], [4, \"0.9GB/s\"], [6.5, \"3GB/s\"]]"});
  REQUIRE(d.sequential_depth_bandwidth.size() == 3);
  CHECK(d.sequential_depth_bandwidth[0] == std::pair<double, double>(1, 1e9));
  CHECK(d.sequential_depth_bandwidth[1] == std::pair<double, double>(4, 0.9e9));
  CHECK(d.sequential_depth_bandwidth[2] == std::pair<double, double>(6.5, 3e9));
  const auto fails = [&](const std::vector<std::string>& overrides, const std::string& says) {
    tests::check_refused(cf, overrides, "disk.sequential_depth_bandwidth", says);
  };
  fails({"disk.sequential_depth_bandwidth=[[1, \"1GB/s\"]]"}, "needs sequential_bandwidth");
  const std::string seq = "disk.sequential_bandwidth=\"3GB/s\"";
  fails({seq, "disk.sequential_depth_bandwidth=[[4, \"1GB/s\"], [2, \"3GB/s\"]]"}, "depths must rise");
  fails({seq, "disk.sequential_depth_bandwidth=[[1, \"1GB/s\"], [1, \"3GB/s\"]]"}, "depths must rise");
  fails({seq, "disk.sequential_depth_bandwidth=[[0.5, \"1GB/s\"]]"}, "depths must rise, from 1");
  fails({seq, "disk.sequential_depth_bandwidth=[[1, \"fast\"]]"}, "each entry is [depth, \"bandwidth\"]");
  fails({seq, "disk.sequential_depth_bandwidth=[]"}, "must be a list");
}

TEST_CASE("bad input names the file and the line and the key") {
  auto fails = [](const std::vector<std::string>& overrides, const std::string& key, const std::string& text) {
    tests::check_refused(kData + "/small-hdd.toml", overrides, key, text);
  };
  fails({"nginx.worker_proceses=3"}, "nginx.worker_proceses", "did you mean 'worker_processes'");
  fails({"nginx.worker_processes=0"}, "nginx.worker_processes", "between 1 and 1024");
  fails({"dataset.file_size=-5"}, "dataset.file_size", "must not be negative");
  fails({"nginx.sendfile_max_chunk=\"lots\""}, "nginx.sendfile_max_chunk", "must be a size");
  fails({"cpu.logical_cpus=\"four\""}, "cpu.logical_cpus", "whole number");
  fails({"nginx.aio=sometimes"}, "nginx.aio", "must be one of");
  fails({"clients.hot.path=/99/1"}, "clients.hot.path", "not a file of the dataset");
  fails({"dataset.tree=[16, 15]"}, "dataset.tree", "multiplies to 240");

  try {
    models::load_scenario(kData + "/small-hdd.toml", {"nginx.worker_proceses=3"});
  } catch (const models::ConfigError& e) {
    CHECK(e.file() == "--set");
  }
}

TEST_CASE("errors in a file point at its line") {
  try {
    models::load_scenario(kData + "/bad-key.toml");
    FAIL("no error");
  } catch (const models::ConfigError& e) {
    CHECK(e.file().find("bad-key.toml") != std::string::npos);
    CHECK(e.line() == 4);
    CHECK(e.key() == "nginx.sendfile_max_chunks");
  }
}

TEST_CASE("missing files and include cycles are errors") {
  CHECK_THROWS_WITH(models::load_scenario(kData + "/no-such-file.toml"), Catch::Contains("cannot read"));
  CHECK_THROWS_WITH(models::load_scenario(kData + "/include-cycle-a.toml"), Catch::Contains("include cycle"));
}

TEST_CASE("a hardware profile can be swapped in for the one a scenario includes") {
  const std::string scenarios = kData + "/../../scenarios";
  const auto base = models::load_scenario(scenarios + "/nginx-9x/threads.toml");
  const auto swapped = models::load_scenario(scenarios + "/nginx-9x/threads.toml", {},
                                             scenarios + "/hardware/local.toml");
  CHECK(base.hardware.logical_cpus == 24);
  CHECK(swapped.hardware.logical_cpus == 2);                // the swapped-in profile's
  CHECK(swapped.nginx.worker_processes == 16);              // the scenario's own keys stay
  CHECK(swapped.nginx.aio == models::find_aio_mode("threads"));
  CHECK_THROWS_AS(models::load_scenario(scenarios + "/nginx-9x/threads.toml", {}, kData + "/no-such-profile.toml"),
                  models::ConfigError);
  // A profile with no disk and 1 GiB of page cache cannot hold the 9x data
  // set (256 GiB): a ConfigError at load time, not an abort at the first read.
  CHECK_THROWS_WITH(models::load_scenario(scenarios + "/nginx-9x/threads.toml", {},
                                          scenarios + "/hardware/aws-36-core.toml"),
                    Catch::Contains("disk.type = \"none\""));
}

TEST_CASE("the kernel's CPU time for reads into the page cache is the bytes read times its cost") {
  const auto cold = run({"cpu.cache_fill_byte=2ns"});
  const auto none = run({});
  CHECK(none.kernel_cpu_s == 0);
  const double bytes_read = cold.disk_read_bytes_per_s * cold.duration_s;
  REQUIRE(bytes_read > 0);
  // Reads still in flight at the end count on the disk's side only.
  CHECK(cold.kernel_cpu_s == Approx(2e-9 * bytes_read).epsilon(0.02));
}

TEST_CASE("with a kernel scheduler the page-cache fill runs in the reading worker, as its own CPU time") {
  // small-hdd: aio off, so every read is started by a worker's sendfile().
  const auto ps = run({"cpu.cache_fill_byte=2ns"});
  const auto sched = run({"cpu.cache_fill_byte=2ns", "kernel.scheduler=\"eevdf\""});
  const auto on_cpu_s = [](const models::RunResult& r) {
    return (r.workers_running - r.workers_cpu_wait) * r.workers.size() * r.duration_s;
  };
  REQUIRE(sched.kernel_cpu_s > 0);
  // The workers ran at least the fill they started (plus their own costs).
  CHECK(on_cpu_s(sched) >= sched.kernel_cpu_s);
  // Processor sharing runs it as a job of no task: the workers' own CPU time is far less.
  CHECK(on_cpu_s(ps) < 0.5 * ps.kernel_cpu_s);
}

TEST_CASE("a reader's share of the fill equal to the whole runs as if the profile did not split it") {
  const std::vector<std::string> base{"cpu.cache_fill_byte=2ns", "kernel.scheduler=\"eevdf\""};
  auto with = base;
  with.push_back("cpu.cache_fill_reader_byte=2ns");
  CHECK(models::to_json(run(base), false).dump(2) == models::to_json(run(with), false).dump(2));
}

TEST_CASE("the fill outside the reader leaves the workers' own CPU time and is still counted whole") {
  const auto on_cpu_s = [](const models::RunResult& r) {
    return (r.workers_running - r.workers_cpu_wait) * r.workers.size() * r.duration_s;
  };
  const auto all = run({"cpu.cache_fill_byte=2ns", "kernel.scheduler=\"eevdf\""});
  const auto none = run({"cpu.cache_fill_byte=2ns", "cpu.cache_fill_reader_byte=0ns", "kernel.scheduler=\"eevdf\""});
  const double bytes_read = none.disk_read_bytes_per_s * none.duration_s;
  REQUIRE(bytes_read > 0);
  CHECK(none.kernel_cpu_s == Approx(2e-9 * bytes_read).epsilon(0.02));
  // All of it in the completion: the workers run far less than the fill (as with processor sharing).
  CHECK(on_cpu_s(none) < 0.5 * none.kernel_cpu_s);
  CHECK(on_cpu_s(all) >= all.kernel_cpu_s);
}

TEST_CASE("the reader's share of the fill cannot exceed the whole") {
  try {
    run({"cpu.cache_fill_byte=1ns", "cpu.cache_fill_reader_byte=2ns"});
    FAIL("no error for cpu.cache_fill_reader_byte");
  } catch (const models::ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("cpu.cache_fill_reader_byte") && Catch::Contains("must not exceed cache_fill_byte"));
  }
}

TEST_CASE("[block] irq_cpu names one of the profile's CPUs, or -1 for the submitting one") {
  const std::string f = kData + "/small-hdd.toml";
  CHECK(models::load_scenario(f, {}).hardware.block_irq_cpu == -1);
  const auto two = models::load_scenario(f, {}).hardware.logical_cpus;
  REQUIRE(two >= 1);
  CHECK(models::load_scenario(f, {"block.irq_cpu=" + std::to_string(two - 1)}).hardware.block_irq_cpu ==
        static_cast<std::int32_t>(two - 1));
  try {
    models::load_scenario(f, {"block.irq_cpu=" + std::to_string(two)});
    FAIL("no error for block.irq_cpu");
  } catch (const models::ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("block.irq_cpu"));
  }
}
