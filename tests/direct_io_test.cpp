// directio (models/os/direct_io.h): the rounding of O_DIRECT reads, reads
// that pass the page cache by, and whole runs of a hot file.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "models/os/direct_io.h"
#include "models/os/page_cache.h"
#include "tests/whole_run.h"

namespace {

const std::string kData = CLERK_TEST_DATA;

struct RecordingDevice : models::BlockDevice {
  struct Read {
    std::uint64_t offset, length;
    models::IoListener* listener;
    std::uint64_t tag;
  };
  std::vector<Read> reads;
  void submit_read(std::uint64_t o, std::uint64_t l, models::IoListener* who, std::uint64_t tag) override {
    reads.push_back({o, l, who, tag});
  }
  std::uint64_t capacity() const override { return 1ULL << 40; }
  std::uint64_t readahead_bytes() const override { return 128 * 1024; }
  models::DiskStats stats() const override { return {}; }
};

struct CountingWaiter : models::PageWaiter {
  int woken = 0;
  void on_page_ready(std::uint64_t) override { ++woken; }
};

}  // namespace

TEST_CASE("an O_DIRECT extent is rounded out to the alignment at both ends") {
  using models::align_out;
  CHECK(align_out(0, 32768, 512).offset == 0);
  CHECK(align_out(0, 32768, 512).length == 32768);
  CHECK(align_out(100, 200, 512).offset == 0);
  CHECK(align_out(100, 200, 512).length == 512);
  CHECK(align_out(1000, 100, 512).offset == 512);
  CHECK(align_out(1000, 100, 512).length == 1024);  // 512-1100 spans two blocks
  CHECK(align_out(4096, 4097, 4096).offset == 4096);
  CHECK(align_out(4096, 4097, 4096).length == 8192);
  CHECK(align_out(5000, 1, 4096).offset == 4096);
  CHECK(align_out(5000, 1, 4096).length == 4096);
  CHECK(align_out(12288, 0, 4096).length == 0);
}

TEST_CASE("O_DIRECT reads of the same bytes go to the device every time and fill nothing") {
  RecordingDevice dev;
  models::PageCache cache(dev, {1 << 20, 64 * 1024, 1 << 20});
  const auto file = cache.add_file(1 << 30, 256 * 1024);
  CountingWaiter w;
  for (int i = 0; i < 3; ++i) {
    cache.read_direct(file, 0, 32768, &w, 0);
    REQUIRE(dev.reads.size() == static_cast<std::size_t>(i + 1));
    dev.reads.back().listener->on_io_done(dev.reads.back().tag);
  }
  CHECK(w.woken == 3);
  for (const auto& r : dev.reads) {
    CHECK(r.offset == (1ULL << 30));
    CHECK(r.length == 32768);
  }
  const models::PageCacheStats s = cache.stats();
  CHECK(s.direct_reads == 3);
  CHECK(s.direct_bytes == 3 * 32768);
  CHECK(s.lookups == 0);
  CHECK(s.hits == 0);
  CHECK(s.resident_units == 0);
  CHECK(s.readahead_windows == 0);
  CHECK_FALSE(cache.cached(file, 0));
}

TEST_CASE("directio: the hot file is read from the disk for every response, a buffer a read") {
  // One worker, one connection, one 1 MiB file; NGINX 1.9.0's output_buffers 1 32k.
  const std::vector<std::string> one_mb = {"dataset.file_size=\"1m\""};
  auto with = one_mb;
  with.push_back("nginx.directio=\"512k\"");
  const models::RunResult cached = tests::run_file(kData + "/stages-one-hot.toml", one_mb, 5);
  const models::RunResult direct = tests::run_file(kData + "/stages-one-hot.toml", with, 5);
  REQUIRE(direct.server_responses > 0);
  CHECK(direct.cache_lookups == 0);  // no page cache lookup: 1 MiB is 32 whole buffers, no tail
  // Every response's 32 reads, give or take the responses under way at
  // the window's two ends.
  CHECK(direct.direct_reads >= 32 * (direct.server_responses - 1));
  CHECK(direct.direct_reads <= 32 * (direct.server_responses + 1));
  CHECK(direct.direct_bytes == 32768 * direct.direct_reads);
  // Without directio the file is read once and served from the page cache after.
  CHECK(cached.direct_reads == 0);
  CHECK(cached.cache_hit_ratio > 0.99);
  CHECK(cached.disk_reads * 10 < direct.disk_reads);
  // With output_buffers 2 32k the count is the same: one read per buffer.
  with.push_back("nginx.output_buffers=\"2 32k\"");
  const models::RunResult two = tests::run_file(kData + "/stages-one-hot.toml", with, 5);
  CHECK(two.direct_reads >= 32 * (two.server_responses - 1));
  CHECK(two.direct_reads <= 32 * (two.server_responses + 1));
  with.back() = "nginx.output_buffers=\"1 128k\"";
  const models::RunResult big = tests::run_file(kData + "/stages-one-hot.toml", with, 5);
  CHECK(big.direct_reads >= 8 * (big.server_responses - 1));
  CHECK(big.direct_reads <= 8 * (big.server_responses + 1));
}

TEST_CASE("directio: a file below the threshold is served through the page cache as without it") {
  const std::vector<std::string> one_mb = {"dataset.file_size=\"1m\""};
  auto above = one_mb;
  above.push_back("nginx.directio=\"2m\"");
  const models::RunResult off = tests::run_file(kData + "/stages-one-hot.toml", one_mb, 5);
  const models::RunResult below = tests::run_file(kData + "/stages-one-hot.toml", above, 5);
  CHECK(below.direct_reads == 0);
  CHECK(below.server_responses == off.server_responses);
  CHECK(below.cache_lookups == off.cache_lookups);
  CHECK(below.disk_reads == off.disk_reads);
}

TEST_CASE("directio: a tail shorter than a buffer is read through the page cache") {
  // 48 KiB: one O_DIRECT buffer of 32 KiB, then 16 KiB with O_DIRECT off
  // (ngx_output_chain_align_file_buf), which is cached after the first response.
  const models::RunResult r =
      tests::run_file(kData + "/stages-one-hot.toml", {"dataset.file_size=\"48k\"", "nginx.directio=\"16k\""}, 5);
  REQUIRE(r.server_responses > 2);
  CHECK(r.direct_reads + 1 >= r.server_responses);
  CHECK(r.direct_reads <= r.server_responses + 1);
  CHECK(r.direct_bytes == 32768 * r.direct_reads);
  CHECK(r.cache_lookups >= r.server_responses);
  CHECK(r.cache_hit_ratio > 0.9);
}

TEST_CASE("directio with aio threads and aio_open: the reads go to the pool, and the worker never waits for the disk") {
  const models::RunResult r = tests::run_file(
      kData + "/stages-one-hot.toml", {"dataset.file_size=\"1m\"", "nginx.directio=\"512k\"", "nginx.aio=threads", "nginx.aio_open=true"}, 5);
  REQUIRE(r.server_responses > 0);
  CHECK(r.direct_reads >= 32 * (r.server_responses - 1));
  CHECK(r.pool_disk_wait > 0);
  CHECK(r.workers_disk_wait == 0);
}

TEST_CASE("directio, output_buffers and open_file_cache: bad values name their key") {
  auto fails = [](const std::vector<std::string>& overrides, const std::string& key, const std::string& text) {
    try {
      models::load_scenario(kData + "/small-hdd.toml", overrides);
      FAIL("no error for " << key);
    } catch (const models::ConfigError& e) {
      CHECK(e.key() == key);
      CHECK(std::string(e.what()).find(text) != std::string::npos);
    }
  };
  fails({"nginx.directio=\"often\""}, "nginx.directio", "must be \"off\" or a size");
  fails({"nginx.directio_alignment=1000"}, "nginx.directio_alignment", "power of two");
  fails({"nginx.directio_alignment=256"}, "nginx.directio_alignment", "at least 512");
  fails({"nginx.output_buffers=\"2\""}, "nginx.output_buffers", "NUMBER SIZE");
  fails({"nginx.output_buffers=\"0 32k\""}, "nginx.output_buffers", "NUMBER SIZE");
  fails({"nginx.open_file_cache=\"inactive=20s\""}, "nginx.open_file_cache", "must have max=N");
  fails({"nginx.open_file_cache=\"max=10 size=3\""}, "nginx.open_file_cache", "size=3");
  fails({"nginx.open_file_cache=\"max=0\""}, "nginx.open_file_cache", "max=N");
  fails({"nginx.open_file_cache_valid=\"soon\""}, "nginx.open_file_cache_valid", "must be a time");
  fails({"nginx.aio=on", "nginx.directio=\"4m\""}, "nginx.aio", "not modelled yet");
  // Defaults: off, 512, the release's buffers (1.9.0: 1 32k; 1.9.5 on: 2 32k).
  const models::Scenario sc = models::load_scenario(kData + "/small-hdd.toml");
  CHECK(sc.nginx.directio == 0);
  CHECK(sc.nginx.directio_alignment == 512);
  CHECK(sc.nginx.output_buffers_number == 1);
  CHECK(sc.nginx.output_buffers_size == 32768);
  CHECK_FALSE(sc.nginx.open_file_cache.enabled);
  CHECK(sc.nginx.open_file_cache.valid_s == 60);
  CHECK(sc.nginx.open_file_cache.min_uses == 1);
  const models::Scenario newer = models::load_scenario(kData + "/small-hdd.toml", {"nginx.version=\"1.9.5\""});
  CHECK(newer.nginx.output_buffers_number == 2);
  const models::Scenario set = models::load_scenario(
      kData + "/small-hdd.toml", {"nginx.open_file_cache=\"max=1000 inactive=20s\"", "nginx.directio=\"4m\""});
  CHECK(set.nginx.open_file_cache.enabled);
  CHECK(set.nginx.open_file_cache.max == 1000);
  CHECK(set.nginx.open_file_cache.inactive_s == 20);
  CHECK(set.nginx.directio == 4u << 20);
}

TEST_CASE("directio: output_buffers not a multiple of directio_alignment is refused at its line") {
  // O_DIRECT reads of a length that is not a multiple of the logical block
  // size fail with EINVAL (open(2)); NGINX reads a buffer's size at a time.
  std::ifstream in(kData + "/small-hdd.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string toml = text.str();
  const std::string at = "aio = \"off\"\n";
  REQUIRE(toml.find(at) != std::string::npos);
  toml.replace(toml.find(at), at.size(), at + "directio = \"4m\"\noutput_buffers = \"2 1000\"\n");
  const std::size_t line = static_cast<std::size_t>(std::count(toml.begin(), toml.begin() + toml.find("output_buffers"), '\n')) + 1;
  char dir[] = "/tmp/clerk-directio-test-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string file = std::string(dir) + "/s.toml";
  std::ofstream(file) << toml;
  try {
    models::load_scenario(file);
    FAIL("no error for output_buffers 2 1000 with directio");
  } catch (const models::ConfigError& e) {
    CHECK(e.file() == file);
    CHECK(e.line() == static_cast<int>(line));
    CHECK(e.key() == "nginx.output_buffers");
    CHECK(std::string(e.what()).find("multiple of directio_alignment") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
  auto key_of = [](const std::vector<std::string>& overrides) {
    try {
      models::load_scenario(kData + "/small-hdd.toml", overrides);
    } catch (const models::ConfigError& e) {
      return e.key();
    }
    return std::string("no error");
  };
  // The release's 32k buffers with a 64k alignment: directio_alignment is named.
  CHECK(key_of({"nginx.directio=\"4m\"", "nginx.directio_alignment=\"64k\""}) == "nginx.directio_alignment");
  CHECK(key_of({"nginx.directio=\"4m\"", "nginx.directio_alignment=\"64k\"", "nginx.output_buffers=\"1 128k\""}) ==
        "no error");
  CHECK(key_of({"nginx.directio=\"4m\"", "nginx.output_buffers=\"2 33000\""}) == "nginx.output_buffers");
  // Without directio the buffers are read through the page cache: any size.
  CHECK(key_of({"nginx.output_buffers=\"2 1000\""}) == "no error");
}
