// The running kernel's loopback TCP beside the profile's: a warning only
// when a setting both sides name differs, naming both; printed under the
// comparison's header line, which says the running kernel's, and written to
// the JSON (null for what could not be read).
#include <catch2/catch.hpp>

#include "testbed/realrun/comparison.h"
#include "testbed/realrun/loopback_tcp_check.h"

using namespace testbed;

namespace {
models::KernelSpec profile(const std::string& cc, const std::string& qdisc) {
  models::KernelSpec k;
  k.tcp_congestion_control = cc;
  k.lo_qdisc = qdisc;
  return k;
}
common::LoopbackTcp running(const std::string& cc, const std::string& qdisc) {
  return {cc, qdisc, "/proc/sys/net/ipv4/tcp_congestion_control", "netlink"};
}
}  // namespace

TEST_CASE("loopback TCP warning: only a setting both sides name and that differs") {
  CHECK(loopback_tcp_warning(profile("bbr", "noqueue"), running("bbr", "noqueue")).empty());
  // The profile does not say (a profile from before these keys), or this
  // kernel's could not be read: nothing to compare.
  CHECK(loopback_tcp_warning(profile("", ""), running("cubic", "noqueue")).empty());
  CHECK(loopback_tcp_warning(profile("bbr", "noqueue"), running("", "")).empty());
  CHECK(loopback_tcp_warning(profile("bbr", ""), running("bbr", "fq")).empty());
  // The lead's measurement: this kernel on cubic, the profile measured under bbr.
  const std::string w = loopback_tcp_warning(profile("bbr", "noqueue"), running("cubic", "noqueue"));
  INFO(w);
  CHECK(w.rfind("warning: ", 0) == 0);
  CHECK(w.find("this kernel runs TCP cubic on lo's noqueue qdisc (not paced)") != std::string::npos);
  CHECK(w.find("measured under TCP bbr on lo's noqueue qdisc (paced by TCP itself") != std::string::npos);
  CHECK(w.find("the prediction's CPU costs are the profile's") != std::string::npos);
  // The qdisc alone.
  const std::string q = loopback_tcp_warning(profile("bbr", "noqueue"), running("bbr", "fq"));
  CHECK(q.find("paced by the fq qdisc") != std::string::npos);
  CHECK(describe_loopback_tcp("", "noqueue") == "TCP unknown on lo's noqueue qdisc (pacing unknown)");
}

TEST_CASE("the comparison's header names the running kernel's loopback TCP, its warnings follow, the JSON holds both") {
  ScenarioComparison c;
  c.name = "s";
  RealRunResult r;
  r.server_version = "nginx/1.22.1";
  r.cache_control = "cgroup v2 memory.max 512 MiB";
  r.loopback_tcp = running("cubic", "noqueue");
  c.real_runs.push_back(r);
  c.warnings.push_back(loopback_tcp_warning(profile("bbr", "noqueue"), r.loopback_tcp));
  const std::string text = format_comparison(c);
  INFO(text);
  CHECK(text.find("nginx/1.22.1; page cache: cgroup v2 memory.max 512 MiB; TCP cubic on lo's noqueue qdisc (not paced)\n") !=
        std::string::npos);
  CHECK(text.find("\n   warning: this kernel runs TCP cubic") != std::string::npos);
  auto j = to_json(c);
  CHECK(j["runs"][0]["tcp_congestion_control"] == "cubic");
  CHECK(j["runs"][0]["lo_qdisc"] == "noqueue");
  CHECK(j["runs"][0]["tcp_pacing"] == "none");
  CHECK(j["warnings"].size() == 1);
  // Unreadable: null, not "".
  c.real_runs[0].loopback_tcp = running("bbr", "");
  c.warnings.clear();
  j = to_json(c);
  CHECK(j["runs"][0]["tcp_congestion_control"] == "bbr");
  CHECK(j["runs"][0]["lo_qdisc"].is_null());
  CHECK(j["runs"][0]["tcp_pacing"].is_null());
  CHECK(j["warnings"].empty());
}
