// One real run: real NGINX (2 workers) on 16 files of 64 KiB, two wrk
// groups (random files, and one fixed file), 2 seconds. Functional checks
// only (no timing): requests served without errors, every connection
// placed, the cgroup removed and no child process left. Exits 4 (skipped)
// without root, NGINX or wrk.
#define CATCH_CONFIG_RUNNER
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>
#include <thread>

#include "testbed/realrun/real_run.h"

namespace fs = std::filesystem;

namespace {

models::Scenario tiny_scenario() {
  models::Scenario sc;
  sc.name = "realrun-integration";
  sc.seed = 7;
  sc.duration_s = 2;
  sc.hardware.page_cache_bytes = 64ull << 20;
  sc.filesystem.files = 16;
  sc.filesystem.tree = {4, 4};
  sc.filesystem.file_size = 64 * 1024;
  sc.preload = {"/1/1"};
  sc.nginx.worker_processes = 2;
  sc.nginx.accept = &models::accept_policy(false, true);  // both workers get connections
  sc.nginx.aio = models::find_aio_mode("threads");
  sc.nginx.thread_pool.threads = 4;
  sc.nginx.sendfile_max_chunk = 512 * 1024;
  sc.nginx.keepalive_requests = 100000;  // few reconnections: a steady placement
  models::WrkGroupSpec random;
  random.name = "random";
  random.threads = 2;
  random.connections = 8;
  random.timeout_s = 5;
  models::WrkGroupSpec fixed;
  fixed.name = "constant";
  fixed.threads = 2;
  fixed.connections = 5;  // 2 * floor(5/2) = 4 open
  fixed.timeout_s = 5;
  fixed.fixed_file = 0;
  sc.clients = {random, fixed};
  return sc;
}

bool no_children() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

// Cgroups named after this process, in any hierarchy.
bool cgroup_left(pid_t pid) {
  const std::string name = "clerk-realrun-" + std::to_string(pid);
  for (const char* root : {"/sys/fs/cgroup/memory", "/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
    if (fs::exists(fs::path(root) / name)) return true;
  return false;
}

}  // namespace

TEST_CASE("a 2-second real run with NGINX and two wrk groups", "[realrun][integration]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-realrun-it-" + std::to_string(::getpid()));
  testbed::RealRunOptions o;
  o.data_dir = "/var/tmp/clerk-realrun-test-data";
  o.run_dir = (base / "run").string();
  o.port = 18931;  // this test's own port
  const testbed::RealRunResult r = testbed::run_real(tiny_scenario(), o);
  for (const auto& n : r.notes) UNSCOPED_INFO("note: " << n);
  INFO("cache control: " << r.cache_control << "; server " << r.server_version);

  REQUIRE(r.groups.size() == 2);
  REQUIRE(r.workers.size() == 2);
  CHECK(r.workers[0].pid < r.workers[1].pid);
  CHECK(r.groups[0].name == "random");
  CHECK(r.groups[1].name == "constant");
  CHECK(r.groups[0].connections_open == 8);
  CHECK(r.groups[1].connections_open == 4);
  for (const auto& g : r.groups) {
    INFO("group " << g.name << "\n" << g.wrk_output);
    CHECK(g.requests > 0);
    CHECK(g.bytes >= g.requests * 64 * 1024);
    CHECK(g.errors_connect + g.errors_read + g.errors_write + g.errors_status + g.errors_timeout == 0);
    CHECK(g.latency_mean > 0);
    CHECK(g.latency_p50 <= g.latency_p99);
    CHECK(g.latency_p99 <= g.latency_max);
    REQUIRE(g.placement.size() == 2);
    CHECK(std::accumulate(g.placement.begin(), g.placement.end(), 0u) == g.connections_open);
    CHECK(g.cpu_s > 0);
  }
  for (const auto& w : r.workers) {
    CHECK(w.samples > 0);
    CHECK(w.running + w.sleeping + w.disk_wait == Approx(1.0));
  }
  // Where the threads waited: the main threads seen at every tick, schedstat
  // read (CONFIG_SCHED_INFO), each share a fraction, D split by cause.
  REQUIRE_FALSE(r.waits.empty());
  const testbed::realrun::WaitSummary& main = r.waits.front();
  CHECK(main.group == "main");
  CHECK(main.threads == 2);
  CHECK(main.samples >= r.workers[0].samples);
  CHECK(main.running + main.sleeping + main.disk_wait == Approx(1.0));
  CHECK(main.schedstat);
  CHECK(main.on_cpu > 0);
  CHECK(main.on_cpu + main.cpu_wait <= 1.0 + 1e-6);
  double blocked = 0;
  for (const char* cause : {"disk_data", "disk_metadata", "reclaim", "request_slot", "other"})
    blocked += main.blocked_by_cause.at(cause);
  CHECK(blocked == Approx(main.disk_wait));
  CHECK(r.sampler_cpu_share > 0);
  CHECK(r.sampler_cpu_share < 0.2);
  CHECK(r.server_version.find("nginx/") == 0);
  CHECK(r.server_cpu_s > 0);
  CHECK(r.clients_cpu_s > 0);
  CHECK(r.machine_busy > 0);
  CHECK(r.wall_s > 0);
  // The data device's /sys/block queue, sampled through the run.
  if (!r.disk_device.empty()) {
    REQUIRE_FALSE(r.drives.empty());
    CHECK(r.drives[0].samples >= 2);
    CHECK(r.drives[0].util >= 0);
    CHECK(r.drives[0].util <= 1);
    CHECK(r.drives[0].await_ms >= 0);
  }
  if (fs::exists("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
    CHECK(r.cache_control.find("cgroup v1 memory limit") == 0);

  // Nothing left behind.
  CHECK_FALSE(cgroup_left(::getpid()));
  CHECK(no_children());
  CHECK_FALSE(fs::exists(o.run_dir));

  // Second run reuses the data set; a busy port is refused cleanly.
  const testbed::RealRunResult again = testbed::run_real(tiny_scenario(), o);
  CHECK(std::any_of(again.notes.begin(), again.notes.end(),
                    [](const std::string& n) { return n.find("reused") != std::string::npos; }));
  fs::remove_all(base);
}

TEST_CASE("a failing server start throws and leaves nothing", "[realrun][integration]") {
  testbed::RealRunOptions o;
  o.data_dir = "/var/tmp/clerk-realrun-test-data";
  o.port = 18932;
  o.server = "clerk-serve";
  o.serve_binary = "/bin/false";  // exits at once
  try {
    testbed::run_real(tiny_scenario(), o);
    FAIL("run_real did not throw");
  } catch (const testbed::RealRunError& e) {
    CHECK(std::string(e.what()).find("/bin/false") != std::string::npos);
  }
  CHECK_FALSE(cgroup_left(::getpid()));
  CHECK(no_children());

  o.server = "nginx";
  o.wrk_binary = "/nonexistent/wrk";
  CHECK_THROWS_WITH(testbed::run_real(tiny_scenario(), o), Catch::Contains("apt-get install wrk"));
}

TEST_CASE("stop_all_real_runs from another thread mid-run: RealRunError, nothing left", "[realrun][integration]") {
  testbed::RealRunOptions o;
  o.data_dir = "/var/tmp/clerk-realrun-test-data";
  o.port = 18933;
  models::Scenario sc = tiny_scenario();
  sc.duration_s = 30;
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    testbed::stop_all_real_runs();
  });
  try {
    testbed::run_real(sc, o);
    FAIL("run_real was not stopped");
  } catch (const testbed::RealRunError& e) {
    CHECK(std::string(e.what()) == "stopped");
  }
  stopper.join();
  CHECK_FALSE(cgroup_left(::getpid()));
  CHECK(no_children());
  // The next run is not affected by the earlier stop.
  sc.duration_s = 1;
  CHECK(testbed::run_real(sc, o).groups.at(0).requests > 0);
}

int main(int argc, char** argv) {
  if (::geteuid() != 0 || ::access("/usr/sbin/nginx", X_OK) != 0 || ::access("/usr/bin/wrk", X_OK) != 0) {
    std::fprintf(stderr, "skipped: needs root, /usr/sbin/nginx and /usr/bin/wrk\n");
    return 4;
  }
  return Catch::Session().run(argc, argv);
}
