#include "testbed/calibrate/cpu_costs.h"

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
#include "testbed/calibrate/temp_dir.h"
#include "testbed/calibrate/tools.h"

namespace testbed::calibrate {

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void write_file(const std::string& path, std::uint64_t bytes) {
  std::ofstream out(path, std::ios::binary);
  std::string block(1 << 16, 'x');
  for (std::uint64_t left = bytes; left > 0;) {
    const std::uint64_t n = std::min<std::uint64_t>(left, block.size());
    out.write(block.data(), static_cast<std::streamsize>(n));
    left -= n;
  }
  if (!out) throw std::runtime_error("cannot write " + path);
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
  return c;
}

CpuRaw measure_cpu(const CpuPlan& plan, std::string* nginx_version) {
  TempDir dir;
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
  // A short run first: NGINX opens its files and fills its caches, wrk warms up.
  run_wrk(nginx.url("/small"), connections, 1, nginx.workers(), {}, workers);

  auto experiment = [&](const char* label, const std::string& path, const std::vector<std::string>& extra) {
    std::vector<WrkRun> runs;
    for (int i = 0; i < plan.runs; ++i) {
      throw_if_interrupted();
      runs.push_back(run_wrk(nginx.url(path), connections, plan.seconds, nginx.workers(), extra, workers));
      const WrkRun& r = runs.back();
      fmt::print("  {:<28} run {}: {:>9} requests, nginx {:.2f} s CPU, wrk {:.2f} s CPU\n", label, i + 1,
                 r.requests, r.server_cpu_s, r.wrk_cpu_s);
      std::fflush(stdout);
    }
    return median_per_op(runs);
  };
  CpuRaw raw;
  raw.big_file_bytes = plan.big_file_bytes;
  raw.small = experiment("keep-alive, 2 B file", "/small", {});
  raw.big = experiment(fmt::format("keep-alive, {} MiB file", plan.big_file_bytes >> 20).c_str(), "/big", {});
  raw.close = experiment("Connection: close, 2 B", "/small", {"-H", "Connection: close"});
  return raw;
}

}  // namespace testbed::calibrate
