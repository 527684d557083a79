// The CPU-cost arithmetic and the parsers it reads from (wrk's text; the
// /proc stat line's: common/tests/proc_stat_test.cpp).
#include <catch2/catch.hpp>

#include "testbed/calibrate/cache_fill.h"
#include "testbed/calibrate/cpu_costs.h"
#include "testbed/calibrate/herd.h"
#include "testbed/calibrate/nginx_probe.h"
#include "testbed/calibrate/proc_stat.h"
#include "testbed/calibrate/tools.h"
#include "testbed/calibrate/wrk_runner.h"

using namespace testbed::calibrate;

TEST_CASE("wrk output: requests, duration, errors") {
  const std::string out =
      "Running 5s test @ http://127.0.0.1:8080/small\n"
      "  1 threads and 10 connections\n"
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
      "    Latency   152.44us   40.01us   2.10ms   90.12%\n"
      "    Req/Sec    60.12k     2.01k   64.00k    70.00%\n"
      "  299210 requests in 5.00s, 69.05MB read\n"
      "  Socket errors: connect 0, read 3, write 0, timeout 1\n"
      "Requests/sec:  59841.31\n"
      "Transfer/sec:     13.81MB\n";
  const WrkSummary s = parse_wrk_output(out);
  CHECK(s.requests == 299210);
  CHECK(s.seconds == Approx(5.0));
  CHECK(s.socket_errors == 4);
  CHECK(s.non_2xx == 0);
  CHECK(parse_wrk_output("  12 requests in 1.00m, 1MB read\nNon-2xx or 3xx responses: 5\n").non_2xx == 5);
  CHECK_THROWS(parse_wrk_output("unable to connect to 127.0.0.1:1 Connection refused\n"));
}

TEST_CASE("median of runs, per request") {
  std::vector<WrkRun> runs(3);
  runs[0] = {1000, 1, 0.010, 0.020, {}};  // 20 us server, 10 us wrk per request
  runs[1] = {2000, 1, 0.030, 0.036, {}};  // 18 us, 15 us
  runs[2] = {1000, 1, 0.012, 0.025, {}};  // 25 us, 12 us
  const PerOp p = median_per_op(runs);
  CHECK(p.server_s == Approx(20e-6));
  CHECK(p.client_s == Approx(12e-6));
  CHECK(p.requests == 1000);
}

TEST_CASE("costs: per byte and per connection are differences over the per-request run") {
  CpuRaw raw;
  raw.big_file_bytes = 4 << 20;
  raw.small = {17e-6, 11e-6, 1, 1};
  raw.big = {17e-6 + 0.25e-9 * (4 << 20), 11e-6 + 0.3e-9 * (4 << 20), 1, 1};
  raw.close = {17e-6 + 22e-6, 11e-6 + 29e-6, 1, 1};
  const CpuCostsResult c = derive_cpu_costs(raw);
  CHECK(c.request == Approx(17e-6));
  CHECK(c.client_request == Approx(11e-6));
  CHECK(c.sendfile_byte == Approx(0.25e-9));
  CHECK(c.client_byte == Approx(0.3e-9));
  CHECK(c.accept == Approx(22e-6));
  CHECK(c.client_connect == Approx(29e-6));
  CHECK(c.warnings.empty());

  raw.close.server_s = 10e-6;  // noise below the per-request figure
  const CpuCostsResult n = derive_cpu_costs(raw);
  CHECK(n.accept == 0);
  CHECK(n.warnings.size() == 1);
}

TEST_CASE("missing tools are named with their Debian package") {
  const std::vector<Tool> tools{{"fio", "/nonexistent/fio", "fio"}, {"sh", "/bin/sh", "dash"}};
  const auto missing = missing_tools(tools);
  REQUIRE(missing.size() == 1);
  CHECK(missing.front().package == "fio");
  CHECK(nginx_tool().package == "nginx-light");
  CHECK(wrk_tool().path == "/usr/bin/wrk");
}

TEST_CASE("the fill cgroup's room for the reader: its VmRSS and 64 MiB") {
  using testbed::calibrate::parse_vm_rss_bytes;
  using testbed::calibrate::reader_allowance;
  CHECK(parse_vm_rss_bytes("Name:\tclerk\nVmHWM:\t  9000 kB\nVmRSS:\t  8192 kB\nThreads:\t1\n") == 8192ULL * 1024);
  CHECK_FALSE(parse_vm_rss_bytes("Name:\tclerk\n").has_value());           // a kernel thread has none
  CHECK_FALSE(parse_vm_rss_bytes("VmRSS:\t  x kB\n").has_value());
  CHECK_FALSE(parse_vm_rss_bytes("VmRSS:\t  12 MB\n").has_value());
  CHECK_FALSE(parse_vm_rss_bytes("VmRSS:\t99999999999999999999 kB\n").has_value());
  CHECK(reader_allowance(8192ULL * 1024) == 8192ULL * 1024 + (64ULL << 20));
  CHECK(reader_allowance(std::nullopt) == 64ULL << 20);
}

TEST_CASE("machine busy time counts user, nice, system, irq, softirq and steal, not idle or iowait") {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const std::string line = "cpu  100 20 300 5000 700 10 40 30 0 0";
  CHECK(testbed::calibrate::parse_machine_busy_s(line, 100) == Approx((100 + 20 + 300 + 10 + 40 + 30) / 100.0));
  CHECK_THROWS(testbed::calibrate::parse_machine_busy_s("intr 1 2 3", 100));
}

TEST_CASE("/proc/PID/task/TID/io: syscr counts the thread's read-type calls") {
  const std::string io =
      "rchar: 1234\nwchar: 99\nsyscr: 42\nsyscw: 7\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n";
  CHECK(parse_io_syscr(io) == 42);
  CHECK_THROWS(parse_io_syscr("rchar: 1\n"));
  CHECK(parse_schedstat_run_s("1234567890 55 7\n") == Approx(1.23456789));
  CHECK_THROWS(parse_schedstat_run_s(""));
  CHECK(parse_schedstat_runs("1234567890 55 7\n") == 7);
  CHECK_THROWS(parse_schedstat_runs("1234567890 55\n"));
  ThreadSample a{2.0, 0.5, 10, 100, 40}, b{3.5, 0.75, 12, 190, 65};
  const ThreadSample d = b - a;
  CHECK(d.all_cpu_s == Approx(1.5));
  CHECK(d.main_cpu_s == Approx(0.25));
  CHECK(d.main_syscr == 2);
  CHECK(d.other_syscr == 90);
  CHECK(d.main_runs == 25);
}

TEST_CASE("pool costs: the pool threads' CPU beyond their sendfile work at the same pace, the rest in the main thread") {
  // Hand-made: 8 tasks a request, each 13 us in the main thread and 40 us
  // in its pool thread. Unpaced, the 4 MiB file costs 0.25 ns a byte
  // (1048.576 us a request); paced, a request of the 2-byte file costs 30 us
  // (17 us unpaced: the workers idle between requests) and the pool-off run
  // 1100 us, so the sendfile() work at that pace is 1070 us.
  CpuRaw raw;
  raw.big_file_bytes = 4 << 20;
  raw.small = {17e-6, 11e-6, 1, 1};
  raw.big = {17e-6 + 1048.576e-6, 2e-3, 1, 1};  // sendfile_byte = 0.25 ns
  raw.close = {39e-6, 40e-6, 1, 1};
  raw.pool_off = {1100e-6, 1100e-6, 8, 300, 1};
  raw.baseline = {30e-6, 30e-6, 1, 305, 1};
  // With the pool: 1100 + 8 x (13 + 40) = 1524 us; the pool threads 1070 + 8 x 40 = 1390 us of it,
  // the main threads 30 + 8 x 13 = 134 us.
  raw.pool_on = {1524e-6, 1524e-6 - 1390e-6, 8, 300, 1};
  const CpuCostsResult c = derive_cpu_costs(raw);
  CHECK(c.sendfile_byte == Approx(0.25e-9));
  CHECK(paced_sendfile_work_s(raw) == Approx(1070e-6));
  CHECK(c.pool_thread == Approx(40e-6));
  CHECK(c.pool_worker == Approx(13e-6));
  CHECK(c.pool_worker == Approx((raw.pool_on.main_s - raw.baseline.server_s) / 8));
  CHECK(c.event == Approx(424e-6 / 24));  // a third of the extra 53 us a task, as before the split
  CHECK(c.pool_worker + c.pool_thread == Approx(3 * c.event));
  CHECK(c.warnings.empty());
  // The unpaced runs do not enter the split: subtracting sendfile_byte x
  // 4 MiB (1048.576 us) would give the pool threads 42.68 us and the main
  // thread 10.32 us. Another unpaced figure changes nothing.
  CpuRaw unpaced_moved = raw;
  unpaced_moved.big.server_s = 17e-6 + 500e-6;
  const CpuCostsResult same = derive_cpu_costs(unpaced_moved);
  CHECK(same.pool_thread == Approx(40e-6));
  CHECK(same.pool_worker == Approx(13e-6));

  // Noise: the pool threads' CPU came out below the paced sendfile work.
  // The extra CPU stays whole, all of it in the main thread.
  raw.pool_on.main_s = 1524e-6 - 1000e-6;
  const CpuCostsResult low = derive_cpu_costs(raw);
  CHECK(low.pool_thread == 0);
  CHECK(low.pool_worker == Approx(53e-6));
  CHECK(low.warnings.size() == 1);

  raw.pool_on = {1090e-6, 10e-6, 8, 300, 1};  // noise: the pool came out cheaper
  const CpuCostsResult n = derive_cpu_costs(raw);
  CHECK(n.event == 0);
  CHECK(n.pool_worker == 0);
  CHECK(n.warnings.size() == 2);  // event and pool_worker

  // No baseline: no split (the model's defaults apply), and it says so.
  CpuRaw no_baseline = raw;
  no_baseline.pool_on = {1524e-6, 134e-6, 8, 300, 1};
  no_baseline.baseline = {};
  const CpuCostsResult nb = derive_cpu_costs(no_baseline);
  CHECK(nb.pool_worker == 0);
  CHECK(nb.pool_thread == 0);
  REQUIRE(nb.warnings.size() == 1);
  CHECK_THAT(nb.warnings[0], Catch::Contains("no paced baseline"));

  raw.pool_on.calls = 0;  // not measured: no figure, no warning
  const CpuCostsResult none = derive_cpu_costs(raw);
  CHECK(none.warnings.empty());
  CHECK(none.pool_worker == 0);
  CHECK(none.pool_thread == 0);
}

TEST_CASE("loopback_rx_byte: the paced sendfile() work per byte beyond the unpaced sendfile_byte") {
  // Unpaced the 4 MiB file costs the worker 0.25 ns a byte; paced, the
  // pool-off run costs 1500 us a request and the 2-byte baseline 30 us:
  // 1470 us of sendfile() work = 0.35048 ns a byte, 0.10048 ns of it the
  // receive path that wrk, behind on every connection unpaced, ran itself.
  CpuRaw raw;
  raw.big_file_bytes = 4 << 20;
  raw.small = {17e-6, 11e-6, 1, 1};
  raw.big = {17e-6 + 1048.576e-6, 2e-3, 1, 1};
  raw.close = {39e-6, 40e-6, 1, 1};
  raw.pool_off = {1500e-6, 1500e-6, 8, 300, 1};
  raw.baseline = {30e-6, 30e-6, 1, 305, 1};
  CHECK(derive_cpu_costs(raw).loopback_rx_byte == Approx(1470e-6 / 4194304 - 0.25e-9));
  CHECK(derive_cpu_costs(raw).warnings.empty());
  // Paced work below the unpaced figure (noise): 0, and a warning.
  raw.pool_off.server_s = 900e-6;
  const CpuCostsResult low = derive_cpu_costs(raw);
  CHECK(low.loopback_rx_byte == 0);
  REQUIRE(low.warnings.size() == 1);
  CHECK_THAT(low.warnings[0], Catch::Contains("loopback_rx_byte"));
  // No paced runs: not measured, no warning.
  raw.pool_off = {};
  raw.baseline = {};
  CHECK(derive_cpu_costs(raw).loopback_rx_byte == 0);
  CHECK(derive_cpu_costs(raw).warnings.empty());
}

TEST_CASE("the pool experiment's medians count the pool threads' calls with the pool, the main threads' without") {
  std::vector<WrkRun> runs(3);
  for (int i = 0; i < 3; ++i) {
    runs[i].requests = 1000;
    runs[i].seconds = 4;
    runs[i].server.all_cpu_s = 0.5 + 0.1 * i;
    runs[i].server.main_cpu_s = 0.2;
    runs[i].server.main_syscr = 9000 + 100 * i;
    runs[i].server.other_syscr = 9500;
    runs[i].server.main_runs = 12000 + 1000 * static_cast<std::uint64_t>(i);
    runs[i].server_cpu_s = runs[i].server.all_cpu_s;
  }
  const PoolOp on = median_pool_op(runs, true), off = median_pool_op(runs, false);
  CHECK(on.server_s == Approx(600e-6));
  CHECK(on.main_s == Approx(200e-6));
  CHECK(on.main_runs == Approx(13));
  CHECK(on.calls == Approx(9.5));
  CHECK(off.calls == Approx(9.1));
  CHECK(on.rate == Approx(250));
  CHECK(on.requests == 1000);
}

TEST_CASE("each round's own figures give the spread, the pace gives the share of a rate") {
  std::vector<CpuCostsResult> rounds(3);
  rounds[0].request = 15e-6;
  rounds[1].request = 25e-6;
  rounds[2].request = 14e-6;
  const Spread s = spread_of(rounds, &CpuCostsResult::request);
  CHECK(s.lo == 14e-6);
  CHECK(s.hi == 25e-6);
  // 20 connections at half of 400 requests/s: one request each every 100 ms.
  CHECK(pace_delay_ms(20, 400, 0.5) == 100);
  CHECK(pace_delay_ms(1, 1e6, 1) == 1);  // never below 1 ms
  CHECK_THROWS(pace_delay_ms(20, 0, 0.5));
  // A paced run lasts at least four of its delays (wrk delays each
  // connection's first request too): --quick's 1 s run at a 1.6 s pace
  // would complete nothing.
  CHECK(paced_run_seconds(1, 1600) == 6.4);
  CHECK(paced_run_seconds(3, 100) == 3);
  CHECK(paced_run_seconds(1, 0) == 1);  // unpaced
  const std::string lua = pace_script(100);
  CHECK(lua.find("function delay()") != std::string::npos);
  CHECK(lua.find("return 100") != std::string::npos);
}

TEST_CASE("the pool experiment's NGINXes differ from the plain one only by their two directives") {
  const std::string plain = nginx_config("/p", "/r", 8080, 2);
  const std::string off = nginx_config("/p", "/r", 8080, 2, NginxOptions{false, 512 << 10});
  const std::string on = nginx_config("/p", "/r", 8080, 2, NginxOptions{true, 512 << 10});
  CHECK(plain.find("sendfile_max_chunk") == std::string::npos);
  CHECK(plain.find("aio") == std::string::npos);
  CHECK(off.find("  sendfile_max_chunk 512k;\n") != std::string::npos);
  CHECK(off.find("aio") == std::string::npos);
  CHECK(on.find("  aio threads;\n") != std::string::npos);
  CHECK(on.find("worker_processes 2;") != std::string::npos);
}

TEST_CASE("wakeup: the extra acceptors' CPU per connection and per extra acceptor") {
  const HerdRun one{1, 10000, 0.200, 0};            // 20 us an accept and close
  const HerdRun many{3, 20000, 0.400 + 0.240, 15};  // the same, and 6 us for each of 2 losers
  CHECK(herd_wakeup_s(one, many) == Approx(6e-6));
  CHECK(herd_wakeup_s(many, one) == 0);                     // not more acceptors
  CHECK(herd_wakeup_s(one, HerdRun{2, 10000, 0.1, 0}) == 0);  // cheaper with more: noise, 0
}

TEST_CASE("the herd run serves every connection on loopback") {
  const HerdRun r = herd_run(2, 200);
  CHECK(r.acceptors == 2);
  CHECK(r.connections == 200);
  CHECK(r.acceptors_cpu_s > 0);
}

TEST_CASE("page-cache fill: the machine's and the reader's per-byte costs, cold less cached") {
  CacheFill r;
  r.cold_bytes = 4ull << 30;  // 4 GiB cold, 4 GiB cached
  r.warm_bytes = 4ull << 30;
  r.cold_busy_s = 2.56;       // all CPUs
  r.warm_busy_s = 0.47;
  r.cold_reader_s = 1.50;     // the reading thread alone
  r.warm_reader_s = 0.45;
  fit_cache_fill(r);
  const double bytes = 4294967296.0;
  CHECK(r.per_byte_s == Approx((2.56 - 0.47) / bytes));
  CHECK(r.reader_per_byte_s == Approx((1.50 - 0.45) / bytes));
  CHECK(r.note.empty());

  // Passes of different lengths are compared per byte.
  r.warm_bytes = 8ull << 30;
  r.warm_busy_s = 0.94;
  r.warm_reader_s = 0.90;
  fit_cache_fill(r);
  CHECK(r.per_byte_s == Approx((2.56 - 0.47) / bytes));
  CHECK(r.reader_per_byte_s == Approx((1.50 - 0.45) / bytes));

  // The reader above the whole (two clocks' noise): capped, and said.
  r.cold_reader_s = 2.80;
  fit_cache_fill(r);
  CHECK(r.reader_per_byte_s == r.per_byte_s);
  CHECK_THAT(r.note, Catch::Contains("capped"));

  // A cached pass dearer than the cold one: 0, not negative.
  r.warm_busy_s = r.warm_reader_s = 100;
  fit_cache_fill(r);
  CHECK(r.per_byte_s == 0);
  CHECK(r.reader_per_byte_s == 0);
  r.cold_bytes = 0;
  CHECK_THROWS(fit_cache_fill(r));
}

TEST_CASE("the calling thread's CPU clock moves with its own work only") {
  const double t0 = thread_cpu_s();
  volatile double x = 0;
  for (int i = 0; i < 2000000; ++i) x = x + 1e-9 * i;
  CHECK(thread_cpu_s() > t0);
}
