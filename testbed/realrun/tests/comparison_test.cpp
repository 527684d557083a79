// The comparison of real runs with their predictions: medians and spreads,
// errors judged against the tolerances, the effect of one scenario over
// another, and the scenario as the prediction runs it.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/scenario/config_loader.h"
#include "testbed/realrun/comparison.h"
#include "testbed/realrun/prediction.h"

using namespace testbed;

namespace {
RunFigures figures(double rps, double mean, double p99) {
  RunFigures f;
  f.groups.push_back({"g", rps, rps * 1e6, mean, mean, p99, 0});
  return f;
}
const MetricRow& row(const ScenarioComparison& c, const std::string& name) {
  for (const MetricRow& r : c.rows)
    if (r.metric.name == name) return r;
  FAIL("no row " << name);
  return c.rows.front();
}
}  // namespace

TEST_CASE("spread: median of odd and even counts, min and max") {
  const Spread odd = spread_of({3, 1, 2});
  CHECK(odd.median == 2);
  CHECK(odd.min == 1);
  CHECK(odd.max == 3);
  CHECK(spread_of({4, 1, 2, 3}).median == 2.5);
}

TEST_CASE("each prediction is judged against its tolerance, on the medians") {
  ScenarioComparison c;
  c.real = {figures(100, 0.010, 0.030), figures(110, 0.011, 0.031), figures(90, 0.012, 0.029)};
  // Requests/s 19% high (within 20%), mean 25% high (outside), p99 34% low (within 35%).
  c.simulated = {figures(119, 0.01375, 0.0198), figures(119, 0.01375, 0.0198), figures(119, 0.01375, 0.0198)};
  summarize(c);
  CHECK(row(c, "requests_per_s").error == Approx(0.19));
  CHECK(row(c, "requests_per_s").within);
  CHECK(row(c, "latency_mean").error == Approx(0.25));
  CHECK_FALSE(row(c, "latency_mean").within);
  CHECK(row(c, "latency_p99").error == Approx(-0.34));
  CHECK(row(c, "latency_p99").within);
  CHECK_FALSE(row(c, "latency_p50").judged);
}

TEST_CASE("the effect of a change is judged on its direction and size") {
  ScenarioComparison a, b;
  a.real = {figures(100, 0.040, 0.080)};
  a.simulated = {figures(100, 0.040, 0.080)};
  b.real = {figures(200, 0.020, 0.040)};       // x2, x0.5, x0.5
  b.simulated = {figures(180, 0.030, 0.090)};  // x1.8 (-10%), x0.75 (+50%), x1.125 (wrong way)
  summarize(a);
  summarize(b);
  const auto e = effect_of(a, b);
  auto find = [&](const std::string& n) {
    for (const EffectRow& r : e)
      if (r.metric.name == n) return r;
    FAIL("no effect row " << n);
    return e.front();
  };
  CHECK(find("requests_per_s").within);
  CHECK(find("requests_per_s").real == Approx(2.0));
  CHECK_FALSE(find("latency_mean").within);
  CHECK(find("latency_mean").same_direction);
  CHECK_FALSE(find("latency_p99").same_direction);
  CHECK_FALSE(find("latency_p99").within);
}

TEST_CASE("the prediction runs the scenario as the real run was made") {
  const auto sc = models::load_scenario(std::string(CLERK_SCENARIOS) + "/local/threads.toml");
  RealRunResult real;
  real.groups.resize(2);
  real.groups[0].duration_s = 12.3;
  real.groups[0].placement = {3, 1};  // constant
  real.groups[1].duration_s = 12.1;
  real.groups[1].placement = {0, 0};  // nothing recorded: the policy decides
  const auto as = as_run(sc, real, 256ULL << 20);
  CHECK(as.duration_s == Approx(12.3));
  CHECK(as.hardware.page_cache_bytes == (256ULL << 20));
  CHECK(as.clients[0].placement == std::vector<std::uint32_t>{3, 1});
  CHECK(as.clients[1].placement.empty());
}

TEST_CASE("where threads wait: real medians beside the model's, per group and cause, in text and JSON") {
  ScenarioComparison c;
  c.name = "s";
  for (double d : {0.10, 0.30, 0.20}) {
    RealRunResult r;
    realrun::WaitSummary main;
    main.group = "main";
    main.threads = 2;
    main.samples = 1000;
    main.blocked_by_cause = {{"disk_data", d}, {"cpu_wait", 0.3}};
    main.top_wchans = {{"S ep_poll", 0.5}, {"D folio_wait_bit_common", d}};
    r.waits.push_back(main);
    r.sampler_cpu_share = 0.012;
    c.real_runs.push_back(r);
    c.real.push_back(figures_of(r));
    RunFigures sim = figures(1, 1, 1);
    sim.blocked["main"] = {{"disk_data", 0.0}, {"cpu_wait", 0.01}};
    c.simulated.push_back(sim);
  }
  summarize(c);
  const std::string text = format_comparison(c);
  INFO(text);
  // The real median of disk_data is 20%; the model's 0%: -20 points.
  CHECK(text.find("20.0% (10.0%-30.0%)") != std::string::npos);
  CHECK(text.find("-20.0pt") != std::string::npos);
  CHECK(text.find("-29.0pt") != std::string::npos);  // cpu_wait: 1% vs 30%
  CHECK(text.find("S ep_poll 50.0%, D folio_wait_bit_common 10.0%") != std::string::npos);
  CHECK(text.find("1.20% of one CPU") != std::string::npos);
  const auto j = to_json(c);
  CHECK(j["blocked_by_cause"]["main"]["disk_data"]["real"]["median"] == Approx(0.2));
  CHECK(j["blocked_by_cause"]["main"]["cpu_wait"]["simulated"]["median"] == Approx(0.01));
  CHECK_FALSE(j["blocked_by_cause"]["main"]["reclaim"].contains("real"));  // reported by neither side
  CHECK(j["runs"][0]["waits"]["main"]["blocked_by_cause"]["disk_data"] == Approx(0.1));
  CHECK(j["runs"][0]["simulated"]["blocked_by_cause"]["main"]["cpu_wait"] == Approx(0.01));
}

TEST_CASE("the model's blocked_by_cause is read per group under its JSON keys, pool only with a pool") {
  models::RunResult sim;
  sim.workers_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kDiskData)] = 0.25;
  sim.workers_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kNone)] = 0.05;
  sim.pool_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kDiskMetadata)] = 0.5;
  sim.workers_cpu_wait = 0.125;
  sim.pool_cpu_wait = 0.0625;
  const RunFigures without = figures_of(sim);
  CHECK(without.blocked.at("main").at("disk_data") == 0.25);
  CHECK(without.blocked.at("main").at("other") == 0.05);
  CHECK(without.blocked.at("main").at("reclaim") == 0);
  CHECK(without.blocked.at("main").at("cpu_wait") == 0.125);
  CHECK(without.blocked.count("pool") == 0);
  sim.thread_pool = true;
  CHECK(figures_of(sim).blocked.at("pool").at("disk_metadata") == 0.5);
  CHECK(figures_of(sim).blocked.at("pool").at("cpu_wait") == 0.0625);
}

TEST_CASE("iostat -x: the real drives beside the model's, in text and JSON") {
  ScenarioComparison c;
  c.name = "s";
  RealRunResult r;
  realrun::DriveIostat sda;
  sda.device = "sda";
  sda.r_s = 100;
  sda.avgqu_sz = 3.5;
  sda.await_ms = 25;
  sda.util = 0.8;
  sda.max_inflight = 8;
  sda.samples = 3;
  r.drives.push_back(sda);
  c.real_runs.push_back(r);
  c.real.push_back(figures_of(r));
  models::RunResult sim;
  models::RunResult::DriveIostat d;
  d.r_s = 90;
  d.avgqu_sz = 2.25;
  d.await_ms = 20;
  d.util = 0.5;
  d.max_outstanding = 40;
  sim.drive_iostat.push_back(d);
  c.simulated.push_back(figures_of(sim));
  summarize(c);
  const std::string text = format_comparison(c);
  INFO(text);
  CHECK(text.find("iostat -x, run 1") != std::string::npos);
  CHECK(text.find("real       sda") != std::string::npos);
  CHECK(text.find("simulated  drive0") != std::string::npos);
  CHECK(text.find("80.0") != std::string::npos);  // sda's %util
  const auto j = to_json(c);
  CHECK(j["runs"][0]["iostat"][0]["device"] == "sda");
  CHECK(j["runs"][0]["iostat"][0]["avgqu_sz"] == Approx(3.5));
  CHECK(j["runs"][0]["iostat"][0]["max_inflight"] == 8);
  CHECK(j["runs"][0]["simulated"]["iostat"][0]["device"] == "drive0");
  CHECK(j["runs"][0]["simulated"]["iostat"][0]["max_inflight"] == 40);  // the model's max_outstanding
  CHECK(j["runs"][0]["simulated"]["iostat"][0]["mean_inflight"] == Approx(2.25));
}

TEST_CASE("CPU per request: the real processes' user+sys, the model's time on a CPU, wrk's as the rest of the busy time") {
  RealRunResult r;
  r.groups.resize(2);
  r.groups[0].requests = 100;
  r.groups[1].requests = 200;
  r.server_cpu_s = 3;
  r.clients_cpu_s = 6;
  r.machine_busy = 0.6;
  const RunFigures real = figures_of(r);
  CHECK(real.server_cpu_per_request == Approx(0.010));
  CHECK(real.clients_cpu_per_request == Approx(0.020));
  CHECK(real.machine_busy == 0.6);

  // Two workers each R half the time, a quarter of it waiting for a CPU; a
  // pool of 4 threads each on a CPU a tenth of the time: 2 x 0.25 x 10 s +
  // 4 x 0.1 x 10 s = 9 s of server CPU over 300 requests = 30 ms each. The
  // CPUs: 0.75 x 2 x 10 s = 15 s busy, less 9 s and the kernel's 1.5 s = 4.5 s
  // of wrk's = 15 ms a request.
  models::RunResult sim;
  sim.duration_s = 10;
  sim.workers.resize(2);
  sim.workers_running = 0.5;
  sim.workers_cpu_wait = 0.25;
  sim.pool_threads = 4;
  sim.pool_running = 0.125;
  sim.pool_cpu_wait = 0.025;
  sim.logical_cpus = 2;
  sim.cpu_busy_frac = 0.75;
  sim.kernel_cpu_s = 1.5;
  sim.clients.resize(1);
  sim.clients[0].complete = 300;
  sim.clients[0].spec.on_server_host = true;
  const RunFigures model = figures_of(sim);
  CHECK(model.server_cpu_per_request == Approx(0.030));
  CHECK(model.clients_cpu_per_request == Approx(0.015));
  CHECK(model.machine_busy == 0.75);

  // Clients elsewhere: the model has no wrk CPU on this host to show.
  sim.clients[0].spec.on_server_host = false;
  CHECK(std::isnan(figures_of(sim).clients_cpu_per_request));
  ScenarioComparison c;
  c.real = {real};
  c.simulated = {figures_of(sim)};
  summarize(c);
  CHECK(row(c, "clients_cpu_per_request").simulated.count == 0);
  CHECK(std::isnan(row(c, "clients_cpu_per_request").error));
  CHECK(row(c, "server_cpu_per_request").error == Approx(2.0));
  const std::string text = format_comparison(c);
  INFO(text);
  CHECK(text.find("wrk CPU/req") != std::string::npos);
  CHECK(text.find("server CPU/req") != std::string::npos);
}
