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
// scenarios they agree to about a microsecond, far inside the tolerances.
//
// Cold metadata reads (issue 13) once made them differ by a few cache
// lookups in thousands, and on the slow disk with aio threads by 9% in the
// hot group's mean: SimGrid resumed the wrk socket actors whose sleeps ended
// at one instant last connection first, so each wrk thread's random files
// went to its connections in the reverse of the native order, and the
// requests reached the server reversed. Without metadata from the disk that
// was a relabelling of equal files and changed no figure; with it, a file's
// directory decides which metadata blocks its open() reads and shares. The
// clients' timed waits now end in the order they began, as on the native
// event heap (engines/simgrid/sg_alarm_clock.h).
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
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <numeric>
#include <vector>

#include "engines/simgrid/sg_disks.h"
#include "engines/simgrid/sg_run.h"
#include "models/scenario/config_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/disk_kinds.h"
#include "models/scenario/result_json.h"
#include "models/scenario/world.h"

namespace {

const std::string kScenarios = CLERK_SCENARIOS;
const std::string kTestData = CLERK_TEST_DATA;

nlohmann::ordered_json native_json(const models::Scenario& sc) {
  models::World world(sc, sc.seed, sc.duration_s);
  world.run();
  return models::to_json(world.result(0), false);
}

std::vector<std::uint64_t> connections_per_worker(const nlohmann::ordered_json& run) {
  std::vector<std::uint64_t> out;
  for (const auto& w : run["server"]["workers"]["per_worker"]) out.push_back(w["connections"].get<std::uint64_t>());
  return out;
}

std::uint64_t metadata_from_disk(const nlohmann::ordered_json& run) {
  return run["server"]["metadata_blocks"]["blocks_read"].get<std::uint64_t>();
}

// How the page cache's counts must agree:
//  - kExact: with blocking sendfile equal to the lookup (else within 1 in 1,000);
//  - kClose: within 1 in 1,000, where same-instant events are known to be
//    ordered differently by the two engines;
//  - kPerRequest: lookups per completed request within 1 in 1,000, where the
//    number of requests is itself a draw (Poisson arrivals from each wrk
//    thread's stream: once the engines leave step, each draws other gaps,
//    and 40,000 arrivals vary by 0.5% as any Poisson count does).
enum class Cache { kExact, kClose, kPerRequest };

double lookups_per_request(const nlohmann::ordered_json& run) {
  double requests = 0;
  for (const auto& [name, g] : run["clients"].items()) requests += g["requests"].get<double>();
  return run["server"]["page_cache"]["lookups"].get<double>() / requests;
}

// Returns both runs' JSON (native, SimGrid) for checks of the case's own.
std::pair<nlohmann::ordered_json, nlohmann::ordered_json> check_agreement(const std::string& file,
                                                                          const std::vector<std::string>& overrides,
                                                                          Cache cache = Cache::kExact) {
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
  // threads a few lookups in 18,000 may differ (some simultaneous events of
  // the pool are ordered differently by the two engines: misses.toml).
  const auto& nc = native["server"]["page_cache"];
  const auto& sc_cache = simgrid["server"]["page_cache"];
  if (cache == Cache::kPerRequest)
    CHECK(lookups_per_request(simgrid) == Approx(lookups_per_request(native)).epsilon(0.001));
  else
    CHECK(sc_cache["lookups"].get<double>() == Approx(nc["lookups"].get<double>()).epsilon(0.001));
  CHECK(sc_cache["hit_ratio"].get<double>() == Approx(nc["hit_ratio"].get<double>()).epsilon(0.001));
  // Exactly equal with blocking sendfile, metadata from the disk included.
  if (sc.nginx.aio == models::find_aio_mode("off") && cache == Cache::kExact) {
    CHECK(sc_cache["lookups"] == nc["lookups"]);
    CHECK(sc_cache["hit_ratio"] == nc["hit_ratio"]);
  }
  return {native, simgrid};
}

// The slowest response of `group` on both engines: far above the median (an
// outlier: a read that collided with garbage collection or stalled), and the
// same outlier on both, within 1% (both drew it from the disk's stream for
// the same read).
void check_same_outlier(const std::pair<nlohmann::ordered_json, nlohmann::ordered_json>& runs, const char* group) {
  const auto& n = runs.first["clients"][group]["latency_raw_s"];
  const auto& s = runs.second["clients"][group]["latency_raw_s"];
  CHECK(n["max"].get<double>() > 10 * n["p50"].get<double>());
  CHECK(s["max"].get<double>() == Approx(n["max"].get<double>()).epsilon(0.01));
}

}  // namespace

TEST_CASE("engines agree: cache hits, blocking sendfile") { check_agreement("hits.toml", {}); }
TEST_CASE("engines agree: cache hits, aio threads") { check_agreement("hits.toml", {"nginx.aio=threads"}); }
TEST_CASE("engines agree: cache misses on an SSD, blocking") { check_agreement("misses.toml", {}); }
TEST_CASE("engines agree: cache misses on an SSD, aio threads") {
  check_agreement("misses.toml", {"nginx.aio=threads"});
}
TEST_CASE("engines agree: a wrk on the server's own host opens every connection and reads as the data arrives") {
  // Same-host threads spend CPU on the server's CPUs for each connect and
  // each chunk they read (models/clients/response_reader.h). With no client
  // costs a connect's burst is zero-length: SimGrid lost the first
  // connection of each thread (its notify came before the socket waited).
  const std::vector<std::string> same_host{"clients.hot.host=\"server\""};
  check_agreement("hits.toml", same_host);
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml", same_host);
  const auto per_worker = connections_per_worker(sgengine::run_in_child(sc, sc.seed, 1));
  CHECK(std::accumulate(per_worker.begin(), per_worker.end(), std::uint64_t{0}) == 32);
  // With client CPU, the wrk threads' bursts end at the same instants as
  // server events, which the engines order differently: 4 lookups in 18,167.
  const std::vector<std::string> wrk_here{"clients.random.host=\"server\"", "cpu.client_byte=0.5ns",
                                          "cpu.client_request=10us", "cpu.client_connect=40us",
                                          "nginx.sendfile_max_chunk=\"512k\""};
  const auto without_rx = check_agreement("misses.toml", wrk_here, Cache::kClose);
  // And with loopback's receive path run by the sender while wrk keeps up
  // (models/os/host.h): both engines' clients decide it from the same
  // reader, and the workers' CPU rises by what they run, alike on both.
  std::vector<std::string> rx = wrk_here;
  rx.push_back("cpu.loopback_rx_byte=0.1ns");
  const auto with_rx = check_agreement("misses.toml", rx, Cache::kClose);
  auto running = [](const nlohmann::ordered_json& j) { return j["server"]["workers"]["running_frac"].get<double>(); };
  CHECK(running(with_rx.first) > running(without_rx.first));
  CHECK(running(with_rx.second) > running(without_rx.second));
  CHECK(running(with_rx.second) == Approx(running(with_rx.first)).epsilon(0.05));
  // And TCP's pacing, paid by the same side (models/os/host.h, loopback_pacing_byte).
  std::vector<std::string> paced = rx;
  paced.push_back("cpu.loopback_pacing_byte=0.3ns");
  const auto with_pacing = check_agreement("misses.toml", paced, Cache::kClose);
  CHECK(running(with_pacing.first) > running(with_rx.first));
  CHECK(running(with_pacing.second) == Approx(running(with_pacing.first)).epsilon(0.05));
}

TEST_CASE("engines agree: a same-host wrk whose loop is the bottleneck writes each next request when its loop comes round to it") {
  // 1 ms of wrk's CPU a response: each thread's 8 connections settle into
  // rounds, and the mean latency is about half the cycle
  // (models/clients/wrk.h); an engine that wrote at once would report the
  // whole cycle, some 80% more. The wrk threads' bursts end at the same
  // instants as server events, which the engines order differently: a few
  // lookups in 18,000 differ (as in the case above).
  check_agreement("hits.toml", {"clients.hot.host=\"server\"", "cpu.client_request=1ms"}, Cache::kClose);
}

// The SSD model (models/hardware/ssd_drive.h) with the S3700 preset's rare
// slow reads: the drive is the same clock-free SsdDrive on both engines,
// drawing its access times from the disk's one stream in the order its
// units take reads, so the outliers fall on the same reads for as long as
// the engines submit reads in the same order. They do not stay in step for
// the whole run: the engines' clocks differ by some hundred nanoseconds
// (SimGrid's CPU shares are computed in floating point), two reads then
// reach the drive in the other order and take each other's draws, and from
// there the runs agree statistically (page-cache lookups 209,529 native,
// 209,361 SimGrid over 10 s, blocking), hence Cache::kClose.
TEST_CASE("engines agree: small files on an SSD with rare slow reads, blocking") {
  check_same_outlier(check_agreement("ssd.toml", {}, Cache::kClose), "random");
}
TEST_CASE("engines agree: small files on an SSD with rare slow reads, aio threads") {
  check_same_outlier(check_agreement("ssd.toml", {"nginx.aio=threads"}), "random");
}

// The same load on an md RAID1 of two such SSDs: each member an SSD actor
// set drawing from the disk's stream of its own index, as natively.
TEST_CASE("engines agree: small files on an md RAID1 of SSDs with rare slow reads, blocking") {
  check_same_outlier(check_agreement("ssd-raid1.toml", {}, Cache::kClose), "random");
}
TEST_CASE("engines agree: small files on an md RAID1 of SSDs with rare slow reads, aio threads") {
  check_same_outlier(check_agreement("ssd-raid1.toml", {"nginx.aio=threads"}), "random");
}

// Open loop (wrk2's schedules, models/clients/wrk.h): each connection's
// requests fall due at a rate whatever the server does, and latency counts
// from when each was due.
TEST_CASE("engines agree: an open-loop group at a constant rate") {
  // 100 requests/s of the 1 MiB file, under the gigabit NIC's 112 a second:
  // every request falls due on schedule on both engines, 100 x 10 s.
  const auto [native, simgrid] = check_agreement("hits.toml", {"clients.hot.rate=100"});
  CHECK(native["clients"]["hot"]["accounting"]["issued"].get<std::uint64_t>() == 1000);
  CHECK(simgrid["clients"]["hot"]["accounting"]["issued"].get<std::uint64_t>() == 1000);
}
TEST_CASE("engines agree: Poisson arrivals on an SSD with rare slow reads, blocking") {
  check_agreement("ssd.toml", {"clients.random.rate=4000", "clients.random.arrival=\"poisson\""},
                  Cache::kPerRequest);
}
TEST_CASE("engines agree: Poisson arrivals on an SSD with rare slow reads, aio threads") {
  check_agreement("ssd.toml", {"clients.random.rate=4000", "clients.random.arrival=\"poisson\"", "nginx.aio=threads"},
                  Cache::kPerRequest);
}

TEST_CASE("engines agree: one slow disk, blocking (the cached file waits behind it)") {
  check_agreement("slow-disk.toml", {});
}
TEST_CASE("engines agree: one slow disk, aio threads") {
  check_agreement("slow-disk.toml", {"nginx.aio=threads"});
}

// The first requests of every connection are written at one instant (100
// us), and each wrk thread's connections draw their random files from the
// thread's stream in connection order on the native engine. On SimGrid the
// socket actors woke at that instant in reverse, so each thread's files went
// to its connections reversed and reached the server reversed; with open()
// reading cold metadata, which directory a file is in decides what it reads,
// and on this scenario 2 s showed it: 3,777 page-cache lookups native, 3,779
// on SimGrid, the slowest response 124 us apart. With the same file per
// request, request by request, every count below is equal and every latency
// within a microsecond (the engines' clocks differ by nanoseconds).
TEST_CASE("engines agree request by request: same-instant requests draw their random files in connection order") {
  models::Scenario sc = models::load_scenario(kScenarios + "/agreement/misses.toml");
  REQUIRE(sc.clients.size() == 1);
  REQUIRE(sc.clients[0].connections / sc.clients[0].threads > 1);  // several connections on each wrk thread
  REQUIRE(sc.clients[0].fixed_file < 0);                          // random paths
  sc.duration_s = 2;
  const auto native = native_json(sc);
  const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
  REQUIRE(metadata_from_disk(native) > 0);  // cold metadata: open() reads the files' directories
  // What the requests' files decide (the per-request figures need stage clocks, which SimGrid keeps none of).
  const std::vector<std::pair<std::string, std::string>> counts = {
      {"page_cache", "lookups"},      {"page_cache", "hit_ratio"},     {"page_cache", "readahead_windows"},
      {"page_cache", "bios"},         {"page_cache", "resident_bytes"}, {"dentry_cache", "lookups"},
      {"dentry_cache", "hits"},       {"dentry_cache", "metadata_reads"}, {"inode_cache", "lookups"},
      {"metadata_blocks", "lookups"}, {"metadata_blocks", "hits"},     {"metadata_blocks", "blocks_read"}};
  for (const auto& [part, key] : counts) {
    INFO(part << "." << key);
    CHECK(simgrid["server"][part][key] == native["server"][part][key]);
  }
  const auto& n = native["clients"]["random"];
  const auto& s = simgrid["clients"]["random"];
  CHECK(s["requests"] == n["requests"]);
  CHECK(s["ttfb_s"]["count"] == n["ttfb_s"]["count"]);
  for (const char* figure : {"mean", "p50", "p90", "p99", "max"}) {
    INFO(figure);
    CHECK(s["latency_raw_s"][figure].get<double>() ==
          Approx(n["latency_raw_s"][figure].get<double>()).epsilon(0).margin(1e-6));
  }
  REQUIRE(s["per_s"]["requests"].size() == n["per_s"]["requests"].size());
  CHECK(s["per_s"]["requests"] == n["per_s"]["requests"]);
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
  for (std::size_t i = 0; i < native["warmup"]["intervals"].size(); ++i)
    CHECK(simgrid["warmup"]["intervals"][i]["page_cache_lookups"] ==
          native["warmup"]["intervals"][i]["page_cache_lookups"]);
  // The window is 10 s of ifstat after the warm-up, on both.
  CHECK(simgrid["server"]["nic_out_gbps_per_s"].size() == 10);
  CHECK(native["server"]["nic_out_gbps_per_s"].size() == 10);
  for (const auto& [name, n] : native["clients"].items()) {
    INFO("group " << name);
    CHECK(simgrid["clients"][name]["requests_per_s"].get<double>() ==
          Approx(n["requests_per_s"].get<double>()).epsilon(0.03));
  }
  CHECK(simgrid["server"]["page_cache"]["lookups"] == native["server"]["page_cache"]["lookups"]);
  // Hits agree to 1 in 1,000, not exactly: over 30 s the engines order a few
  // simultaneous events differently, warm-up or not (a cold 30 s run of this
  // scenario: 0.70798 native, 0.70790 SimGrid).
  CHECK(simgrid["server"]["page_cache"]["hit_ratio"].get<double>() ==
        Approx(native["server"]["page_cache"]["hit_ratio"].get<double>()).epsilon(0.001));
}

// A transfer cut while the flow's sender actor waits on it (probe 4, finding
// 1). A send buffer smaller than a response sets each EPOLLOUT threshold
// inside a running transfer, which SgNic::notify_below cuts in two; a pool
// overflow fails a request and closes its connection with a response on the
// wire, whose transfer SgNic::close_flow cuts. The cut dropped the only
// reference to SimGrid's Comm while the sender was still in its wait(), and
// the run died of SIGSEGV. Both run to the end now, every request accounted
// for, with the native engine's figures.
TEST_CASE("the SimGrid engine cuts running transfers: a small send buffer, connections closed mid-response") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"hits.toml", {"kernel.tcp_wmem_max=65536"}},
      {"slow-disk.toml", {"nginx.aio=threads", "nginx.thread_pool.max_queue=0", "nginx.thread_pool.threads=1"}}};
  for (const auto& [file, overrides] : cases) {
    INFO(file);
    models::Scenario sc = models::load_scenario(kScenarios + "/agreement/" + file, overrides);
    REQUIRE(sgengine::unsupported(sc).empty());
    sc.duration_s = 0.3;
    const auto native = native_json(sc);
    const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
    double completed = 0, failed = 0;
    for (const auto& [name, n] : native["clients"].items()) {
      INFO("group " << name);
      const auto& a = simgrid["clients"][name]["accounting"];
      const auto& na = n["accounting"];
      CHECK(a["issued"].get<std::uint64_t>() ==
            a["completed"].get<std::uint64_t>() + a["failed"].get<std::uint64_t>() +
                a["in_flight_at_end"].get<std::uint64_t>());
      for (const char* count : {"issued", "completed", "failed"}) {
        INFO(count);
        CHECK(a[count].get<double>() == Approx(na[count].get<double>()).epsilon(0.03).margin(1));
      }
      completed += na["completed"].get<double>();
      failed += na["failed"].get<double>();
    }
    if (file == "hits.toml") {  // the 32 first responses, each cut at every threshold
      CHECK(completed == 32);
      CHECK(simgrid["clients"]["hot"]["latency_raw_s"]["mean"].get<double>() ==
            Approx(native["clients"]["hot"]["latency_raw_s"]["mean"].get<double>()).epsilon(0.03));
    } else {  // responses failed and their connections closed
      CHECK(failed > 0);
      CHECK(simgrid["server"]["requests"]["failed"]["thread_pool_overflow"].get<double>() > 0);
    }
    CHECK(simgrid["server"]["nic_out_gbps_mean"].get<double>() ==
          Approx(native["server"]["nic_out_gbps_mean"].get<double>()).epsilon(0.03));
  }
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
  const models::Scenario sc = models::load_scenario(kScenarios + "/agreement/hits.toml", {"kernel.scheduler=\"cfs\""});
  const auto why = sgengine::unsupported(sc);
  REQUIRE(why.size() == 1);
  CHECK(why[0].find("kernel.scheduler") == 0);
}

TEST_CASE("the SimGrid engine refuses a trace group by its key") {
  const models::Scenario sc = models::load_scenario(kTestData + "/trace/replay.toml");
  const auto why = sgengine::unsupported(sc);
  REQUIRE(why.size() == 1);
  CHECK(why[0].find("clients.log.trace") == 0);
}

TEST_CASE("the SimGrid engine refuses directio and open_file_cache by their keys") {
  const models::Scenario sc = models::load_scenario(
      kScenarios + "/agreement/hits.toml", {"nginx.directio=\"1m\"", "nginx.open_file_cache=\"max=100\""});
  const auto why = sgengine::unsupported(sc);
  REQUIRE(why.size() == 2);
  CHECK(why[0].find("nginx.directio") == 0);
  CHECK(why[1].find("nginx.open_file_cache") == 0);
}

TEST_CASE("the SimGrid engine refuses internet clients by their keys") {
  const models::Scenario lan = models::load_scenario(kScenarios + "/agreement/hits.toml");
  REQUIRE(sgengine::unsupported(lan).empty());
  const models::Scenario sc =
      models::load_scenario(kScenarios + "/agreement/hits.toml", {"clients.hot.rtt=\"40ms\"", "clients.hot.bandwidth=\"20Mbit/s\""});
  const auto why = sgengine::unsupported(sc);
  REQUIRE(why.size() == 1);
  CHECK(why[0].find("clients.hot.rtt and bandwidth") != std::string::npos);
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

// The two halves of the disk registry: a kind the SimGrid engine does not
// refuse (models/scenario/disk_kinds.h) has a factory there
// (engines/simgrid/sg_disks.h), and every factory there is a kind's.
TEST_CASE("every disk kind is built on SimGrid or refused by name") {
  for (const models::DiskKind* kind : models::disk_kinds()) {
    INFO(kind->name);
    CHECK((sgengine::find_sg_disk_kind(kind->name) != nullptr) == (kind->simgrid_refusal == nullptr));
  }
  for (const char* name : {"hdd", "ssd", "raid1", "raid10", "simple", "none"}) {
    const models::DiskKind* kind = models::find_disk_kind(name);
    REQUIRE(kind != nullptr);
    CHECK(kind->simgrid_refusal == nullptr);
  }
}

TEST_CASE("both engines honour worker_connections: the same refusals, every request accounted for") {
  // accept_disabled_test.cpp's whole run (policies.toml: 4 workers, 40
  // connections 10 ms apart, kept alive the whole run): with accept_mutex on
  // and worker_connections 16 the mutex holder takes 14 (16 - its listen
  // socket - its channel) and closes the next ones with "worker_connections
  // are not enough" until another worker takes the free lock
  // (models/server/listen_sockets.h, shared by both engines).
  const models::Scenario sc = models::load_scenario(kTestData + "/policies.toml",
                                                    {"nginx.accept_mutex=on", "nginx.worker_connections=16"});
  REQUIRE(sgengine::unsupported(sc).empty());
  const auto native = native_json(sc);
  const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
  // The same shares, compared sorted: which of the three waiting workers
  // takes the free lock first differs (their accept_mutex_delay timers end
  // at one instant, and the engines resume them in another order: native
  // workers 1, 2, 3 got 14, 10, 2; SimGrid's 3, 1, 2).
  auto per_worker = connections_per_worker(simgrid);
  auto native_per_worker = connections_per_worker(native);
  std::sort(per_worker.begin(), per_worker.end());
  std::sort(native_per_worker.begin(), native_per_worker.end());
  CHECK(per_worker.back() == 14);
  CHECK(per_worker == native_per_worker);
  const std::string reason = "worker_connections are not enough";
  const auto& s_failed = simgrid["server"]["requests"]["failed"];
  const auto& n_failed = native["server"]["requests"]["failed"];
  REQUIRE(s_failed.contains(reason));
  REQUIRE(n_failed.contains(reason));
  CHECK(s_failed[reason].get<double>() > 0);
  CHECK(s_failed[reason].get<double>() == Approx(n_failed[reason].get<double>()).epsilon(0.03));
  const auto& log = simgrid["server"]["error_log"]["first"];
  CHECK(std::find(log.begin(), log.end(), "16 worker_connections are not enough") != log.end());
  for (const auto& [name, g] : simgrid["clients"].items()) {
    INFO("group " << name);
    const auto& a = g["accounting"];
    CHECK(a["issued"].get<std::uint64_t>() ==
          a["completed"].get<std::uint64_t>() + a["failed"].get<std::uint64_t>() + a["in_flight_at_end"].get<std::uint64_t>());
    for (const auto& [why, n] : a["failed_by_reason"].items()) CHECK(why == reason);
    const auto& na = native["clients"][name]["accounting"];
    CHECK(a["completed"].get<double>() == Approx(na["completed"].get<double>()).epsilon(0.03));
    CHECK(a["failed"].get<double>() == Approx(na["failed"].get<double>()).epsilon(0.03));
  }
}

TEST_CASE("both engines: every failed request is one read error, or its close had not reached wrk at the end") {
  // pool_overflow_test.cpp's probe run (every request overflows a one-thread
  // pool): wrk reads each close one way after the server's and stops
  // reading at the end, so the last few failures are in `failed` and in
  // `failed_unseen_by_wrk`, not in wrk's errors.
  const models::Scenario sc = models::load_scenario(
      kScenarios + "/agreement/hits.toml",
      {"nginx.aio=\"threads\"", "nginx.thread_pool.threads=1", "nginx.thread_pool.max_queue=0", "preload=[]"});
  REQUIRE(sgengine::unsupported(sc).empty());
  models::Scenario short_run = sc;
  short_run.duration_s = 0.5;
  const auto native = native_json(short_run);
  const auto simgrid = sgengine::run_in_child(short_run, short_run.seed, short_run.duration_s);
  for (const auto* run : {&native, &simgrid}) {
    INFO((run == &native ? "native" : "simgrid"));
    const auto& g = (*run)["clients"]["hot"];
    const auto& a = g["accounting"];
    const auto& e = g["errors"];
    const auto errors = e["connect"].get<std::uint64_t>() + e["read"].get<std::uint64_t>() +
                        e["write"].get<std::uint64_t>() + e["timeout"].get<std::uint64_t>() +
                        e["status"].get<std::uint64_t>();
    REQUIRE(a["failed"].get<std::uint64_t>() > 1000);
    if (run == &native) CHECK(a["failed_unseen_by_wrk"].get<std::uint64_t>() > 0);
    CHECK(a["failed"].get<std::uint64_t>() == errors + a["failed_unseen_by_wrk"].get<std::uint64_t>());
    // Native: 2 at 0.5 s. SimGrid's run of this overload once differed
    // (1,166 failures, all early, none unseen): its wrk read each close of a
    // request refused right after its header one way late (the test below),
    // and the slower reconnects let the pools' second chunks through.
    CHECK(a["failed_unseen_by_wrk"].get<std::uint64_t>() <= 32);
    CHECK(a["issued"].get<std::uint64_t>() == a["completed"].get<std::uint64_t>() + a["failed"].get<std::uint64_t>() +
                                                   a["in_flight_at_end"].get<std::uint64_t>());
  }
}

TEST_CASE("both engines: wrk reads a refused request's close one way after the server closed it") {
  // Only reconnections: each pool task takes 0.5 s (1 us a byte of a
  // 512 KiB chunk), so after each worker's first task every request
  // overflows the one-thread pool right after its header and the
  // connection is closed. A connection's cycle is the handshake and the
  // request (3 one-way delays), the worker's 17 us, and the close reaching
  // wrk (1 one-way delay): about 817 us with one way 200 us. SimGrid's
  // wrk once slept until the header's arrival and then one way more before
  // it read the close: 1,017 us, and 2,942 requests in 0.1 s against
  // native's 3,662.
  models::Scenario sc = models::load_scenario(
      kScenarios + "/agreement/hits.toml",
      {"nginx.aio=\"threads\"", "nginx.thread_pool.threads=1", "nginx.thread_pool.max_queue=0", "preload=[]",
       "cpu.sendfile_byte=\"1us\"", "network.one_way_latency=\"200us\""});
  REQUIRE(sgengine::unsupported(sc).empty());
  sc.duration_s = 0.1;
  const auto native = native_json(sc);
  const auto simgrid = sgengine::run_in_child(sc, sc.seed, sc.duration_s);
  const auto& na = native["clients"]["hot"]["accounting"];
  const auto& sa = simgrid["clients"]["hot"]["accounting"];
  REQUIRE(na["failed"].get<double>() > 3000);
  CHECK(na["completed"].get<std::uint64_t>() == 0);
  CHECK(sa["completed"].get<std::uint64_t>() == 0);
  for (const char* count : {"issued", "failed"}) {
    INFO(count);
    CHECK(sa[count].get<double>() == Approx(na[count].get<double>()).epsilon(0.01));
  }
}
