// The native engine against the SimGrid reference engine (engines/simgrid)
// on the small scenarios of scenarios/agreement: for every client group,
// throughput and mean latency must agree within 3% and the 99th percentile
// within 10%.
//
// Both engines run the same model: the page cache, path lookup, file layout,
// random streams, listen sockets, connections, the event loop's ready list
// and timers, the drives' geometry and queue policy and the clients'
// accounting are shared code; how time passes in the event loop, thread
// pools, NIC, CPU, disks and clients is written twice, once as callbacks on
// the native event heap and once as SimGrid actors and resources. On these
// scenarios they agreed to about a microsecond, far inside the tolerances,
// until open() read metadata through the buffer cache (issue 13): cold
// metadata reads now end at slightly different times on the two engines, an
// open defect that moves a few cache lookups in thousands and, on the slow
// disk with aio threads, the hot group's mean by 9% (marked [!mayfail]).
//
// The page cache's figures must be equal with blocking sendfile, not just
// close: both engines look up the same pages in the same order. They once differed on the miss
// scenarios (hit ratio 0.62 native, 0.71 SimGrid): when two disk reads ended
// at the same instant, the native engine told the first read's waiters at
// once, so a reader could look up the other read's pages before that read
// was marked done and count a miss that waited zero seconds. SimGrid ends
// every activity of an instant before any actor resumes, so the reader found
// the pages there; from first principles both reads had ended before the
// reader looked, so SimGrid's count was the right one, and the native page
// cache now tells waiters in an event of their own, after every event
// already due at that instant (PageCache::defer_wakeups).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "engines/simgrid/sg_run.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"

namespace {

const std::string kScenarios = CLERK_SCENARIOS;

nlohmann::ordered_json native_json(const models::Scenario& sc) {
  models::World world(sc, sc.seed, sc.duration_s);
  world.run();
  return models::to_json(world.result(0), false);
}

std::uint64_t metadata_from_disk(const nlohmann::ordered_json& run) {
  return run["server"]["metadata_blocks"]["blocks_read"].get<std::uint64_t>();
}

void check_agreement(const std::string& file, const std::vector<std::string>& overrides) {
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/" + file, overrides);
  REQUIRE(sgengine::unsupported(sc).empty());
  const auto native = native_json(sc);
  const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
  REQUIRE(simgrid["clients"].size() == native["clients"].size());
  for (const auto& [name, n] : native["clients"].items()) {
    INFO(file << " group " << name);
    const auto& s = simgrid["clients"][name];
    REQUIRE(n["requests"].get<double>() > 20);  // enough samples for the figures to mean something
    CHECK(s["requests_per_s"].get<double>() == Approx(n["requests_per_s"].get<double>()).epsilon(0.03));
    CHECK(s["latency_s"]["mean"].get<double>() == Approx(n["latency_s"]["mean"].get<double>()).epsilon(0.03));
    CHECK(s["latency_raw_s"]["mean"].get<double>() == Approx(n["latency_raw_s"]["mean"].get<double>()).epsilon(0.03));
    CHECK(s["latency_raw_s"]["p99"].get<double>() == Approx(n["latency_raw_s"]["p99"].get<double>()).epsilon(0.10));
    // Where the time went: the native engine records the stage split; SimGrid
    // keeps no stage clocks and says so by name rather than printing zeros.
    CHECK(n["stages"]["recorded"].get<bool>());
    CHECK(n["stages"]["sum_mismatches"].get<std::uint64_t>() == 0);
    CHECK_FALSE(s["stages"]["recorded"].get<bool>());
    CHECK(s["stages"]["why"].get<std::string>().find("stage clocks") != std::string::npos);
    // Every request accounted for on SimGrid too.
    const auto& a = s["accounting"];
    CHECK(a["issued"].get<std::uint64_t>() ==
          a["completed"].get<std::uint64_t>() + a["failed"].get<std::uint64_t>() +
              a["in_flight_at_end"].get<std::uint64_t>());
  }
  CHECK(simgrid["server"]["nic_out_gbps_mean"].get<double>() ==
        Approx(native["server"]["nic_out_gbps_mean"].get<double>()).epsilon(0.03));
  // The page cache (see above): equal with blocking sendfile; with aio
  // threads a few lookups in 18,000 differ (some simultaneous events of the
  // pool are ordered differently by the two engines).
  const auto& nc = native["server"]["page_cache"];
  const auto& sc_cache = simgrid["server"]["page_cache"];
  CHECK(sc_cache["lookups"].get<double>() == Approx(nc["lookups"].get<double>()).epsilon(0.001));
  CHECK(sc_cache["hit_ratio"].get<double>() == Approx(nc["hit_ratio"].get<double>()).epsilon(0.001));
  // Exactly equal with blocking sendfile, unless open() read metadata from
  // the disk (issue 13): an open defect, not the wake-up order. A per-read
  // trace of misses.toml on both engines first differs at 100 us, before any
  // disk read: every connection writes its first request at that instant,
  // and SimGrid resumes the wrk socket actors whose sleep_until ends then in
  // reverse order (conn 31 first; native: conn 0 first), so each wrk
  // thread's random draws go to its connections in reverse. Without
  // metadata that is a relabelling of equal files (same size, same cold
  // SSD), and the counts agree exactly; with metadata a file's directory
  // decides which blocks it reads and shares (the root block's waiter list
  // at 167 us already differs), and a few lookups in 18,000 move.
  if (sc.nginx.aio == models::AioMode::kOff && metadata_from_disk(native) == 0) {
    CHECK(sc_cache["lookups"] == nc["lookups"]);
    CHECK(sc_cache["hit_ratio"] == nc["hit_ratio"]);
  }
}

}  // namespace

TEST_CASE("engines agree: cache hits, blocking sendfile") { check_agreement("hits.toml", {}); }
TEST_CASE("engines agree: cache hits, aio threads") { check_agreement("hits.toml", {"nginx.aio=threads"}); }
TEST_CASE("engines agree: cache misses on an SSD, blocking") { check_agreement("misses.toml", {}); }
TEST_CASE("engines agree: cache misses on an SSD, aio threads") {
  check_agreement("misses.toml", {"nginx.aio=threads"});
}
TEST_CASE("engines agree: one slow disk, blocking (the cached file waits behind it)") {
  check_agreement("slow-disk.toml", {});
}
// [!mayfail]: an open defect since the metadata caches (issue 13), not a
// tolerance: the hot group's mean is 0.269 s on SimGrid against 0.294 s
// native (9%, beyond the 3%), from cold metadata reads that take slightly
// different times on the two engines; the failure is still reported. The
// cause found (see check_agreement): SimGrid resumes same-instant sleepers
// of the wrk socket actors in reverse order, so first requests draw their
// files in the opposite connection order from the native engine.
TEST_CASE("engines agree: one slow disk, aio threads", "[!mayfail]") {
  check_agreement("slow-disk.toml", {"nginx.aio=threads"});
}

TEST_CASE("engines agree after a warm-up: the same probes, the same window") {
  // A fixed warm-up of 20 s (two 10 s probes) on the miss scenario, blocking:
  // both engines probe the caches at the same instants and see the same counts.
  const std::vector<std::string> warm = {"warmup=\"20s\""};
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/misses.toml", warm);
  const auto native = native_json(sc);
  const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
  CHECK(native["warmup"]["mode"] == "fixed");
  CHECK(native["warmup"]["took_s"].get<double>() == Approx(20));
  CHECK(simgrid["warmup"]["took_s"] == native["warmup"]["took_s"]);
  REQUIRE(simgrid["warmup"]["intervals"].size() == native["warmup"]["intervals"].size());
  for (std::size_t i = 0; i < native["warmup"]["intervals"].size(); ++i)  // within 1 in 1,000: the open defect
    CHECK(simgrid["warmup"]["intervals"][i]["page_cache_lookups"].get<double>() ==
          Approx(native["warmup"]["intervals"][i]["page_cache_lookups"].get<double>()).epsilon(0.001));
  // The window is 10 s of ifstat after the warm-up, on both.
  CHECK(simgrid["server"]["nic_out_gbps_per_s"].size() == 10);
  CHECK(native["server"]["nic_out_gbps_per_s"].size() == 10);
  for (const auto& [name, n] : native["clients"].items()) {
    INFO("group " << name);
    CHECK(simgrid["clients"][name]["requests_per_s"].get<double>() ==
          Approx(n["requests_per_s"].get<double>()).epsilon(0.03));
  }
  // Equal without metadata from the disk; within 1 in 1,000 with it (the
  // open defect above).
  CHECK(simgrid["server"]["page_cache"]["lookups"].get<double>() ==
        Approx(native["server"]["page_cache"]["lookups"].get<double>()).epsilon(0.001));
  if (metadata_from_disk(native) == 0)
    CHECK(simgrid["server"]["page_cache"]["lookups"] == native["server"]["page_cache"]["lookups"]);
  // Hits agree to 1 in 1,000, not exactly: over 30 s the engines order a few
  // simultaneous events differently, warm-up or not (a cold 30 s run of this
  // scenario: 0.70798 native, 0.70790 SimGrid).
  CHECK(simgrid["server"]["page_cache"]["hit_ratio"].get<double>() ==
        Approx(native["server"]["page_cache"]["hit_ratio"].get<double>()).epsilon(0.001));
}

TEST_CASE("the SimGrid engine gives the same output for the same seed") {
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/slow-disk.toml", {"nginx.aio=threads"});
  auto a = sgengine::run_in_child(sc, 7, 5);
  auto b = sgengine::run_in_child(sc, 7, 5);
  a.erase("wall_s");
  b.erase("wall_s");
  CHECK(a.dump() == b.dump());
}

TEST_CASE("the SimGrid engine refuses what it cannot express, naming it") {
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml", {"clients.hot.rate=100"});
  const auto why = sgengine::unsupported(sc);
  REQUIRE(why.size() == 1);
  CHECK(why[0].find("clients.hot.rate") != std::string::npos);
}

// SimGrid's clock is a double in seconds: a run longer than int64
// nanoseconds hold ended at a wrapped time, "-9223372037 s simulated" with
// exit 0 (issue 21, finding 4). Refused before any actor starts, as the
// loader and --duration refuse it.
TEST_CASE("the SimGrid engine refuses a run longer than the models' clock holds") {
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml");
  for (double duration : {1e10, 1e300, HUGE_VAL, std::nan(""), -1.0}) {
    INFO(duration);
    CHECK_THROWS_AS(sgengine::run(sc, sc.seed, duration), models::ConfigError);
  }
}

namespace {
std::vector<std::uint64_t> connections_per_worker(const nlohmann::ordered_json& run) {
  std::vector<std::uint64_t> out;
  for (const auto& w : run["server"]["workers"]["per_worker"]) out.push_back(w["connections"].get<std::uint64_t>());
  return out;
}
}  // namespace

TEST_CASE("both engines honour a recorded placement, connection by connection") {
  // accept_mutex on alone gives every connection to the worker holding the
  // mutex; the placement from a real run overrides it on both engines
  // (models/server/listen_sockets.h), rather than being dropped on SimGrid.
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml",
                                                    {"nginx.accept_mutex=on", "clients.hot.placement=[22, 10]"});
  REQUIRE(sgengine::unsupported(sc).empty());
  const auto native = connections_per_worker(native_json(sc));
  CHECK(native == std::vector<std::uint64_t>{22, 10});
  CHECK(connections_per_worker(sgengine::run_in_child(sc, sc.seed, 2)) == native);
}
