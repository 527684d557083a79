// The loader refuses what the simulation cannot represent (issue 21): each
// case here loaded on the code before the fix and then crashed, hung, or ran
// something other than what was written. Every refusal is a ConfigError that
// names the file, the key and the allowed range.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <stdexcept>
#include <unistd.h>
#include <vector>

#include "tests/load_error.h"
#include "models/os/ext4_layout.h"
#include "models/scenario/config_loader.h"
#include "models/scenario/layered_toml.h"
#include "models/scenario/limits.h"
#include "models/scenario/toml_guard.h"
#include "models/scenario/units.h"

namespace {

namespace fs = std::filesystem;
const std::string kData = CLERK_TEST_DATA;
const std::string kSmall = kData + "/small-hdd.toml";

using tests::load_error;

bool mentions(const models::ConfigError& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

// A folder of its own under the system's temporary folder, removed at the end.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "clerk-loader-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name, const std::string& text) const {
    const std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

}  // namespace

// Finding 4: spans that overflow the nanosecond clock.
TEST_CASE("loader: a latency, cost or duration beyond the clock's range is a ConfigError with the range") {
  for (const std::string o : {"cpu.request=\"1e20s\"", "network.one_way_latency=\"1e6s\"", "duration=\"1e9s\"",
                               "clients.random.timeout=\"1e12s\"", "nginx.accept_mutex_delay=\"1e7s\"",
                               "block.read_expire=\"1e6s\"", "cpu.sendfile_byte=\"1s\"", "cpu.request=\"nans\"",
                               "cpu.request=\"infs\""}) {
    INFO(o);
    const models::ConfigError e = load_error(kSmall, {o});
    CHECK(e.file() == "--set");
    CHECK(e.key() == o.substr(0, o.find('=')));
    CHECK(mentions(e, "must be a time"));
  }
  CHECK_NOTHROW(models::load_scenario(kSmall, {"cpu.request=\"1000s\"", "duration=\"100000s\""}));
}

TEST_CASE("loader: rates and bandwidths outside the floor and ceiling are ConfigErrors") {
  // 1e30 Gbit/s livelocked the fair-share resource; 1 B/s takes 2^40 s for a 1 TiB file.
  for (const std::string o : {"nic.line_rate=\"1e30Gbit/s\"", "disk.transfer_outer=\"1B/s\"",
                               "disk.interface=\"1e20GB/s\"", "clients.random.rate=1e-300"}) {
    INFO(o);
    const models::ConfigError e = load_error(kSmall, {o});
    CHECK(e.key() == o.substr(0, o.find('=')));
    CHECK((mentions(e, "between 1kB/s and 10TB/s") || mentions(e, "requests a second")));
  }
}

TEST_CASE("loader: a data set larger than its disk is a ConfigError, not a throw from the file system") {
  const models::ConfigError e = load_error(kSmall, {"disk.capacity=\"100m\""});
  CHECK(e.key() == "dataset.files");
  CHECK(mentions(e, "do not fit on the disk"));
  CHECK_NOTHROW(models::load_scenario(kSmall, {"disk.capacity=\"300m\""}));
}

// Probe 6, finding 3: ext4 runs out of inodes before the bytes run out when
// the files are small; that was exit 3 from the layout, after it was built.
// A 1 GiB disk has 8 block groups of 8192 inodes, 11 of them reserved.
TEST_CASE("loader: a data set with more files and directories than ext4 has inodes is refused, naming dataset.files") {
  const std::uint64_t inodes = models::Ext4Layout::inode_count(1ULL << 30);
  REQUIRE(inodes == 8 * 8192);
  const std::uint64_t most = inodes - models::Ext4Geometry::kFirstIno;
  auto with = [](std::uint64_t files, const std::string& tree, const std::string& placement) {
    return std::vector<std::string>{"disk.capacity=\"1g\"", "dataset.file_size=\"1\"",
                                    "dataset.files=" + std::to_string(files), "dataset.tree=" + tree,
                                    "dataset.placement=\"" + placement + "\"", "clients.hot.path=\"/1\""};
  };
  for (const std::string placement : {"spread", "packed", "ext4"}) {
    INFO(placement);
    CHECK_NOTHROW(models::load_scenario(kSmall, with(most, "[" + std::to_string(most) + "]", placement)));
    const models::ConfigError e = load_error(kSmall, with(most + 1, "[" + std::to_string(most + 1) + "]", placement));
    CHECK(e.key() == "dataset.files");
    CHECK(mentions(e, "65536"));
    CHECK(mentions(e, "give a larger disk, or fewer files"));
  }
  // The directories count: 3 of them and 65523 files need 65537 inodes.
  const models::ConfigError e = load_error(kSmall, with(65523, "[3, 21841]", "spread"));
  CHECK(mentions(e, "65523 files, 3 directories"));
  // The rule is the layout's own: at the boundary it builds, one more inode
  // and it throws.
  const sim::RandomStream rng(1);
  CHECK_NOTHROW(models::Ext4Layout({static_cast<std::uint32_t>(most)}, 1ULL << 30, 4, rng));
  CHECK_THROWS_AS(models::Ext4Layout({static_cast<std::uint32_t>(most + 1)}, 1ULL << 30, 4, rng),
                  std::invalid_argument);
  CHECK(models::Ext4Layout::inodes_needed({3, 21841}) == inodes + 1);
}

TEST_CASE("loader: a negative entry in file_sizes is a ConfigError, not a wrapped size") {
  const models::ConfigError e = load_error(kData + "/loader/negative-file-size.toml");
  CHECK(e.key() == "dataset.file_sizes");
  CHECK(e.line() > 0);
}

TEST_CASE("loader: disk.type none with a data set larger than the page cache names the disk it needs") {
  const models::ConfigError e = load_error(kData + "/loader/no-disk-too-large.toml");
  CHECK(e.key() == "dataset.files");
  CHECK(mentions(e, "disk.type = \"none\""));
  CHECK(mentions(e, "give the data set a disk"));
  // The same data set in a page cache large enough loads.
  CHECK_NOTHROW(models::load_scenario(kData + "/loader/no-disk-too-large.toml", {"memory.page_cache=\"512m\""}));
}

TEST_CASE("loader: a sequential_depth_bandwidth whose depths do not rise names the file, its line and the key") {
  const models::ConfigError e = load_error(kData + "/loader/ssd-sequential-depth-falling.toml");
  CHECK(e.key() == "disk.sequential_depth_bandwidth");
  CHECK(e.line() == 23);
  CHECK(mentions(e, "ssd-sequential-depth-falling.toml"));
  CHECK(mentions(e, "depths must rise"));
}

// Finding 5: special files as includes, and the parser's cost per key.
TEST_CASE("loader: an include of /dev/zero is refused, not read as an empty file") {
  const models::ConfigError e = load_error(kData + "/loader/include-dev-zero.toml");
  CHECK(e.key() == "include");
  CHECK(mentions(e, "not a regular file"));
}

TEST_CASE("loader: an include that names a FIFO is refused at once instead of waiting for a writer") {
  const TempDir dir;
  REQUIRE(mkfifo(dir.path("fifo.toml").c_str(), 0600) == 0);
  const std::string scenario = dir.file("s.toml", "include = \"fifo.toml\"\n");
  const models::ConfigError e = load_error(scenario);
  CHECK(e.key() == "include");
  CHECK(mentions(e, "a FIFO, not a regular file"));
  // The scenario itself as a FIFO, too.
  const models::ConfigError top = load_error(dir.path("fifo.toml"));
  CHECK(mentions(top, "a FIFO, not a regular file"));
}

TEST_CASE("loader: a scenario file above the size limit is refused before it is read") {
  const TempDir dir;
  const std::string big = dir.path("big.toml");
  {
    std::ofstream out(big, std::ios::binary);
    out << "# padding\n";
  }
  REQUIRE(truncate(big.c_str(), static_cast<off_t>(64) << 20) == 0);  // sparse: no disk space used
  const models::ConfigError e = load_error(big);
  CHECK(mentions(e, "is larger than 16 MiB"));
}

// Finding 6: --set values that were ignored, and values that wrapped.
TEST_CASE("loader: --set with an inline table sets each of its keys") {
  const models::Scenario sc = models::load_scenario(kSmall, {"nginx={worker_processes=3, aio=\"threads\"}"});
  CHECK(sc.nginx.worker_processes == 3);
  CHECK(sc.nginx.aio == models::find_aio_mode("threads"));
  CHECK(sc.nginx.sendfile_max_chunk == 512 * 1024);  // the file's other keys stay
  const models::ConfigError e = load_error(kSmall, {"nginx={workers=3}"});
  CHECK(e.file() == "--set");
  CHECK(e.key() == "nginx.workers");
}

TEST_CASE("loader: --set of a key under a value that is not a table is a ConfigError") {
  const models::ConfigError e = load_error(kSmall, {"seed.x=1"});
  CHECK(e.file() == "--set");
  CHECK(e.key() == "seed.x");
  CHECK(mentions(e, "'seed' is a value, not a table"));
}

// Hostile probe 3, finding 11: the parts were walked (a copy of each
// prefix: N^2 bytes) before any limit, and the error named the first part.
TEST_CASE("loader: --set of a key with more than 16 dotted parts is refused as such, whatever the first part") {
  std::string key = "nginx";
  for (int i = 0; i < 16; ++i) key += ".a";
  const models::ConfigError e = load_error(kSmall, {key + "=1"});
  CHECK(e.file() == "--set");
  CHECK(std::string(e.what()).find("more than 16 dotted parts") != std::string::npos);
  CHECK(e.key().rfind("nginx.a.a", 0) == 0);
  std::string huge = "a";
  for (int i = 0; i < 8000; ++i) huge += ".a";
  const models::ConfigError big = load_error(kSmall, {huge + "=1"});
  CHECK(std::string(big.what()).find("more than 16 dotted parts") != std::string::npos);
  CHECK(big.key().size() < 80);  // the key is named by its start, not in 16,000 characters
  std::string fifteen = "nginx";
  for (int i = 0; i < 15; ++i) fifteen += ".a";
  CHECK(std::string(load_error(kSmall, {fifteen + "=1"}).what()).find("dotted parts") == std::string::npos);
}

TEST_CASE("loader: a number out of range is quoted %g style, not in 309 digits") {
  const models::ConfigError e = load_error(kSmall, {"clients.hot.rate=-1e308"});
  CHECK(e.key() == "clients.hot.rate");
  CHECK(mentions(e, "(got -1e+308)"));
  CHECK(std::string(e.what()).size() < 200);
}

TEST_CASE("loader: NaN weights, sizes above the limit and entries that wrap at 32 bits are ConfigErrors") {
  CHECK(load_error(kData + "/loader/nan-weight.toml").key() == "dataset.file_sizes");
  CHECK(load_error(kData + "/loader/tree-wraps.toml").key() == "dataset.tree");
  CHECK(load_error(kData + "/loader/placement-wraps.toml").key() == "clients.hot.placement");
  CHECK(load_error(kSmall, {"dataset.file_size=\"2t\""}).key() == "dataset.file_size");
  // Each weight finite, their total not: every file fell in the last class.
  const models::ConfigError total = load_error(kData + "/loader/weights-overflow.toml");
  CHECK(total.key() == "dataset.file_sizes");
  CHECK(mentions(total, "add up to more than a double holds"));
}

// Finding 9: a bad --set key is reported against the override, not the file.
TEST_CASE("loader: an unknown key given with --set is reported against --set, with no line") {
  for (const std::string o : {"foo.bar=1", "nginx.thread_pool.bogus.x=1", "clients.hot.bogus=1"}) {
    INFO(o);
    const models::ConfigError e = load_error(kSmall, {o});
    CHECK(e.file() == "--set");
    CHECK(e.line() == 0);
  }
  const models::ConfigError group = load_error(kSmall, {"clients.new.threads=1"});
  CHECK(group.file() == "--set");
  CHECK(group.key() == "clients.new");
  CHECK(mentions(group, "is no client group of the scenario"));
}

// Finding 10: inputs that reach undefined behaviour in Debian 12's toml++ 3.3.0.
TEST_CASE("loader: the texts toml++ 3.3.0 mishandles are refused before it sees them") {
  // A UTF-8 é outside a string reaches TOML_UNREACHABLE; "[" and a line end
  // fails an assertion (an assumption in release builds). The release build
  // happened to answer with toml++'s own message; under UBSan or with
  // assertions it aborted. The guard answers first, with its own message.
  const models::ConfigError e_acute = load_error(kData + "/loader/utf8-lone-e-acute.toml");
  CHECK(e_acute.line() == 1);
  CHECK(mentions(e_acute, "a non-ASCII character outside a string or comment"));
  const models::ConfigError bracket = load_error(kData + "/loader/lone-bracket.toml");
  CHECK(bracket.line() == 1);
  CHECK(mentions(bracket, "a table header must name a table"));
  // A latin-1 é is not UTF-8 either, refused the same way.
  CHECK(mentions(load_error(kData + "/loader/latin1-lone-e-acute.toml"), "a non-ASCII character"));
  // Non-ASCII text in strings and comments, and '[' starting a line inside a
  // multi-line array, are TOML and load.
  CHECK_NOTHROW(models::load_scenario(kSmall, {"name=\"caf\xc3\xa9\""}));
  CHECK(models::toml_guard("# caf\xc3\xa9\nx = [\n[1],\n  [\n2]\n]\n[t]\n[[u]]\n[ \"v\" ]\n").line == 0);
  CHECK(models::toml_guard("x = 1\n[[\n").line == 2);
  CHECK(models::toml_guard("x = [\n1,\n}]\n").line == 3);  // an assertion in parse_value
  CHECK(mentions(load_error(kSmall, {"nginx.worker_processes=[\"a\", }"}), "a '}' inside an array"));
  CHECK(models::toml_guard("s = \"\"\"\\\n  \xc3\xa9\"\"\"\n").line == 2);
  // U+00A1 to U+0499 (the code points toml++ 3.3.0 reaches TOML_UNREACHABLE
  // on) never reach it: escaped in "..." strings, '?' in comments, refused
  // in '...' strings and after a backslash.
  CHECK(models::toml_guard("a = \"caf\xc3\xa9\" # \xc3\xa9\n").safe_text == "a = \"caf\\u00E9\" # ?\n");
  CHECK(models::toml_guard("a = 'caf\xc3\xa9'\n").line == 1);
  CHECK(models::toml_guard("\"\"\"_\\\xc3\xa9").line == 1);  // found by fuzzing toml++ under UBSan
  CHECK(models::load_scenario(kSmall, {"name=\"caf\xc3\xa9 \xe4\xb8\xad\""}).name == "caf\xc3\xa9 \xe4\xb8\xad");
}

TEST_CASE("loader: --duration goes through limits::check_run_duration") {
  using models::limits::check_run_duration;
  CHECK(check_run_duration(60, "--duration") == 60);
  CHECK(check_run_duration(models::limits::kMaxRunSeconds, "--duration") == models::limits::kMaxRunSeconds);
  CHECK(check_run_duration(0.001, "--duration") == 0.001);
  for (double bad : {0.0, -1.0, 1e-9, 0.0009, std::nan(""), HUGE_VAL, models::limits::kMaxRunSeconds * 2}) {
    INFO(bad);
    try {
      check_run_duration(bad, "--duration");
      FAIL("accepted");
    } catch (const models::ConfigError& e) {
      CHECK(e.file() == "--duration");
      CHECK(mentions(e, "from 0.001 to 100000"));
    }
  }
}

TEST_CASE("the scheduler keys: a known policy, the kernel's sysctl ranges, a topology that adds up") {
  // small-hdd.toml names no kernel: processor sharing, the default.
  const models::Scenario plain = models::load_scenario(kSmall);
  CHECK(plain.kernel.sched.policy == "processor-sharing");
  const models::Scenario cfs = models::load_scenario(kSmall, {"kernel.scheduler=cfs", "kernel.hz=1000"});
  CHECK(cfs.kernel.sched.policy == "cfs");
  CHECK(cfs.kernel.sched.hz == 1000);
  // CFS's re-pick follows the release: 3.13's new slice without one or
  // before 3.15, the slice going on from 3.15 (sched_policy.h).
  CHECK_FALSE(cfs.kernel.sched.repick_keeps_slice);
  const auto repick = [](const char* release) {
    return models::load_scenario(kSmall, {"kernel.scheduler=cfs", std::string("kernel.release=\"") + release + "\""})
        .kernel.sched.repick_keeps_slice;
  };
  CHECK_FALSE(repick("3.13.0-32-generic"));
  CHECK_FALSE(repick("3.14.79"));
  CHECK(repick("3.15.0"));
  CHECK(repick("4.14.0"));
  const models::ConfigError bad = load_error(kSmall, {"kernel.scheduler=bfs"});
  CHECK(mentions(bad, "kernel.scheduler"));
  CHECK(mentions(bad, "\"eevdf\""));
  CHECK(mentions(load_error(kSmall, {"kernel.sched_latency=\"50us\""}), "kernel.sched_latency"));  // below 0.1 ms
  CHECK(mentions(load_error(kSmall, {"kernel.hz=50"}), "kernel.hz"));
  CHECK(mentions(load_error(kSmall, {"cpu.sockets=3"}), "logical_cpus"));  // does not divide into the CPUs
}

TEST_CASE("loader: a range holds a time as written: 100us is 0.1 ms, the floor, as 0.1ms is") {
  // 100 * 1e-6 rounds twice and lands one step below 1e-4: it was refused as
  // "from 0.0001 s ... (got 0.0001 s)" while "0.1ms" loaded.
  for (const char* key : {"sched_latency", "sched_min_granularity", "sched_base_slice"}) {
    INFO(key);
    const std::string k = std::string("kernel.") + key;
    for (const char* v : {"\"100us\"", "\"0.1ms\"", "\"100000ns\"", "\"1e2us\"", "\"0.01e1ms\""}) {
      INFO(v);
      const models::Scenario sc = models::load_scenario(kSmall, {"kernel.scheduler=cfs", k + "=" + v});
      const models::SchedSpec& s = sc.kernel.sched;
      CHECK((key[6] == 'l' ? s.latency_s : key[6] == 'm' ? s.min_granularity_s : s.base_slice_s) == Approx(1e-4));
    }
    CHECK(mentions(load_error(kSmall, {"kernel.scheduler=cfs", k + "=\"99us\""}), k));
  }
  double v = 0, written = 0;
  REQUIRE(models::parse_duration("100us", v, &written));
  CHECK(written == 0.0001);
  CHECK(v == Approx(0.0001));
  REQUIRE(models::parse_duration("3ns", v, &written));
  CHECK(written == 3e-9);
  REQUIRE(models::parse_rate("1kB/s", v, &written));
  CHECK(written == 1e3);
}

TEST_CASE("loader: rates in TB/s and Tbit/s, up to the documented 10TB/s") {
  double v = 0;
  REQUIRE(models::parse_rate("9TB/s", v));
  CHECK(v == 9e12);
  REQUIRE(models::parse_rate("8Tbit/s", v));
  CHECK(v == 1e12);
  REQUIRE(models::parse_rate("10Gbit/s", v));
  CHECK(v == 1.25e9);
  CHECK_NOTHROW(models::load_scenario(kSmall, {"disk.interface=\"9TB/s\""}));
  CHECK(models::load_scenario(kSmall, {"nic.line_rate=\"1Tbit/s\""}).hardware.nic.line_rate_bps == 1e12);
  CHECK(mentions(load_error(kSmall, {"disk.interface=\"11TB/s\""}), "between 1kB/s and 10TB/s"));
}

TEST_CASE("loader: an expectation bound of nan or infinity is refused at load with file, line and key") {
  // nan compares false with every figure: the claim failed (exit 1) at the
  // end of the run instead of being refused as the bad input it is.
  const TempDir dir;
  for (const std::string bound : {"min = nan", "max = nan", "documented = nan", "min = inf", "max = -inf",
                                   "documented = inf"}) {
    INFO(bound);
    const std::string other = bound.rfind("min", 0) == 0 ? "max = 3" : "min = 1";
    const std::string file = dir.file("e.toml", "include = \"" + kSmall +
                                                    "\"\n\n[[expect]]\nmetric = \"server.workers.count\"\n" +
                                                    other + "\n" + bound + "\n");
    const models::ConfigError e = load_error(file);
    CHECK(e.file() == file);
    CHECK(e.line() == 6);
    CHECK(e.key() == "expect." + bound.substr(0, bound.find(' ')));
    CHECK((mentions(e, "not nan") || mentions(e, "must be finite")));
  }
  CHECK_NOTHROW(models::load_scenario(dir.file("e.toml", "include = \"" + kSmall +
                                                           "\"\n\n[[expect]]\nmetric = \"server.workers.count\"\n"
                                                           "min = 1\nmax = 3\n\n")));
}

TEST_CASE("loader: an expectation relative to its own scenario is refused with file, line and key (probe 5)") {
  // The ratio of a figure to itself is 1 whatever the run does: the claim
  // always held ("ok" at 1.000), so it checked nothing.
  const TempDir dir;
  const std::string body = "include = \"" + kSmall + "\"\n\n[[expect]]\nmetric = \"server.workers.count\"\nmin = 0.5\n";
  const std::string file = dir.file("s.toml", body + "relative_to = \"s.toml\"\n");
  const models::ConfigError e = load_error(file);
  CHECK(e.file() == file);
  CHECK(e.line() == 6);
  CHECK(e.key() == "expect.relative_to");
  CHECK(mentions(e, "is this scenario itself"));
  // By another name: a link to it, or a path through its folder.
  REQUIRE(::symlink("s.toml", dir.path("link.toml").c_str()) == 0);
  CHECK(mentions(load_error(dir.file("s.toml", body + "relative_to = \"link.toml\"\n")), "is this scenario itself"));
  CHECK(mentions(load_error(dir.file("s.toml", body + "relative_to = \"./s.toml\"\n")), "is this scenario itself"));
  // Another scenario, the same text or not, is a comparison.
  dir.file("other.toml", body);
  CHECK_NOTHROW(models::load_scenario(dir.file("s.toml", body + "relative_to = \"other.toml\"\n")));
}

TEST_CASE("loader: the drive's old read_expire names its new place, [block] read_expire") {
  const models::ConfigError e = load_error(kSmall, {"disk.read_expire=\"500ms\""});
  CHECK(e.key() == "disk.read_expire");
  CHECK(mentions(e, "[block] read_expire"));
  const models::Scenario sc = models::load_scenario(kSmall, {"block.read_expire=\"250ms\"", "block.scheduler=\"noop\""});
  CHECK(sc.hardware.block.deadline.read_expire_s == 0.25);
  CHECK(sc.hardware.block.scheduler == "noop");
  CHECK(mentions(load_error(kSmall, {"block.scheduler=\"cfq\""}), "\"mq-deadline\""));
  CHECK(mentions(load_error(kSmall, {"md.read_balance=\"4.x+\""}), "\"4.10+\""));
}

// One seed check for clerk and clerk-ui (--seed), the range a scenario's
// `seed` key allows: "-1" read into an unsigned seed wrapped to 2^64-1.
TEST_CASE("limits: a seed is a whole number from 0 to 2^63-1, nothing wraps") {
  using models::limits::seed_problem;
  for (const char* good : {"0", "1", "42", "9223372036854775807", "007"}) {
    INFO(good);
    CHECK(seed_problem(good).empty());
  }
  for (const char* bad : {"", "-1", "+1", " 1", "1.5", "1e3", "x", "9223372036854775808", "18446744073709551615",
                          "99999999999999999999999"}) {
    INFO(bad);
    CHECK(seed_problem(bad) == "must be a whole number from 0 to 9223372036854775807");
  }
}

// toml++ 3.3.0 recursed once per part of a dotted key or table name: a key of
// 50,000 parts overflowed the stack (SIGSEGV). Refused before it parses; the
// deepest a scenario can then nest (16 parts per key, 256 nested values)
// still parses.
TEST_CASE("loader: keys and table names of more than 16 dotted parts are refused, not a stack overflow") {
  const auto parts = [](int n) {
    std::string key = "a";
    for (int i = 1; i < n; ++i) key += ".a";
    return key;
  };
  CHECK(models::toml_guard(parts(16) + " = 1\n").line == 0);
  CHECK(models::toml_guard("[" + parts(16) + "]\nx = 1.5\n").line == 0);
  CHECK(models::toml_guard("x = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5]\n").line == 0);
  CHECK(models::toml_guard("x = 1\n" + parts(17) + " = 1\n").line == 2);
  CHECK(models::toml_guard("[" + parts(17) + "]\n").line == 1);
  CHECK(models::toml_guard("[[" + parts(17) + "]]\n").line == 1);
  CHECK(models::toml_guard("x = {" + parts(17) + " = 1}\n").line == 1);
  CHECK(models::toml_guard("x = {y = 1, " + parts(17) + " = 1}\n").line == 1);
  CHECK(models::toml_guard("x = [{" + parts(17) + " = 1}]\n").line == 1);
  CHECK(models::toml_guard("x = \"" + parts(100) + "\" # " + parts(100) + "\n").line == 0);

  const std::string dir = fs::temp_directory_path() / ("clerk-deep-keys-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir + "/deep.toml") << parts(50000) << " = 1\n";
  CHECK(mentions(load_error(dir + "/deep.toml"), "more than 16 dotted parts"));
  // The deepest nesting the guard lets through: 255 inline tables, each under a 16-part key.
  std::string nested = "[" + parts(16) + "]\nx = ";
  for (int i = 0; i < 255; ++i) nested += "{" + parts(16) + " = ";
  nested += "1" + std::string(255, '}') + "\n";
  std::ofstream(dir + "/nested.toml") << nested;
  CHECK(std::string(load_error(dir + "/nested.toml").what()).find("nested.toml") != std::string::npos);  // refused after toml++ parsed it
  fs::remove_all(dir);
}

// Each level of includes recursed in the loader: a chain of 30,000 files
// overflowed the stack (SIGSEGV). 64 levels load; more are a ConfigError.
TEST_CASE("loader: includes nested more than 64 files deep are a ConfigError, not a stack overflow") {
  const std::string dir = fs::temp_directory_path() / ("clerk-include-chain-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto chain = [&](int files) {
    for (int i = 1; i < files; ++i)
      std::ofstream(dir + "/c" + std::to_string(i) + ".toml") << "include = \"c" << i + 1 << ".toml\"\n";
    std::ofstream(dir + "/c" + std::to_string(files) + ".toml") << "include = \"" << kSmall << "\"\n";
  };
  chain(63);  // 63 files and small-hdd.toml: 64 levels
  CHECK_NOTHROW(models::load_scenario(dir + "/c1.toml"));
  chain(5000);
  CHECK(mentions(load_error(dir + "/c1.toml"), "includes nested more than 64 files deep"));
  fs::remove_all(dir);
}

// "--set clients={}" was accepted and changed nothing (exit 0).
TEST_CASE("loader: --set of an empty inline table is a ConfigError, not a silent no-op") {
  for (const char* o : {"nginx={}", "clients={}", "clients.hot={}"}) {
    INFO(o);
    const models::ConfigError e = load_error(kSmall, {o});
    CHECK(e.file() == "--set");
    CHECK(mentions(e, "sets nothing"));
  }
}

TEST_CASE("loader: 1.21.4 on defers a full chunk's write to the next turn") {
  // ngx_http_write_filter_module.c: ngx_add_timer(wev, 1) through 1.21.3, ngx_posted_next_events from 1.21.4.
  CHECK_FALSE(models::load_scenario(kSmall, {"nginx.version=\"1.21.3\""}).nginx.write_posted_next);
  CHECK(models::load_scenario(kSmall, {"nginx.version=\"1.21.4\""}).nginx.write_posted_next);
  CHECK(models::load_scenario(kSmall, {"nginx.version=\"1.22.1\""}).nginx.write_posted_next);
  CHECK_FALSE(models::load_scenario(kSmall).nginx.write_posted_next);  // small-hdd.toml pins 1.9.0
}

TEST_CASE("loader: worker_connections too few for the listening sockets and the channel names its file and line") {
  const std::string file = kData + "/loader/worker-connections-too-few.toml";
  const models::ConfigError e = load_error(file);
  CHECK(e.key() == "nginx.worker_connections");
  CHECK(e.file() == file);
  CHECK(e.line() == 34);
  CHECK(mentions(e, "1 are not enough for 1 listening socket"));
  // reuseport: NGINX counts the listen directive's socket before cloning it
  // per worker (ngx_event_init_conf before ngx_clone_listening), so 2 suffice.
  tests::check_refused(kSmall, {"nginx.reuseport=true", "nginx.worker_connections=1"}, "nginx.worker_connections",
                       "1 are not enough for 1 listening socket");
  CHECK(models::load_scenario(kSmall, {"nginx.reuseport=true", "nginx.worker_connections=2"}).nginx.worker_connections == 2);
  CHECK(models::load_scenario(kSmall, {"nginx.worker_connections=2"}).nginx.worker_connections == 2);
  CHECK(models::load_scenario(kSmall).nginx.worker_connections == 0);  // not set: not modelled
  tests::check_refused(kSmall, {"nginx.worker_connections=0"}, "nginx.worker_connections", "1");
  tests::check_refused(kSmall, {"nginx.worker_connections=1048577"}, "nginx.worker_connections", "1048576");
}

// Probe finding 7: names clerk realrun writes unquoted into nginx.conf
// (thread_pool NAME, aio threads=NAME, split_clients' values) are plain NGINX
// words; "p;\nevil on" would have added directives to a file run as root.
TEST_CASE("loader: a thread pool name, aio pool or split value that is not one plain NGINX word is refused") {
  const TempDir dir;
  std::ifstream in(kData + "/pools/slow-disk.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string named = "name = \"pool_fast\"";
  REQUIRE(text.find(named) != std::string::npos);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find(named)), '\n'));
  text.replace(text.find(named), named.size(), "name = \"p;\\nevil on\"");
  const std::string file = dir.file("evil-pool.toml", text);
  const models::ConfigError e = load_error(file);
  CHECK(e.file() == file);
  CHECK(e.line() == line);
  CHECK(e.key() == "nginx.thread_pool.name");
  CHECK(mentions(e, "letters, digits"));
  // The single [nginx.thread_pool] table.
  for (const std::string name : {"p;\\nevil on", "a b", "x}", "", "a#b", "q\\\""})
    tests::check_refused(kSmall, {"nginx.thread_pool.name=\"" + name + "\""}, "nginx.thread_pool.name", "letters, digits");
  CHECK(models::load_scenario(kSmall, {"nginx.thread_pool.name=\"my-pool.1\""}).nginx.thread_pool.name == "my-pool.1");
  // aio threads=NAME: a variable may appear, nothing else.
  const std::string pools = kData + "/pools/slow-disk.toml";
  for (const std::string aio : {"threads=pool_$disk;\\nuser root", "threads=a b", "threads=pool_${disk}"})
    tests::check_refused(pools, {"nginx.aio=\"" + aio + "\""}, "nginx.aio", "letters, digits");
  CHECK(models::load_scenario(pools).nginx.aio_threads_pool == "pool_$disk");
  // split_clients' values become part of a pool's name and are written quoted.
  tests::check_refused(pools, {"nginx.split_clients.parts=[[\"50%\", \"fa\\\"st\"], [\"*\", \"slow\"]]"},
                       "nginx.split_clients.parts", "letters, digits");
  tests::check_refused(pools, {"nginx.split_clients.parts=[[\"50%\", \"fast\\n\"], [\"*\", \"slow\"]]"},
                       "nginx.split_clients.parts", "letters, digits");
}

// Hostile-probe finding 15: a name with an escape sequence rewrote the
// terminal that showed the report, and a newline forged a report line.
TEST_CASE("loader: a name or description with a control character is refused, a description's line breaks kept") {
  for (const std::string o : {"name=\"a\\u001b[31mRED\"", "name=\"forged\\nline\"", "name=\"a\\rb\"",
                               "description=\"x\\u0000y\"", "description=\"x\\u001b[2Jy\""}) {
    INFO(o);
    tests::check_refused(kSmall, {o}, o.substr(0, o.find('=')), "control character");
  }
  const models::Scenario sc = models::load_scenario(kSmall, {"description=\"two\\nlines\\tand a tab\""});
  CHECK(sc.description == "two\nlines\tand a tab");
}

// An exponent past what strtol holds saturates; adding the unit's power of
// ten to it overflowed a long (undefined behaviour, UBSan's report).
TEST_CASE("loader: an exponent beyond a long's range is read as 0 or refused, never overflowed") {
  const models::Scenario sc = models::load_scenario(kSmall, {"cpu.request=\"1e-99999999999999999999ns\""});
  CHECK(sc.hardware.costs.request == 0);
  for (const std::string o : {"nic.line_rate=\"1e99999999999999999999GB/s\"", "cpu.request=\"1e99999999999999999999us\""}) {
    INFO(o);
    CHECK(load_error(kSmall, {o}).key() == o.substr(0, o.find('=')));
  }
}

// Hostile-probe findings of 2026-11-28, left open then (issue 19).
TEST_CASE("loader: an include that is a symbolic link loop says so, by file, line and key, not that it is missing") {
  const TempDir dir;
  fs::create_symlink(dir.path("loop.toml"), dir.path("loop.toml"));  // a link to itself: ELOOP
  const std::string scenario = dir.file("s.toml", "# a loop\ninclude = \"loop.toml\"\n");
  const models::ConfigError e = load_error(scenario);
  CHECK(e.file() == scenario);
  CHECK(e.line() == 2);
  CHECK(e.key() == "include");
  CHECK(mentions(e, "a symbolic link loop (Too many levels of symbolic links)"));
  // A preset reached by @hardware/NAME that is a loop is no missing preset.
  fs::create_directories(dir.path("presets/hardware"));
  fs::create_symlink(dir.path("presets/hardware/loop.toml"), dir.path("presets/hardware/loop.toml"));
  const char* old = std::getenv("CLERK_SCENARIOS");
  const std::string kept = old ? old : "";
  setenv("CLERK_SCENARIOS", dir.path("presets").c_str(), 1);
  const std::string preset = dir.file("p.toml", "\ninclude = \"@hardware/loop\"\n");
  const models::ConfigError p = load_error(preset);
  if (old) setenv("CLERK_SCENARIOS", kept.c_str(), 1);
  else unsetenv("CLERK_SCENARIOS");
  CHECK(p.line() == 2);
  CHECK(p.key() == "include");
  CHECK(mentions(p, "a symbolic link loop"));
  CHECK_FALSE(mentions(p, "no hardware profile"));
}

TEST_CASE("loader: a scenario file that begins with a UTF-8 byte order mark loads, its lines numbered as written") {
  const TempDir dir;
  std::ifstream in(kSmall);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string bom = "\xef\xbb\xbf";
  const models::Scenario plain = models::load_scenario(kSmall);
  const models::Scenario marked = models::load_scenario(dir.file("bom.toml", bom + text));
  CHECK(marked.duration_s == plain.duration_s);
  CHECK(marked.nginx.worker_processes == plain.nginx.worker_processes);
  // An included file with one, and an error after one: at its own line.
  dir.file("part.toml", bom + "# a part\nname = \"from the part\"\n");
  CHECK(models::load_scenario(dir.file("with-part.toml", bom + "include = \"part.toml\"\n" + text)).name ==
        "from the part");
  const models::ConfigError e = load_error(dir.file("bad.toml", bom + "# first\n\nname = 5\n" + text));
  CHECK(e.line() == 3);
  CHECK(e.key() == "name");
  // The files read like scenarios (sweep specs, the committed-file index): the same.
  CHECK(models::parse_toml_file(dir.file("spec.toml", bom + "a = 1\n"))["a"].value<int>() == 1);
  // Only at the start: elsewhere it is a non-ASCII character outside a string.
  CHECK(load_error(dir.file("middle.toml", "seed = 1\n" + bom + "\n")).line() == 2);
}

TEST_CASE("loader: a value, key or file name with control characters or stray bytes is shown escaped in the error") {
  const TempDir dir;
  // A NUL cut what() short; an escape sequence rewrote the terminal.
  const models::ConfigError aio = load_error(kSmall, {"nginx.aio=\"x\\u001b[2Jy\\u0000z\""});
  CHECK(aio.key() == "nginx.aio");
  CHECK(mentions(aio, "(got \"x\\x1b[2Jy\\0z\")"));
  CHECK(std::string(aio.what()).find('\x1b') == std::string::npos);
  // A key's name, quoted in the file, and bytes that are not UTF-8 in a file's name.
  std::ifstream in(kSmall);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const models::ConfigError key = load_error(dir.file("k\xff\n.toml", "\"evil\\r\\nclerk: ok\" = 1\n" + text));
  CHECK(key.key() == "evil\r\nclerk: ok");
  CHECK(mentions(key, "k\\xff\\n.toml:1: key 'evil\\r\\nclerk: ok'"));
  CHECK(std::string(key.what()).find('\n') == std::string::npos);
}

TEST_CASE("loader: nginx.thread_pool threads = 0 is refused even with aio off, as NGINX's thread_pool refuses it") {
  const TempDir dir;
  std::ifstream in(kSmall);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(models::load_scenario(kSmall).nginx.aio->name == std::string("off"));
  const std::string threads = "[nginx.thread_pool]\nthreads = 4";
  REQUIRE(text.find(threads) != std::string::npos);
  const int line = 2 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find(threads)), '\n'));
  text.replace(text.find(threads), threads.size(), "[nginx.thread_pool]\nthreads = 0");
  const models::ConfigError e = load_error(dir.file("zero.toml", text));
  CHECK(e.line() == line);
  CHECK(e.key() == "nginx.thread_pool.threads");
}

// clerk refuses an output that is one of these files (issue 19: `run --json`
// onto an included file overwrote it), and a sweep hashes their bytes.
TEST_CASE("loader: a scenario lists every file it read once, the top file first, includes depth first") {
  const TempDir dir;
  const std::string top = dir.file("s.toml", "include = [\"a.toml\", \"b.toml\", \"a.toml\"]\nname = \"s\"\n");
  dir.file("a.toml", "include = \"c.toml\"\n");
  dir.file("c.toml", "include = \"" + kSmall + "\"\n");
  dir.file("b.toml", "[nginx]\ninclude = \"n.toml\"\n");  // an include inside a table
  dir.file("n.toml", "worker_processes = 2\n");
  const models::Scenario sc = models::load_scenario(top);
  CHECK(sc.files == std::vector<std::string>{top, dir.path("a.toml"), dir.path("c.toml"), kSmall, dir.path("b.toml"),
                                             dir.path("n.toml")});
  CHECK(models::load_scenario(kSmall).files == std::vector<std::string>{kSmall});
}

// Probe 6, finding 1: --hardware on a scenario whose profile is not included
// from a folder named `hardware` (or that writes its machine inline) replaced
// nothing, and the run was the scenario's own, byte for byte.
TEST_CASE("loader: --hardware that replaces no included profile is a ConfigError naming the scenario") {
  const TempDir dir;
  // The user's own copies of the presets' profiles, each tree whole (a
  // profile includes files beside it): one in a folder named otherwise.
  const fs::path presets = fs::path(models::presets_dir()) / "hardware";
  fs::copy(presets, dir.path("profiles"), fs::copy_options::recursive);
  fs::copy(presets, dir.path("hardware"), fs::copy_options::recursive);
  const std::string other = dir.path("hardware/edge-sata-ssd.toml");
  std::ifstream s(kData + "/small-preset.toml", std::ios::binary);
  std::string scenario((std::istreambuf_iterator<char>(s)), std::istreambuf_iterator<char>());
  const std::string from = "include = \"@hardware/edge-sata-ssd\"";
  REQUIRE(scenario.find(from) != std::string::npos);

  SECTION("a profile from a folder named otherwise") {
    std::string text = scenario;
    text.replace(text.find(from), from.size(), "include = \"profiles/edge-sata-ssd.toml\"");
    const std::string file = dir.file("mine.toml", text);
    CHECK_NOTHROW(models::load_scenario(file));
    try {
      models::load_scenario(file, {}, other);
      FAIL("loaded with a --hardware that replaced nothing");
    } catch (const models::ConfigError& e) {
      CHECK(e.file() == file);
      CHECK(e.key() == "include");
      CHECK(mentions(e, "includes no hardware profile"));
    }
  }
  SECTION("a machine written inline") {
    try {
      models::load_scenario(kSmall, {}, other);
      FAIL("loaded with a --hardware that replaced nothing");
    } catch (const models::ConfigError& e) {
      CHECK(e.file() == kSmall);
      CHECK(mentions(e, "includes no hardware profile"));
    }
  }
  SECTION("a profile from a folder named hardware is replaced") {
    const std::string file = dir.file("preset.toml", scenario);
    CHECK_NOTHROW(models::load_scenario(file, {}, other));
  }
  SECTION("two files from folders named hardware would both be replaced") {
    // The probe's case: a client file kept under hardware/ was swapped for
    // the profile too, and the run refused for a reason it did not name.
    dir.file("hardware/clients.toml", "[clients.web]\nthreads = 1\nconnections = 4\n");
    std::string text = scenario;
    text.replace(text.find(from), from.size(), "include = [\"hardware/nginx-2015-raid10.toml\", \"hardware/clients.toml\"]");
    const std::string file = dir.file("two.toml", text);
    try {
      models::load_scenario(file, {}, other);
      FAIL("loaded with a --hardware that replaced two files");
    } catch (const models::ConfigError& e) {
      CHECK(e.file() == file);
      CHECK(e.key() == "include");
      CHECK(mentions(e, "would replace both"));
      CHECK(mentions(e, "clients.toml"));
    }
  }
}

// Probe 7, finding 2: the rule compared the replaced files' names, not the
// files, and judged every folder of the path the user typed: one profile
// reached by two names was "two different files", and a scenario kept
// under (or named through) a folder called hardware had no profile.
TEST_CASE("loader: --hardware replaces one profile file however it is named, wherever the scenario is kept") {
  const TempDir dir;
  const fs::path presets = fs::path(models::presets_dir()) / "hardware";
  fs::create_directories(dir.path("lab/hardware"));
  fs::copy(presets, dir.path("lab/hardware"), fs::copy_options::recursive);
  fs::copy(presets, dir.path("other"), fs::copy_options::recursive);
  const std::string other = dir.path("other/edge-sata-ssd.toml");
  std::ifstream s(kData + "/small-preset.toml", std::ios::binary);
  std::string scenario((std::istreambuf_iterator<char>(s)), std::istreambuf_iterator<char>());
  const std::string from = "include = \"@hardware/edge-sata-ssd\"";
  REQUIRE(scenario.find(from) != std::string::npos);
  const auto with_include = [&](const std::string& include) {
    std::string text = scenario;
    text.replace(text.find(from), from.size(), "include = " + include);
    return text;
  };
  fs::create_directories(dir.path("lab/sub"));
  fs::create_directories(dir.path("lab/hardware/proj"));
  // Each load below that does not throw replaced exactly one file: none is
  // "includes no hardware profile", two different ones "would replace both".

  SECTION("by a relative and an absolute name") {
    dir.file("lab/sub/abs.toml", "include = \"" + dir.path("lab/hardware/edge-sata-ssd.toml") + "\"\n");
    const std::string file =
        dir.file("lab/x.toml", with_include("[\"hardware/edge-sata-ssd.toml\", \"sub/abs.toml\"]"));
    CHECK_NOTHROW(models::load_scenario(file, {}, other));
  }
  SECTION("through a symbolic link") {
    fs::create_symlink("edge-sata-ssd.toml", dir.path("lab/hardware/link.toml"));
    const std::string file = dir.file(
        "lab/y.toml", with_include("[\"hardware/edge-sata-ssd.toml\", \"hardware/link.toml\"]"));
    CHECK_NOTHROW(models::load_scenario(file, {}, other));
  }
  SECTION("a scenario named through a folder called hardware") {
    const std::string file = dir.file("lab/z.toml", with_include("\"hardware/edge-sata-ssd.toml\""));
    CHECK_NOTHROW(models::load_scenario(dir.path("lab/hardware/../z.toml"), {}, other));
    CHECK_NOTHROW(models::load_scenario(file, {}, other));
  }
  SECTION("a scenario kept under a folder called hardware") {
    const std::string file = dir.file("lab/hardware/proj/w.toml", with_include("\"../edge-sata-ssd.toml\""));
    // Its include names no folder 'hardware': no profile, as in any other folder.
    try {
      models::load_scenario(file, {}, other);
      FAIL("loaded with a --hardware that replaced nothing");
    } catch (const models::ConfigError& e) {
      CHECK(mentions(e, "includes no hardware profile"));
    }
    const std::string named = dir.file("lab/hardware/proj/v.toml", with_include("\"../../hardware/edge-sata-ssd.toml\""));
    CHECK_NOTHROW(models::load_scenario(named, {}, other));
  }
  SECTION("two different files are still refused, named as written") {
    const std::string file = dir.file(
        "lab/t.toml", with_include("[\"hardware/edge-sata-ssd.toml\", \"hardware/nginx-2015-raid10.toml\"]"));
    try {
      models::load_scenario(file, {}, other);
      FAIL("loaded with a --hardware that replaced two files");
    } catch (const models::ConfigError& e) {
      CHECK(mentions(e, "would replace both"));
      CHECK(mentions(e, "hardware/nginx-2015-raid10.toml"));
    }
  }
}

// Probe 8, M7: a value or key name megabytes long was echoed whole in the
// error (a 2 MB path gave 2 MB on stderr). It is cut to an excerpt with its
// length; the message still names the file, the line and the key.
TEST_CASE("loader: an over-long value or key is shown cut, with its length") {
  std::ifstream in(kSmall, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TempDir dir;
  const auto lines = [](const std::string& t) { return std::to_string(std::count(t.begin(), t.end(), '\n') + 1); };

  SECTION("a 2 MB path") {
    const std::string head = text + "\n[clients.longpath]\nthreads = 2\nconnections = 4\n";
    const std::string file = dir.file("long-path.toml", head + "path = \"/" + std::string(2000000, 'a') + "\"\n");
    const models::ConfigError e = load_error(file);
    INFO(std::string(e.what()).substr(0, 400));
    CHECK(e.key() == "clients.longpath.path");
    CHECK(std::string(e.what()).size() < 2000);
    CHECK(mentions(e, file + ":" + lines(head) + ": key 'clients.longpath.path': \"/aaaa"));
    CHECK(mentions(e, "(2000003 bytes)"));  // the quotes and the slash with it
    CHECK(mentions(e, "is not a file of the dataset"));
  }
  SECTION("a 2 MB value with spaces: the message's middle is cut") {
    std::string spaced;
    for (int i = 0; i < 1000000; ++i) spaced += "a ";
    const std::string head = text + "\n[clients.longpath]\nthreads = 2\nconnections = 4\n";
    const std::string file = dir.file("long-spaced.toml", head + "path = \"/" + spaced + "\"\n");
    const models::ConfigError e = load_error(file);
    CHECK(e.key() == "clients.longpath.path");
    CHECK(std::string(e.what()).size() < 5000);
    CHECK(mentions(e, file + ":" + lines(head) + ": key 'clients.longpath.path': \"/a a"));
    CHECK(mentions(e, "bytes left out)"));
    CHECK(mentions(e, "is not a file of the dataset"));
  }
  SECTION("a 3 MB unknown key") {
    const std::string key(3000000, 'k');
    const std::string file = dir.file("long-key.toml", key + " = 1\n" + text);
    const models::ConfigError e = load_error(file);
    INFO(std::string(e.what()).substr(0, 400));
    CHECK(e.key() == key);  // key() stays whole
    CHECK(std::string(e.what()).size() < 2000);
    CHECK(mentions(e, file + ":1: key 'kkkk"));
    CHECK(mentions(e, "...(3000000 bytes)..." + std::string(40, 'k') + "': unknown key"));
  }
}
