// The CPU-cost arithmetic and the parsers it reads from (wrk's text, /proc stat).
#include <catch2/catch.hpp>

#include "testbed/calibrate/cache_fill.h"
#include "testbed/calibrate/cpu_costs.h"
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

TEST_CASE("/proc/PID/stat: utime + stime after a command name with spaces and parentheses") {
  const std::string line = "4242 (nginx: (worker) x) S 4241 4241 4241 0 -1 4194624 300 0 0 0 125 37 0 0 20 0 1 0";
  CHECK(parse_stat_cpu_ticks(line) == Approx(162));
}

TEST_CASE("median of runs, per request") {
  std::vector<WrkRun> runs(3);
  runs[0] = {1000, 1, 0.010, 0.020};  // 20 us server, 10 us wrk per request
  runs[1] = {2000, 1, 0.030, 0.036};  // 18 us, 15 us
  runs[2] = {1000, 1, 0.012, 0.025};  // 25 us, 12 us
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

TEST_CASE("machine busy time counts user, nice, system, irq, softirq and steal, not idle or iowait") {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const std::string line = "cpu  100 20 300 5000 700 10 40 30 0 0";
  CHECK(testbed::calibrate::parse_machine_busy_s(line, 100) == Approx((100 + 20 + 300 + 10 + 40 + 30) / 100.0));
  CHECK_THROWS(testbed::calibrate::parse_machine_busy_s("intr 1 2 3", 100));
}
