#include "testbed/calibrate/cpu_costs.h"

#include "common/output_file.h"
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

#include "testbed/calibrate/interrupt.h"
#include "testbed/calibrate/machine_facts.h"
#include "testbed/calibrate/nginx_probe.h"
#include "testbed/calibrate/tools.h"

namespace testbed::calibrate {

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// A file of `bytes` 'x's for NGINX to serve (a few MiB: held in memory).
void write_file(const std::string& path, std::uint64_t bytes) {
  common::write_file_atomically(path, std::string(static_cast<std::size_t>(bytes), 'x'));
}

// Reads a file once so that NGINX serves it from the page cache.
void warm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buf(1 << 20);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
  }
}
}  // namespace

PerOp median_per_op(const std::vector<WrkRun>& runs) {
  if (runs.empty()) throw std::invalid_argument("no runs");
  std::vector<double> server, client;
  for (const WrkRun& r : runs) {
    server.push_back(r.server_cpu_s / static_cast<double>(r.requests));
    client.push_back(r.wrk_cpu_s / static_cast<double>(r.requests));
  }
  PerOp p;
  p.server_s = median(server);
  p.client_s = median(client);
  // The run whose server figure is the median, for the comment's raw counts.
  const double target = p.server_s;
  const auto it = std::min_element(runs.begin(), runs.end(), [&](const WrkRun& a, const WrkRun& b) {
    return std::abs(a.server_cpu_s / static_cast<double>(a.requests) - target) <
           std::abs(b.server_cpu_s / static_cast<double>(b.requests) - target);
  });
  p.requests = it->requests;
  p.seconds = it->seconds;
  return p;
}

PoolOp median_pool_op(const std::vector<WrkRun>& runs, bool pool_on) {
  if (runs.empty()) throw std::invalid_argument("no runs");
  std::vector<double> server, main, main_runs, calls, rate;
  for (const WrkRun& r : runs) {
    const double n = static_cast<double>(r.requests);
    server.push_back(r.server.all_cpu_s / n);
    main.push_back(r.server.main_cpu_s / n);
    main_runs.push_back(static_cast<double>(r.server.main_runs) / n);
    calls.push_back(static_cast<double>(pool_on ? r.server.other_syscr : r.server.main_syscr) / n);
    rate.push_back(r.seconds > 0 ? n / r.seconds : 0);
  }
  PoolOp p;
  p.server_s = median(server);
  p.main_s = median(main);
  p.main_runs = median(main_runs);
  p.calls = median(calls);
  p.rate = median(rate);
  const auto it = std::min_element(runs.begin(), runs.end(), [&](const WrkRun& a, const WrkRun& b) {
    return std::abs(a.server.all_cpu_s / static_cast<double>(a.requests) - p.server_s) <
           std::abs(b.server.all_cpu_s / static_cast<double>(b.requests) - p.server_s);
  });
  p.requests = it->requests;
  return p;
}

Spread spread_of(const std::vector<CpuCostsResult>& rounds, CostField field) {
  Spread s;
  if (rounds.empty()) return s;
  s.lo = s.hi = rounds.front().*field;
  for (const CpuCostsResult& r : rounds) {
    s.lo = std::min(s.lo, r.*field);
    s.hi = std::max(s.hi, r.*field);
  }
  return s;
}

std::vector<CpuCostsResult> derive_rounds(const std::vector<CpuRaw>& rounds) {
  std::vector<CpuCostsResult> out;
  for (const CpuRaw& r : rounds) out.push_back(derive_cpu_costs(r));
  return out;
}

std::string pace_script(int delay_ms) {
  return fmt::format("-- clerk calibrate: each connection waits {} ms before each request\n"
                     "function delay()\n  return {}\nend\n",
                     delay_ms, delay_ms);
}

int pace_delay_ms(int connections, double rate, double share) {
  if (!(rate > 0) || !(share > 0)) throw std::invalid_argument("pace: no rate to pace at");
  // Each connection sends one request per delay (its response's latency is
  // small beside it): connections / delay = share x rate.
  return std::max(1, static_cast<int>(std::lround(1000.0 * connections / (share * rate))));
}

double paced_run_seconds(double seconds, int delay_ms) {
  // wrk's delay() comes before every request on a connection, the first
  // included (a connection's first request waits it too): a run shorter
  // than a few delays measures a handful of requests, or none (a loaded
  // host under --quick's 1 s runs paced a connection at over a second).
  return std::max(seconds, 4.0 * delay_ms / 1000.0);
}

double paced_sendfile_work_s(const CpuRaw& raw) {
  if (raw.pool_off.requests == 0 || raw.baseline.requests == 0) return 0;
  return raw.pool_off.server_s - raw.baseline.server_s;
}

namespace {
// Each side's CPU per pool task (cpu_costs.h), every figure at the pool
// runs' pace: the pool threads' beyond the sendfile() work they took over
// (the pool-off run less the paced baseline), and the rest of the pool's
// extra CPU in the main thread (their CPU less the baseline's). They add up
// to the extra CPU.
template <class NonNegative>
void derive_pool_costs(const CpuRaw& raw, CpuCostsResult& c, NonNegative non_negative) {
  const double tasks = raw.pool_on.calls;
  const double extra = raw.pool_on.server_s - raw.pool_off.server_s;
  c.event = non_negative(extra / (3 * tasks), "event");
  if (raw.baseline.requests == 0) {
    c.warnings.push_back("pool_worker and pool_thread not derived: no paced baseline run (the model's defaults apply)");
    return;
  }
  const double pool_threads = raw.pool_on.server_s - raw.pool_on.main_s;
  c.pool_thread = non_negative((pool_threads - paced_sendfile_work_s(raw)) / tasks, "pool_thread");
  c.pool_worker = non_negative(extra / tasks - c.pool_thread, "pool_worker");
}

// Unpaced, wrk is behind on every connection and runs the receive path of
// what it reads (tcp_v4_rcv's backlog, or transmits that its window
// updates clock): sendfile_byte is the send alone. Paced, wrk has read all
// it was sent when the next piece goes out, so sendfile() runs the receive
// path too (loopback_xmit -> netif_rx -> NET_RX at local_bh_enable).
template <class NonNegative>
void derive_loopback_rx(const CpuRaw& raw, CpuCostsResult& c, NonNegative non_negative) {
  if (raw.baseline.requests == 0 || raw.pool_off.requests == 0) return;
  const double bytes = static_cast<double>(raw.big_file_bytes);
  c.loopback_rx_byte = non_negative(paced_sendfile_work_s(raw) / bytes - c.sendfile_byte, "loopback_rx_byte");
}
}  // namespace

CpuCostsResult derive_cpu_costs(const CpuRaw& raw) {
  CpuCostsResult c;
  auto non_negative = [&](double v, const char* name) {
    if (v < 0) {
      c.warnings.push_back(fmt::format("{} came out negative ({:.3g} s): written as 0", name, v));
      return 0.0;
    }
    return v;
  };
  c.request = raw.small.server_s;
  c.client_request = raw.small.client_s;
  const double bytes = static_cast<double>(raw.big_file_bytes);
  c.sendfile_byte = non_negative((raw.big.server_s - raw.small.server_s) / bytes, "sendfile_byte");
  c.client_byte = non_negative((raw.big.client_s - raw.small.client_s) / bytes, "client_byte");
  c.accept = non_negative(raw.close.server_s - raw.small.server_s, "accept");
  c.client_connect = non_negative(raw.close.client_s - raw.small.client_s, "client_connect");
  if (raw.pool_on.calls > 0) derive_pool_costs(raw, c, non_negative);
  derive_loopback_rx(raw, c, non_negative);
  return c;
}

CpuMeasurement measure_cpu(const CpuPlan& plan, std::string* nginx_version) {
  const common::TempDir dir = calibrate_temp_dir();
  // NGINX's worker runs as an unprivileged user: it must reach the files.
  chmod(dir.path().c_str(), 0755);
  const std::string root = dir.file("www");
  mkdir(root.c_str(), 0755);
  write_file(root + "/small", 2);
  write_file(root + "/big", plan.big_file_bytes);
  warm(root + "/small");
  warm(root + "/big");
  if (nginx_version) {
    const std::string v = run_and_capture({nginx_tool().path, "-v"});
    const auto slash = v.find('/');
    *nginx_version = slash == std::string::npos ? v : v.substr(slash + 1);
    while (!nginx_version->empty() && std::isspace(static_cast<unsigned char>(nginx_version->back())))
      nginx_version->pop_back();
  }

  const int workers = plan.workers > 0 ? plan.workers : static_cast<int>(logical_cpus());
  const int connections = plan.connections * workers;
  NginxProbe nginx(dir.path(), root, workers);
  // The pool experiment's two servers, each in its own prefix.
  auto prefix = [&](const char* name) {
    const std::string p = dir.file(name);
    mkdir(p.c_str(), 0755);
    return p;
  };
  NginxProbe pool_off(prefix("pool-off"), root, workers, NginxOptions{false, plan.pool_chunk});
  NginxProbe pool_on(prefix("pool-on"), root, workers, NginxOptions{true, plan.pool_chunk});
  // A short run first: NGINX opens its files and fills its caches, wrk warms
  // up, and the pool's threads start.
  run_wrk(nginx.url("/small"), connections, 1, nginx.workers(), {}, workers);
  run_wrk(pool_on.url("/big"), connections, 1, pool_on.workers(), {}, workers);

  const std::string big_label = fmt::format("keep-alive, {} MiB file", plan.big_file_bytes >> 20);
  const std::string pool_label = fmt::format("{} KiB chunks, paced", plan.pool_chunk >> 10);
  const std::string script = dir.file("pace.lua");
  const std::string baseline_script = dir.file("pace-baseline.lua");
  std::vector<WrkRun> small, big, close, off, on, baseline;
  CpuMeasurement m;
  int delay_ms = 0, baseline_delay_ms = 0;
  auto once = [&](const std::string& label, const NginxProbe& server, const std::string& path,
                  const std::vector<std::string>& extra, std::vector<WrkRun>& runs, int paced_ms = 0) {
    throw_if_interrupted();
    runs.push_back(run_wrk(server.url(path), connections, paced_run_seconds(plan.seconds, paced_ms), server.workers(),
                           extra, workers));
    const WrkRun& r = runs.back();
    fmt::print("  {:<34} run {}: {:>9} requests, nginx {:.2f} s CPU, wrk {:.2f} s CPU\n", label, runs.size(), r.requests,
               r.server_cpu_s, r.wrk_cpu_s);
    std::fflush(stdout);
    return r;
  };
  for (int round = 0; round < plan.runs; ++round) {
    CpuRaw r;
    r.big_file_bytes = plan.big_file_bytes;
    r.small = median_per_op({once("keep-alive, 2 B file", nginx, "/small", {}, small)});
    r.big = median_per_op({once(big_label, nginx, "/big", {}, big)});
    r.close = median_per_op({once("Connection: close, 2 B", nginx, "/small", {"-H", "Connection: close"}, close)});
    if (round == 0) {
      // The pace: a share of the first round's unpaced big-file rate, the same for both servers.
      const WrkRun& b = big.front();
      delay_ms = pace_delay_ms(connections, static_cast<double>(b.requests) / b.seconds, plan.pace_share);
      common::write_file_atomically(script, pace_script(delay_ms));
    }
    const std::vector<std::string> paced{"-s", script};
    r.pool_off = median_pool_op({once("pool off, " + pool_label, pool_off, "/big", paced, off, delay_ms)}, false);
    if (round == 0) {
      // The baseline's pace: the first pool-off run's time between a
      // connection's requests (its delay and its response's latency), so
      // that the 2-byte file, whose latency is small beside it, comes at
      // the same request rate over the same connections.
      baseline_delay_ms = pace_delay_ms(connections, r.pool_off.rate, 1.0);
      common::write_file_atomically(baseline_script, pace_script(baseline_delay_ms));
    }
    r.baseline = median_pool_op(
        {once("pool off, 2 B file, paced", pool_off, "/small", {"-s", baseline_script}, baseline, baseline_delay_ms)},
        false);
    r.pool_on = median_pool_op({once("aio threads, " + pool_label, pool_on, "/big", paced, on, delay_ms)}, true);
    r.pace_delay_ms = delay_ms;
    r.baseline_delay_ms = baseline_delay_ms;
    m.rounds.push_back(r);
  }
  CpuRaw& raw = m.raw;
  raw.big_file_bytes = plan.big_file_bytes;
  raw.small = median_per_op(small);
  raw.big = median_per_op(big);
  raw.close = median_per_op(close);
  raw.pool_off = median_pool_op(off, false);
  raw.pool_on = median_pool_op(on, true);
  raw.baseline = median_pool_op(baseline, false);
  raw.pace_delay_ms = delay_ms;
  raw.baseline_delay_ms = baseline_delay_ms;
  return m;
}

}  // namespace testbed::calibrate
