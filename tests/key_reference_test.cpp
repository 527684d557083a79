// The key reference (issue 25): every key the loader reads is documented,
// unknown keys are reported before missing ones with the table's keys or the
// nearest one, and includes work inside tables and from the presets.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <tuple>

#include "tests/load_error.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/key_reference.h"

namespace {

const std::string kData = CLERK_TEST_DATA;
const std::string kKeys = kData + "/keys";

using tests::load_error;

bool mentions(const models::ConfigError& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("keys: every key the loader reads is documented, and every documented key is read") {
  const models::KeyReference ref = models::build_key_reference();
  for (const std::string& p : ref.problems) INFO(p);
  CHECK(ref.problems.empty());
  REQUIRE(ref.entries.size() > 100);
  for (const models::KeyEntry& e : ref.entries) {
    INFO(e.use.table << " " << e.use.key);
    if (e.use.type != models::KeyType::kRetired) CHECK(std::string(e.doc.text).size() > 10);
  }
}

TEST_CASE("keys: the reference gives the loader's own ranges and defaults") {
  const models::KeyReference ref = models::build_key_reference();
  auto find = [&](const std::string& table, const std::string& when, const std::string& key) -> const models::KeyUse* {
    for (const models::KeyEntry& e : ref.entries)
      if (e.use.table == table && e.use.when == when && e.use.key == key) return &e.use;
    return nullptr;
  };
  const models::KeyUse* workers = find("nginx", "", "worker_processes");
  REQUIRE(workers);
  CHECK(workers->type == models::KeyType::kInteger);
  CHECK(workers->range == "1 to 1024");
  CHECK(workers->fallback == "1");
  const models::KeyUse* aio = find("nginx", "", "aio");
  REQUIRE(aio);
  CHECK(aio->range == "\"off\", \"threads\", \"on\", \"io_uring\", \"threads=NAME\"");  // a pool mode may name its pool
  const models::KeyUse* files = find("dataset", "", "files");
  REQUIRE(files);
  CHECK(files->required);
  const models::KeyUse* readahead = find("disk", "type = \"ssd\"", "readahead");
  REQUIRE(readahead);
  CHECK(readahead->fallback == "128k");
  CHECK(find("disk.member", "type = \"hdd\"", "rpm"));
  CHECK(find("disk.member", "type = \"ssd\"", "read_latency"));
  CHECK(find("disk", "type = \"raid1\"", "devices"));
  CHECK(find("disk", "type = \"raid0\"", "chunk"));
  CHECK(find("clients.NAME.hot", "", "share"));
  CHECK(find("expect", "", "metric"));
}

TEST_CASE("keys: one key's line, as a lesson's exercise shows it, gives its values, default and meaning") {
  const models::KeyReference ref = models::build_key_reference();
  const std::string aio = models::key_summary(ref, "nginx.aio");
  CHECK(aio.rfind("nginx.aio (choice, \"off\", \"threads\", \"on\"", 0) == 0);
  CHECK(aio.find("default \"off\"): ") != std::string::npos);
  const std::string threads = models::key_summary(ref, "nginx.thread_pool.max_queue");
  CHECK(threads.find("whole number") != std::string::npos);
  CHECK(threads.find("default 65536") != std::string::npos);
  CHECK(models::key_summary(ref, "nginx.no_such_key").empty());
  CHECK(models::key_summary(ref, "nosuchtable.aio").empty());
}

TEST_CASE("keys: the Markdown reference lists every table and key once") {
  const models::KeyReference ref = models::build_key_reference();
  const std::string md = models::key_reference_markdown(ref);
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const models::KeyEntry& e : ref.entries) {
    CHECK(seen.insert({e.use.table, e.use.when, e.use.key}).second);
    CHECK(md.find("`" + e.use.key + "`") != std::string::npos);
  }
  CHECK(md.find("## [disk] with type = \"ssd\"") != std::string::npos);
  CHECK(md.find("## [clients.NAME.hot]") != std::string::npos);
  CHECK(md.find("## [[expect]]") != std::string::npos);
  std::string text;
  CHECK_FALSE(models::key_reference_text(ref, "no-such-table", text));
  CHECK(models::key_reference_text(ref, "nic", text));
  CHECK(text.find("line_rate") != std::string::npos);
}

TEST_CASE("keys: an unknown key is reported before a missing one") {
  const models::ConfigError e = load_error(kKeys + "/unknown-and-missing.toml");
  CHECK(e.key() == "nginx.worker_proceses");
  CHECK(e.line() == 10);
  CHECK(mentions(e, "unknown key (did you mean 'worker_processes'?)"));
}

TEST_CASE("keys: an unknown key with no near match lists the table's keys") {
  const std::string small = kData + "/small-hdd.toml";
  const models::ConfigError nic = load_error(small, {"nic.bogus_setting=1"});
  CHECK(nic.key() == "nic.bogus_setting");
  CHECK(mentions(nic, "[nic] takes line_rate, mtu"));
  // Retired keys are not offered.
  const models::ConfigError mem = load_error(small, {"memory.xyzzy_abc=1"});
  CHECK(mentions(mem, "[memory] takes page_cache, cache_unit (clerk keys"));
  // A key of another disk type: the keys of this one.
  const models::ConfigError ssd = load_error(kKeys + "/ssd-in-table.toml", {"disk.rpm=7200"});
  CHECK(ssd.key() == "disk.rpm");
  CHECK(mentions(ssd, "[disk] with type = \"ssd\" takes"));
  CHECK(mentions(ssd, "read_latency"));
  // The did-you-mean of an unknown key of a client group.
  const models::ConfigError group = load_error(small, {"clients.hot.conections=3"});
  CHECK(group.key() == "clients.hot.conections");
  CHECK(mentions(group, "did you mean 'connections'?"));
}

TEST_CASE("keys: an include inside a table gives that table's defaults, which the table overrides") {
  const models::Scenario sc = models::load_scenario(kKeys + "/ssd-in-table.toml");
  CHECK(std::holds_alternative<models::SsdSpec>(sc.hardware.disk));
  CHECK(std::get<models::SsdSpec>(sc.hardware.disk).capacity_bytes == 100.0 * (1ull << 30));       // the table's own key
  CHECK(std::get<models::SsdSpec>(sc.hardware.disk).read_median_s == Approx(50e-6));              // from the included file
  CHECK(std::get<models::SsdSpec>(sc.hardware.disk).bandwidth_Bps == Approx(500e6));
}

TEST_CASE("keys: @hardware/NAME reaches the presets from anywhere, missing presets and files name the include") {
  const models::Scenario sc = models::load_scenario(kKeys + "/preset.toml");
  CHECK(std::holds_alternative<models::SsdSpec>(sc.hardware.disk));
  CHECK(sc.hardware.logical_cpus == 24);

  const models::ConfigError missing = load_error(kKeys + "/preset-missing.toml");
  CHECK(missing.key() == "include");
  CHECK(missing.line() == 1);
  CHECK(mentions(missing, "no hardware profile 'no-such-machine'"));
  CHECK(mentions(missing, "edge-sata-ssd"));
  CHECK(mentions(missing, "ssd/sata-dc-s3700"));

  const models::ConfigError bad = load_error(kKeys + "/preset-bad-path.toml");
  CHECK(mentions(bad, "the one search path is @hardware/NAME"));

  const models::ConfigError file = load_error(kKeys + "/table-missing.toml");
  CHECK(file.key() == "nginx.include");
  CHECK(file.line() == 4);
  CHECK(mentions(file, "no-such-file.toml"));
}

TEST_CASE("keys: an include cycle through a table is an error naming the include") {
  const models::ConfigError e = load_error(kKeys + "/table-cycle-a.toml");
  CHECK(mentions(e, "include cycle: table-cycle-a.toml -> table-cycle-b.toml -> table-cycle-a.toml"));
  CHECK(e.key() == "disk.include");
}

TEST_CASE("keys: --set cannot include files") {
  const models::ConfigError e = load_error(kData + "/small-hdd.toml", {"disk={include=\"x.toml\"}"});
  CHECK(e.file() == "--set");
  CHECK(mentions(e, "--set cannot include files"));
}
