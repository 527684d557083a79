#include "testbed/realrun/wrk_process.h"

#include <sys/wait.h>

#include <cmath>
#include <fmt/format.h>

#include "common/text_file.h"
#include "testbed/realrun/child_registry.h"

namespace testbed::realrun {

std::uint32_t whole_seconds(double s) { return static_cast<std::uint32_t>(std::max(1.0, std::ceil(s - 1e-9))); }

std::vector<std::string> wrk_argv(const WrkLaunch& l) {
  return {l.binary,
          "-t", std::to_string(l.threads),
          "-c", std::to_string(l.connections),
          "-d", fmt::format("{}s", whole_seconds(l.duration_s)),
          "--timeout", fmt::format("{}s", whole_seconds(l.timeout_s)),
          "--latency",
          "-s", l.script,
          l.url};
}

std::uint32_t connections_open(const models::WrkGroupSpec& g) {
  return g.threads == 0 ? 0 : g.connections / g.threads * g.threads;
}

RealGroupResult group_result(const std::string& name, std::uint32_t connections, const WrkSummary& s) {
  RealGroupResult r;
  r.name = name;
  r.connections_open = connections;
  r.requests = s.requests;
  r.bytes = s.bytes;
  r.errors_connect = s.connect;
  r.errors_read = s.read;
  r.errors_write = s.write;
  r.errors_status = s.status;
  r.errors_timeout = s.timeout;
  r.duration_s = s.duration_us * 1e-6;
  if (r.duration_s > 0) {
    r.requests_per_s = static_cast<double>(s.requests) / r.duration_s;
    r.bytes_per_s = static_cast<double>(s.bytes) / r.duration_s;
  }
  r.latency_mean = s.latency_mean_us * 1e-6;
  r.latency_stdev = s.latency_stdev_us * 1e-6;
  r.latency_max = s.latency_max_us * 1e-6;
  r.latency_p50 = s.p50_us * 1e-6;
  r.latency_p75 = s.p75_us * 1e-6;
  r.latency_p90 = s.p90_us * 1e-6;
  r.latency_p99 = s.p99_us * 1e-6;
  r.requests_due = s.due;
  r.requests_waiting = s.waiting;
  r.requests_in_flight = s.in_flight;
  return r;
}

WrkProcess WrkProcess::start(const std::string& name, const WrkLaunch& launch) {
  WrkProcess w;
  w.name_ = name;
  w.launch_ = launch;
  // wrk stays in our cgroup: the clients' memory is not the server's cache.
  w.child_ = common::ChildProcess::spawn({launch.argv.empty() ? wrk_argv(launch) : launch.argv, "", launch.output, kChildName});
  return w;
}

std::string WrkProcess::output_text() const { return common::read_text(launch_.output); }

RealGroupResult WrkProcess::result(std::uint32_t connections) const {
  const std::string out = output_text();
  const auto& e = child_.exit();
  if (!e) throw RealRunError(fmt::format("wrk for group {} has not finished", name_));
  std::string why;
  const auto summary = parse_wrk_summary(out, &why);
  if (!WIFEXITED(e->status) || WEXITSTATUS(e->status) != 0 || !summary)
    throw RealRunError(fmt::format("wrk for group {} {}{}:\n{}", name_, common::describe_status(e->status),
                                   summary ? "" : " (" + why + ")", out));
  if (!launch_.argv.empty())
    if (const std::string bad = replay_accounting_error(*summary, launch_.scheduled); !bad.empty())
      throw RealRunError(fmt::format("clerk-replay for group {} lost track of requests: {}:\n{}", name_, bad, out));
  RealGroupResult r = group_result(name_, connections, *summary);
  r.cpu_s = e->cpu_s();
  // wrk's own report, without our machine-readable line.
  const std::size_t at = out.rfind("CLERK ");
  r.wrk_output = out.substr(0, at);
  return r;
}

}  // namespace testbed::realrun
