// One real run of a trace group (clients.NAME.trace): clerk-serve (2
// workers) serving the data set made from a generated access log (3 s at
// 200 requests/s over 200 small files), clerk-replay sending the log's
// lines at their times over 8 connections. Functional checks only (no
// timing): every line of the log fell due and is accounted for (answered,
// lost, queued or under way at the end), none with an error,
// latencies are counted, the schedule is the lines the simulation replays.
// Exits 77 (skipped) without root or the two binaries.
#define CATCH_CONFIG_RUNNER
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/clients/log_generator.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/world.h"
#include "sim/random.h"
#include "testbed/realrun/real_run.h"
#include "testbed/realrun/trace_schedule.h"

namespace fs = std::filesystem;

namespace {

struct TraceFiles {
  fs::path dir = fs::temp_directory_path() / ("clerk-realrun-trace-" + std::to_string(::getpid()));
  std::uint64_t lines = 0;
  TraceFiles() {
    fs::create_directories(dir);
    models::LogGenSpec spec;
    spec.duration_s = 3;
    spec.rate = 200;
    spec.files = 200;
    spec.sizes = {models::SizeClass(1024, 16 * 1024, 1.0)};
    std::ofstream log(dir / "access.log");
    lines = models::generate_log(spec, log);
    std::ofstream(dir / "trace.toml")
        << "include = \"" << CLERK_SCENARIOS << "/hardware/local.toml\"\nseed = 1\nduration = \"3s\"\nwarmup = \"0s\"\n"
        << "[memory]\npage_cache = \"256m\"\n"
        << "[nginx]\nversion = \"1.22.1\"\nworker_processes = 2\naccept_mutex = \"off\"\nsendfile = \"on\"\naio = \"off\"\n"
        << "[dataset]\nroot = \"/var/tmp/clerk-realrun-trace-data\"\nfiles = 1\nfile_size = \"4k\"\n"
        << "[clients.log]\nconnections = 8\ntimeout = \"5s\"\ndataset = \"log\"\ntrace = \"access.log\"\n";
  }
  ~TraceFiles() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("the schedule is the simulation's replay: every line of a 3-second log, each path a file of the data set",
          "[realrun][trace]") {
  TraceFiles files;
  const models::Scenario sc = models::load_scenario((files.dir / "trace.toml").string());
  const models::Scenario planned = models::with_traces(sc, sim::RandomStreams(sc.seed));
  const std::string path = (files.dir / "schedule").string();
  CHECK(testbed::realrun::write_trace_schedule(planned, 0, 3, path) == files.lines);
  std::ifstream in(path);
  double due = 0, last = -1;
  std::string file;
  std::uint64_t n = 0;
  while (in >> due >> file) {
    CHECK(due >= last);
    CHECK(due < 3);
    CHECK(file.rfind('/', 0) == 0);
    last = due;
    ++n;
  }
  CHECK(n == files.lines);
}

TEST_CASE("a 3-second real run of a trace group: clerk-serve and clerk-replay", "[realrun][trace][integration]") {
  TraceFiles files;
  const models::Scenario sc = models::load_scenario((files.dir / "trace.toml").string());
  testbed::RealRunOptions o;
  o.server = "clerk-serve";
  o.serve_binary = CLERK_SERVE_BINARY;
  o.replay_binary = CLERK_REPLAY_BINARY;
  o.data_dir = "/var/tmp/clerk-realrun-trace-data";
  o.run_dir = (files.dir / "run").string();
  o.port = 18934;  // this test's own port
  const testbed::RealRunResult r = testbed::run_real(sc, o);
  for (const auto& n : r.notes) UNSCOPED_INFO("note: " << n);
  REQUIRE(r.groups.size() == 1);
  const testbed::RealGroupResult& g = r.groups[0];
  INFO("clerk-replay:\n" << g.wrk_output);
  CHECK(g.connections_open == 8);
  // Every line falls due within the 3 s, and each is answered, lost with
  // its connection, queued or under way when the replay stops.
  CHECK(g.requests_due == files.lines);
  CHECK(g.requests + g.errors_read + g.errors_write + g.requests_waiting + g.requests_in_flight == g.requests_due);
  CHECK(g.requests_in_flight <= g.connections_open);
  CHECK(g.bytes >= g.requests * 1024);
  CHECK(g.errors_connect + g.errors_read + g.errors_write + g.errors_status + g.errors_timeout == 0);
  CHECK(g.latency_p50 > 0);
  CHECK(g.latency_p50 <= g.latency_p99);
  CHECK(g.latency_p99 <= g.latency_max * 1.01);  // the histogram's bin, 0.96% wide
  CHECK_FALSE(fs::exists(o.run_dir));
}

int main(int argc, char** argv) {
  if (::geteuid() != 0 || ::access(CLERK_SERVE_BINARY, X_OK) != 0 || ::access(CLERK_REPLAY_BINARY, X_OK) != 0) {
    std::fprintf(stderr, "skipped: needs root, clerk-serve and clerk-replay\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
