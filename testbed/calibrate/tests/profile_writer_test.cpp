// The written profile loads with the simulator's own loader and yields the
// values calibrate measured.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "testbed/calibrate/profile_check.h"
#include "testbed/calibrate/profile_content.h"
#include "testbed/calibrate/profile_writer.h"
#include "common/output_file.h"
#include "testbed/calibrate/tools.h"

using namespace testbed::calibrate;

namespace {
Calibration example() {
  Calibration c;
  c.date = "2026-11-22";
  c.load_before = "0.10 0.20 0.30";
  c.load_after = "0.40 0.50 0.60";
  c.kernel = "6.18.0";
  c.nginx_version = "1.22.1";
  c.fio_version = "fio-3.33";
  c.logical_cpus = 2;
  c.cpu_raw.big_file_bytes = 4 << 20;
  c.cpu_raw.small = {16.9e-6, 10.8e-6, 300000, 5};
  c.cpu_raw.big = {16.9e-6 + 0.235e-9 * (4 << 20), 10.8e-6 + 0.32e-9 * (4 << 20), 9000, 5};
  c.cpu_raw.close = {16.9e-6 + 22e-6, 10.8e-6 + 29e-6, 60000, 5};
  c.cpu = derive_cpu_costs(c.cpu_raw);
  c.ping = {24e-6, 40e-6, 20000};
  c.loopback = {5e9, 15000000000ULL, 3};
  c.loopback_mtu = 65536;
  c.memory = {24ULL << 30, (20ULL << 30) + 12345, 192, 1080};
  c.data_dir = "/var/tmp/clerk-data";
  c.device = {"vda", "vda", 256ULL << 30, 8192, 1024, "mq-deadline", false};
  c.tcp_wmem_max = 4194304;
  c.pipe_size = 65536;
  c.ssd.access_mean_s = 120e-6;
  c.ssd.bandwidth_Bps = 1500e6;
  c.ssd.parallelism = 5;
  c.ssd.slope_s_per_byte = 5 / 1500e6;
  c.ssd.latency_cdf = {{60e-6, 0}, {100e-6, 0.5}, {150e-6, 0.99}, {900e-6, 1}};
  c.ssd.cdf_block_bytes = 1 << 20;
  c.ssd.small_block = 128 << 10;
  c.ssd.large_block = 1 << 20;
  c.ssd.deepest_queue = 32;
  c.kernel_facts.release = "6.18.44-fc-v782";
  c.kernel_facts.sched = {"eevdf", 2, "log", 700000, 0, 0, 0, "/proc/self/sched se.slice = 1400000 / 2"};
  c.kernel_facts.hz = 250;
  c.kernel_facts.hz_source = "/proc/config.gz CONFIG_HZ";
  c.kernel_facts.preempt = "none";
  c.kernel_facts.preempt_source = "/proc/config.gz CONFIG_PREEMPT_NONE=y";
  c.kernel_facts.vfs_cache_pressure = 100;
  c.kernel_facts.queue = {"vda", 256, 8192, 1280, "mq-deadline", 1, 1, 1, "IRQ 36 (virtio1-req.0)"};
  c.fill.cold_bytes = c.fill.warm_bytes = 4ULL << 30;
  c.fill.cgroup_limit = 512ULL << 20;
  c.fill.cold_busy_s = 2.56;
  c.fill.warm_busy_s = 0.47;
  c.fill.cold_reader_s = 0.60;
  c.fill.warm_reader_s = 0.24;
  fit_cache_fill(c.fill);
  c.kernel_facts.inode_readahead_blks = 32;
  c.kernel_facts.topology = {2, 1, 2, 1, "topology"};
  c.loopback_tcp = {"bbr", "noqueue", "/proc/sys/net/ipv4/tcp_congestion_control", "the root qdisc of lo"};
  return c;
}
}  // namespace

TEST_CASE("profile: written, loaded by models::load_scenario, values as measured") {
  const common::TempDir dir = calibrate_temp_dir();
  std::filesystem::create_directories(dir.file("hardware"));
  const std::string path = dir.file("hardware/local.toml");
  const Calibration c = example();
  common::write_file_atomically(path, render_profile(build_profile(c)));
  const models::Scenario sc = load_profile(path, dir.path());
  const models::HardwareSpec& hw = sc.hardware;
  CHECK(hw.logical_cpus == 2);
  // Durations are written with four significant digits.
  CHECK(hw.costs.request == Approx(16.9e-6).epsilon(1e-3));
  CHECK(hw.costs.sendfile_byte == Approx(0.235e-9).epsilon(1e-3));
  CHECK(hw.costs.accept == Approx(22e-6).epsilon(1e-3));
  CHECK(hw.costs.client_request == Approx(10.8e-6).epsilon(1e-3));
  CHECK(hw.costs.client_byte == Approx(0.32e-9).epsilon(1e-3));
  CHECK(hw.costs.client_connect == Approx(29e-6).epsilon(1e-3));
  CHECK(hw.costs.wakeup == 0);
  CHECK(hw.page_cache_bytes == 20ULL << 30);
  CHECK(hw.cache_unit_bytes == 64 * 1024);
  REQUIRE(std::holds_alternative<models::SsdSpec>(hw.disk));
  const models::SsdSpec& ssd = std::get<models::SsdSpec>(hw.disk);
  CHECK(ssd.capacity_bytes == Approx(256.0 * (1ULL << 30)));
  CHECK(ssd.readahead_bytes == 8192 * 1024);
  CHECK(ssd.bandwidth_Bps == Approx(1500e6));
  CHECK(ssd.parallelism == 5);
  REQUIRE(ssd.latency_cdf.size() == 4);
  CHECK(ssd.latency_cdf[1].first == Approx(100e-6));
  CHECK(ssd.latency_cdf[1].second == Approx(0.5));
  CHECK(ssd.latency_cdf.back().second == 1.0);
  CHECK(hw.nic.line_rate_bps == Approx(1000e9));
  CHECK(hw.nic.mtu == 65535);
  CHECK(hw.one_way_latency_s == Approx(12e-6));
  CHECK(sc.kernel.tcp_wmem_max == 4194304);
  CHECK(sc.kernel.pipe_bytes == 65536);
  // The kernel it names.
  CHECK(sc.kernel.release == "6.18.44-fc-v782");
  CHECK(sc.kernel.sched.policy == "eevdf");
  CHECK(sc.kernel.sched.base_slice_s == Approx(0.7e-3));
  CHECK(sc.kernel.sched.tunable_scaling_log);
  CHECK(sc.kernel.sched.hz == 250);
  const models::KernelProfile& k = sc.kernel_profile;
  CHECK(k.vfs_cache_pressure == 100);
  CHECK(hw.block.nr_requests == 256);  // [block], the request queue's keys
  CHECK(hw.block.scheduler == "mq-deadline");
  CHECK(hw.block.max_sectors_kb == 1280);
  CHECK(hw.block_irq_cpu == 1);  // one queue, one socket, rq_affinity 1: its IRQ's CPU
  CHECK(hw.costs.cache_fill_byte == Approx((2.56 - 0.47) / 4294967296.0).epsilon(1e-3));
  CHECK(hw.costs.cache_fill_reader_byte == Approx((0.60 - 0.24) / 4294967296.0).epsilon(1e-3));
  CHECK(k.dentry_objsize == 192);   // c.memory's slab object sizes
  CHECK(k.inode_objsize == 1080);
  CHECK(k.inode_readahead_blks == 32);
  CHECK(hw.topology.sockets == 1);
  CHECK(hw.topology.cores_per_socket == 2);
  CHECK(hw.topology.threads_per_core == 1);
  // Loopback's TCP the CPU costs were measured under (reported only).
  CHECK(sc.kernel.tcp_congestion_control == "bbr");
  CHECK(sc.kernel.lo_qdisc == "noqueue");
  CHECK(sc.kernel.tcp_pacing == "internal");
  CHECK(sc.kernel.sched.preempt == models::PreemptModel::kNone);  // the preemption model read
}

TEST_CASE("profile: preempt none only from 5.11, voluntary only from 6.5, whose sendfile() points are one a pipe fill") {
  Calibration c = example();
  const auto written = [&](const char* release, const char* preempt) {
    c.kernel_facts.release = release;
    c.kernel_facts.preempt = preempt;
    std::string text;
    for (const ProfileEntry& e : kernel_entries(c.kernel_facts, c.memory)) text += e.key + "\n";
    return text.find("preempt\n") != std::string::npos;
  };
  // Before 5.11: the read loop's cond_resched() a page (do_generic_file_read()).
  CHECK_FALSE(written("5.4.0-150-generic", "none"));
  CHECK_FALSE(written("5.10.0", "none"));
  // From 5.11 the batched buffered-read loop: about one a pipe fill.
  CHECK(written("5.11.0", "none"));
  CHECK(written("5.15.0-91-generic", "none"));  // filemap_read(), before filemap_splice_read() (6.5)
  // "voluntary" before 6.5: tcp_sendpage()'s might_sleep() a page.
  CHECK_FALSE(written("5.15.0-91-generic", "voluntary"));
  CHECK(written("6.5.0", "voluntary"));
  CHECK(written("6.5.0", "none"));
}

TEST_CASE("profile: event, pool_worker, pool_thread, wakeup and sequential_bandwidth load as measured, with each round's spread in the comments") {
  const common::TempDir dir = calibrate_temp_dir();
  std::filesystem::create_directories(dir.file("hardware"));
  const std::string path = dir.file("hardware/local.toml");
  Calibration c = example();
  // 9 tasks a request, 12 us an event: 324 us more with the pool. Paced,
  // a 2-byte request costs 60 us and the pool-off run 1100 us: the
  // sendfile work at that pace is 1040 us (unpaced, example()'s 0.235 ns x
  // 4 MiB = 985.66 us). The pool threads took it over and spend 25 us a task
  // besides (1265 us); the main threads 60 + 9 x 11 = 159 us.
  c.cpu_raw.pool_off = {1100e-6, 1100e-6, 9.5, 300, 1500, 4};
  c.cpu_raw.baseline = {60e-6, 60e-6, 1, 310, 1550, 2};
  c.cpu_raw.pool_on = {1424e-6, 159e-6, 9.0, 301, 1505, 13};
  c.cpu_raw.pace_delay_ms = 67;
  c.cpu_raw.baseline_delay_ms = 70;
  c.cpu = derive_cpu_costs(c.cpu_raw);
  CpuCostsResult low = c.cpu, high = c.cpu;
  low.event = 10e-6;
  high.event = 15e-6;
  c.cpu_rounds = {low, c.cpu, high};
  HerdResult h;
  h.one = {1, 20000, 0.4, 0};
  h.many = {2, 20000, 0.5, 12};
  h.wakeup_s = 5e-6;
  c.herd = {h, h, h};
  c.wakeup_s = 5e-6;
  c.seq.requests = 500;
  c.seq.bytes = 500ULL * (4 << 20);
  c.seq.io_ticks_s = 0.625;
  c.seq.time_in_queue_s = 2.5;
  c.seq.read_ticks_s = 2.5;
  c.seq.fio_bandwidth_Bps = 1.5e9;
  c.seq_fit = fit_sequential(c.seq, c.ssd);
  c.seq_qd1_runs = {{4 << 20, 300, 2.6e-3, 0}, {4 << 20, 300, 2.5e-3, 0}, {4 << 20, 300, 2.4e-3, 0}};
  c.seq_qd1 = c.seq_qd1_runs[median_qd1_run(c.seq_qd1_runs)];
  const std::string text = render_profile(build_profile(c));
  common::write_file_atomically(path, text);
  const models::Scenario sc = load_profile(path, dir.path());
  const models::HardwareSpec& hw = sc.hardware;
  // One read of 4 MiB alone in 2.5 ms, x the units; the buffered read's 4
  // outstanding (2.5 s in queue over 0.625 s busy) at its busy-time rate.
  const auto& seq = std::get<models::SsdSpec>(hw.disk).sequential_depth_bandwidth;
  REQUIRE(seq.size() == 2);
  CHECK(seq[0].first == 1);
  CHECK(seq[0].second == Approx(c.ssd.parallelism * (4 << 20) / 2.5e-3).epsilon(1e-3));
  CHECK(seq[1].first == 4);
  CHECK(seq[1].second == Approx(500.0 * (4 << 20) / 0.625 * c.ssd.parallelism / std::min(4.0, double(c.ssd.parallelism))).epsilon(1e-3));
  CHECK_THAT(text, Catch::Contains("runs: 2600.0, 2500.0, 2400.0 us"));
  CHECK(hw.costs.event == Approx(12e-6).epsilon(1e-3));
  CHECK(hw.costs.pool_thread == Approx(25e-6).epsilon(1e-3));
  CHECK(hw.costs.pool_worker == Approx(11e-6).epsilon(1e-3));
  CHECK(hw.costs.wakeup == Approx(5e-6).epsilon(1e-3));
  CHECK(std::get<models::SsdSpec>(hw.disk).sequential_bandwidth_Bps == Approx(500.0 * (4 << 20) / 0.625).epsilon(1e-3));
  CHECK_THAT(text, Catch::Contains("each round alone: 10.00 us to 15.00 us"));
  CHECK_THAT(text, Catch::Contains("event = (1424.00 us - 1100.00 us) / (3 x 9.00) = 12.00 us"));
  CHECK_THAT(text, Catch::Contains("the 2-byte file on the pool-off NGINX, delay() 70 ms, 310 req/s, 60.00 us"));
  CHECK_THAT(text, Catch::Contains("the sendfile() work at that pace = 1100.00 us - 60.00 us = 1040.00 us"));
  CHECK_THAT(text, Catch::Contains("(unpaced, sendfile_byte x 4194304 B"));
  CHECK_THAT(text, Catch::Contains("= 985.66 us)"));
  CHECK_THAT(text, Catch::Contains("pool_worker = (159.00 us - 60.00 us) / 9.00 = 11.00 us"));
  CHECK_THAT(text, Catch::Contains("pool_thread = (pool threads' CPU per request 1265.00 us - 1040.00 us)"));
  CHECK_THAT(text, Catch::Contains("/ 9.00 = 25.00 us"));
  CHECK_THAT(text, Catch::Contains("13.00 times a request with the pool, 4.00 without"));
  CHECK_THAT(text, Catch::Contains("500 requests of 4096 KiB"));
  CHECK(text.find("not measured") == std::string::npos);
}

TEST_CASE("profile: a CFS kernel's three tunables load, a topology that does not count our CPUs is left out") {
  const common::TempDir dir = calibrate_temp_dir();
  std::filesystem::create_directories(dir.file("hardware"));
  const std::string path = dir.file("hardware/local.toml");
  Calibration c = example();
  c.kernel_facts.release = "3.13.0-49-generic";
  c.kernel_facts.sched = {"cfs", 1, "log", 0, 6000000, 750000, 1000000, "fair.c's defaults"};
  c.kernel_facts.hz = 0;  // not discoverable: no hz key
  c.kernel_facts.topology = {4, 1, 4, 1, "topology"};  // 4 online, but this process may use 2
  c.kernel_facts.sched.tunable_scaling = "linear";  // the loader takes log or none: not written
  const std::string text = render_profile(build_profile(c));
  common::write_file_atomically(path, text);
  const models::Scenario sc = load_profile(path, dir.path());
  const models::SchedSpec& s = sc.kernel.sched;
  CHECK(s.policy == "cfs");
  CHECK(s.latency_s == Approx(6e-3));
  CHECK(s.min_granularity_s == Approx(0.75e-3));
  CHECK(s.wakeup_granularity_s == Approx(1e-3));
  CHECK(text.find("\nhz =") == std::string::npos);
  CHECK(text.find("cores_per_socket") == std::string::npos);
  CHECK(text.find("sched_tunable_scaling") == std::string::npos);
}

TEST_CASE("profile: loopback TCP settings that could not be read are left out, and tcp_pacing with them") {
  const common::TempDir dir = calibrate_temp_dir();
  std::filesystem::create_directories(dir.file("hardware"));
  const std::string path = dir.file("hardware/local.toml");
  Calibration c = example();
  c.loopback_tcp = {"cubic", "", "/proc/sys/net/ipv4/tcp_congestion_control", "netlink RTM_GETQDISC dump failed: EPERM"};
  const std::string text = render_profile(build_profile(c));
  common::write_file_atomically(path, text);
  const models::Scenario sc = load_profile(path, dir.path());
  CHECK(sc.kernel.tcp_congestion_control == "cubic");
  CHECK(sc.kernel.lo_qdisc.empty());
  CHECK(text.find("lo_qdisc") == std::string::npos);
  CHECK(text.find("tcp_pacing") == std::string::npos);
  CHECK(text.find("Measured under TCP congestion control cubic on lo's qdisc (unknown)") != std::string::npos);
  // cubic on fq: the qdisc paces.
  const auto fq = loopback_tcp_entries({"cubic", "fq", "", ""});
  REQUIRE(fq.size() == 3);
  CHECK(fq[2].key == "tcp_pacing");
  CHECK(fq[2].value == "\"fq\"");
  CHECK(loopback_tcp_entries({}).empty());
}

TEST_CASE("profile: every value carries a comment, the header the load average") {
  const std::string text = render_profile(build_profile(example()));
  CHECK(text.find("load average 0.10 0.20 0.30 before") != std::string::npos);
  CHECK(text.find("2026-11-22") != std::string::npos);
  for (const ProfileTable& t : build_profile(example()).tables)
    for (const ProfileEntry& e : t.entries)
      if (e.key != "type") CHECK_FALSE(e.comment.empty());
}

TEST_CASE("atomic write: replaces the file, leaves no temporary behind") {
  const common::TempDir dir = calibrate_temp_dir();
  const std::string path = dir.file("p.toml");
  common::write_file_atomically(path, "a = 1\n");
  common::write_file_atomically(path, "a = 2\n");
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "a = 2");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
  CHECK(files == 1);
  CHECK_THROWS(common::write_file_atomically(dir.file("missing/p.toml"), "a = 1\n"));
}

// The profile goes through the project's one safe writer (issue 21, finding
// 2): a symlink planted where the old writer put its temporary file
// ("<out>.tmp.<pid>") must not have its target overwritten.
TEST_CASE("atomic write: a symlink planted at the temporary name is not followed") {
  const common::TempDir dir = calibrate_temp_dir();
  const std::string path = dir.file("p.toml");
  const std::string victim = dir.file("victim");
  { std::ofstream(victim) << "precious\n"; }
  std::filesystem::create_symlink(victim, path + ".tmp." + std::to_string(::getpid()));
  common::write_file_atomically(path, "a = 1\n");
  std::ifstream in(victim);
  std::string line;
  std::getline(in, line);
  CHECK(line == "precious");
  CHECK_FALSE(std::filesystem::is_symlink(path));
  std::ifstream written(path);
  std::getline(written, line);
  CHECK(line == "a = 1");
}

TEST_CASE("durations in the loader's units") {
  CHECK(duration_text(16.9e-6) == "16.9us");
  CHECK(duration_text(0.235e-9) == "0.235ns");
  CHECK(duration_text(2.5e-3) == "2.5ms");
  CHECK(size_value(128 << 10) == "\"128k\"");
  CHECK(size_value(8 << 20) == "\"8m\"");
  CHECK(size_value(1000) == "1000");
}
