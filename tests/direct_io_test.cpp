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
#include "models/hardware/queued_device.h"
#include "models/os/page_cache.h"
#include "models/os/sendfile.h"
#include "models/server/native_aio.h"
#include "tests/fake_disk.h"
#include "tests/load_error.h"
#include "tests/whole_run.h"

namespace {

const std::string kData = CLERK_TEST_DATA;

using RecordingDevice = tests::FakeDisk;  // reads completed by hand, each from reads[i]

struct CountingWaiter : models::PageWaiter {
  int woken = 0;
  void on_page_ready(std::uint64_t) override { ++woken; }
};

// The worker's time in D waiting for file data (not open()'s path walk).
double data_wait(const models::RunResult& r) {
  return r.workers_blocked_by_cause[static_cast<std::size_t>(models::WaitCause::kDiskData)];
}

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
    tests::check_refused(kData + "/small-hdd.toml", overrides, key, text);
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
  fails({"nginx.worker_aio_requests=0"}, "nginx.worker_aio_requests", "");
  fails({"nginx.worker_aio_requests=65537"}, "nginx.worker_aio_requests", "");
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
  const models::ConfigError e = tests::load_error(file);
  CHECK(e.file() == file);
  CHECK(e.line() == static_cast<int>(line));
  CHECK(e.key() == "nginx.output_buffers");
  CHECK(std::string(e.what()).find("multiple of directio_alignment") != std::string::npos);
  std::filesystem::remove_all(dir);
  auto key_of = [](const std::vector<std::string>& overrides) {
    return tests::load_error(kData + "/small-hdd.toml", overrides).key();
  };
  // The release's 32k buffers with a 64k alignment: directio_alignment is named.
  CHECK(key_of({"nginx.directio=\"4m\"", "nginx.directio_alignment=\"64k\""}) == "nginx.directio_alignment");
  CHECK_NOTHROW(models::load_scenario(kData + "/small-hdd.toml", {"nginx.directio=\"4m\"", "nginx.directio_alignment=\"64k\"",
                                                                   "nginx.output_buffers=\"1 128k\""}));
  CHECK(key_of({"nginx.directio=\"4m\"", "nginx.output_buffers=\"2 33000\""}) == "nginx.output_buffers");
  // Without directio the buffers are read through the page cache: any size.
  CHECK_NOTHROW(models::load_scenario(kData + "/small-hdd.toml", {"nginx.output_buffers=\"2 1000\""}));
}

TEST_CASE("an O_DIRECT read longer than max_sectors_kb is split into requests of that size, as a buffered read is") {
  // Linux 3.13's do_direct_IO builds bios with bio_add_page, which stops at
  // queue_max_sectors (later kernels split in blk_queue_split /
  // bio_split_to_limits by the same limit): the block queue sees
  // max_sectors_kb requests (block_queue.h splits whatever it is given).
  RecordingDevice drive;
  sim::Time now = 0;
  models::BlockQueueSpec spec;
  spec.max_sectors_kb = 128;
  models::QueuedDevice queue(drive, spec, [&now] { return now; });
  models::PageCache cache(queue, {64 << 20, 64 * 1024, 1 << 20});
  const auto file = cache.add_file(0, 4 << 20);
  CountingWaiter w;
  cache.read_direct(file, 0, 1 << 20, &w, 0);
  REQUIRE(drive.reads.size() == 8);  // 1 MiB / 128 KiB, all issued (31 tags)
  for (std::size_t i = 0; i < drive.reads.size(); ++i) {
    CHECK(drive.reads[i].offset == i * 128 * 1024);
    CHECK(drive.reads[i].length == 128 * 1024);
  }
  for (std::size_t i = 0; i + 1 < drive.reads.size(); ++i) drive.reads[i].listener->on_io_done(drive.reads[i].tag);
  CHECK(w.woken == 0);  // the read is done when its last piece is
  drive.reads.back().listener->on_io_done(drive.reads.back().tag);
  CHECK(w.woken == 1);
  // A read within the limit is one request.
  cache.read_direct(file, 1 << 20, 96 * 1024, &w, 0);
  CHECK(drive.reads.size() == 9);
  CHECK(drive.reads.back().length == 96 * 1024);
}

TEST_CASE("directio with aio threads: one pool task reads one output buffer, and the worker writes") {
  // ngx_output_chain_copy_buf -> ngx_thread_read: a task per buffer, so a
  // response of a 1 MiB file is ceil(1 MiB / 32 KiB) = 32 tasks, and one of
  // 48 KiB two (32 KiB with O_DIRECT, then its 16 KiB tail).
  const models::RunResult mb = tests::run_file(
      kData + "/stages-one-hot.toml", {"dataset.file_size=\"1m\"", "nginx.directio=\"512k\"", "nginx.aio=threads"}, 5);
  REQUIRE(mb.server_responses > 2);
  CHECK(mb.pool_tasks >= 32 * (mb.server_responses - 1));
  CHECK(mb.pool_tasks <= 32 * (mb.server_responses + 1));
  CHECK(data_wait(mb) == 0);
  const models::RunResult tail = tests::run_file(
      kData + "/stages-one-hot.toml", {"dataset.file_size=\"48k\"", "nginx.directio=\"16k\"", "nginx.aio=threads"}, 5);
  REQUIRE(tail.server_responses > 2);
  CHECK(tail.pool_tasks >= 2 * (tail.server_responses - 1));
  CHECK(tail.pool_tasks <= 2 * (tail.server_responses + 1));
  CHECK(data_wait(tail) == 0);
  const models::RunResult big = tests::run_file(kData + "/stages-one-hot.toml",
                                                {"dataset.file_size=\"1m\"", "nginx.directio=\"512k\"",
                                                 "nginx.aio=threads", "nginx.output_buffers=\"2 128k\""},
                                                5);
  CHECK(big.pool_tasks >= 8 * (big.server_responses - 1));
  CHECK(big.pool_tasks <= 8 * (big.server_responses + 1));
}

TEST_CASE("directio: sendfile_max_chunk limits each write, not the response, so 2 x 32 KiB writes never wait for its timer") {
  // stages-one-hot pins NGINX 1.9.0 (the 1 ms timer) and sendfile_max_chunk 512k.
  const std::vector<std::string> base = {"dataset.file_size=\"1m\"", "nginx.directio=\"512k\""};
  auto none = base;
  none.push_back("nginx.sendfile_max_chunk=0");
  auto small = base;
  small.push_back("nginx.sendfile_max_chunk=\"16k\"");
  const models::RunResult limited = tests::run_file(kData + "/stages-one-hot.toml", base, 5);
  const models::RunResult unlimited = tests::run_file(kData + "/stages-one-hot.toml", none, 5);
  REQUIRE(limited.server_responses > 2);
  // A write carries at most one 32 KiB buffer: 512k never binds, the runs are the same.
  CHECK(limited.server_responses == unlimited.server_responses);
  CHECK(limited.direct_reads == unlimited.direct_reads);
  // 16k: each write of 16 KiB (more than 16k less two pages) waits for the
  // 1 ms timer: 64 writes a response, so at least 64 ms each.
  const models::RunResult timed = tests::run_file(kData + "/stages-one-hot.toml", small, 5);
  REQUIRE(timed.server_responses > 0);
  CHECK(timed.server_responses <= 5 * 1000 / 64 + 1);
  CHECK(timed.server_responses < unlimited.server_responses);
}

namespace {

struct AioRecorder : models::AioOwner {
  std::vector<std::uint32_t> done;
  void on_aio_done(std::uint32_t conn) override { done.push_back(conn); }
};

}  // namespace

TEST_CASE("aio on: io_submit takes worker_aio_requests reads in flight, and says EAGAIN to one more") {
  RecordingDevice dev;
  models::PageCache cache(dev, {1 << 20, 64 * 1024, 1 << 20});
  const auto file = cache.add_file(0, 4 << 20);
  AioRecorder owner;
  models::NativeAio aio(cache, 2, owner);
  // A pass stopped before reading 16 KiB after the 32 KiB its buffers hold,
  // at byte 1000 of the file: the read is rounded out to 4 KiB blocks.
  std::uint64_t pending = 32768;
  models::DirectReadCall call;
  call.file = file;
  call.pending = &pending;
  call.position = 1000;
  call.reading = 16384;
  call.alignment = 4096;
  CHECK(aio.submit(call, 7));
  REQUIRE(dev.reads.size() == 1);
  CHECK(dev.reads[0].offset == 32768);                  // 33768 rounded down
  CHECK(dev.reads[0].length == 20480);                  // to 50152 rounded up: 5 blocks
  CHECK(aio.submit(call, 8));
  CHECK(aio.in_flight() == 2);
  CHECK_FALSE(aio.submit(call, 9));  // EAGAIN: the worker reads it itself (ngx_read_file)
  CHECK(dev.reads.size() == 2);
  CHECK(aio.stats().eagain == 1);
  CHECK(aio.stats().submitted == 2);
  // A completion (the eventfd) names its connection and frees its place.
  dev.reads[1].listener->on_io_done(dev.reads[1].tag);
  CHECK(owner.done == std::vector<std::uint32_t>{8});
  CHECK(aio.in_flight() == 1);
  CHECK(aio.submit(call, 9));
  CHECK(aio.stats().max_in_flight == 2);
  CHECK(cache.stats().lookups == 0);  // O_DIRECT: no page cache lookup
}

TEST_CASE("aio on: directio files are read without the worker blocking, smaller files still block it") {
  const std::vector<std::string> aio_on = {"nginx.aio=\"on\"", "nginx.directio=\"512k\""};
  auto big = aio_on;
  big.push_back("dataset.file_size=\"1m\"");
  const models::RunResult direct = tests::run_file(kData + "/stages-one-hot.toml", big, 5);
  REQUIRE(direct.server_responses > 2);
  CHECK(direct.direct_reads >= 32 * (direct.server_responses - 1));  // every response from the disk
  CHECK(data_wait(direct) == 0);                                     // and never in D for it
  CHECK(direct.pool_tasks == 0);
  // 64 KiB is below directio: sendfile() in the worker, which blocks on its first miss.
  const models::RunResult small = tests::run_file(kData + "/stages-one-hot.toml", aio_on, 5);
  REQUIRE(small.server_responses > 2);
  CHECK(small.direct_reads == 0);
  CHECK(data_wait(small) > 0);
  // Without directio, aio on is aio off.
  const models::RunResult off = tests::run_file(kData + "/stages-one-hot.toml", {}, 5);
  const models::RunResult on = tests::run_file(kData + "/stages-one-hot.toml", {"nginx.aio=\"on\""}, 5);
  CHECK(on.server_responses == off.server_responses);
  CHECK(on.workers_disk_wait == off.workers_disk_wait);
}

TEST_CASE("aio on: past worker_aio_requests reads in flight the worker reads, blocking") {
  // Eight connections on one worker, each with one read in flight at most.
  std::vector<std::string> o = {"nginx.aio=\"on\"", "nginx.directio=\"512k\"", "dataset.file_size=\"1m\"",
                                "clients.hot.connections=8"};
  const models::RunResult roomy = tests::run_file(kData + "/stages-one-hot.toml", o, 5);
  REQUIRE(roomy.server_responses > 2);
  CHECK(data_wait(roomy) == 0);
  o.push_back("nginx.worker_aio_requests=1");
  const models::RunResult tight = tests::run_file(kData + "/stages-one-hot.toml", o, 5);
  REQUIRE(tight.server_responses > 2);
  CHECK(data_wait(tight) > 0);  // io_submit EAGAIN -> ngx_read_file() in the worker
  // 32 reads a response, give or take the eight responses under way at each end of the window.
  CHECK(tight.direct_reads >= 32 * (tight.server_responses - 8));
  CHECK(tight.direct_reads <= 32 * (tight.server_responses + 8));
}

TEST_CASE("FreeBSD's sendfile(SF_NODISKIO) sends the resident pages and stops at the first other one, reading nothing") {
  RecordingDevice dev;
  models::PageCache cache(dev, {1 << 20, 64 * 1024, 1 << 20});
  const auto file = cache.add_file(0, 256 * 1024);
  models::KernelSpec kernel;
  models::ReadaheadState ra;
  CountingWaiter w;
  // Unit 0 resident: read it once and let the device finish.
  REQUIRE(cache.read(file, 0, 1, ra, &w, 0) == models::PageCache::Result::kWait);
  for (std::size_t i = 0; i < dev.reads.size(); ++i) dev.reads[i].listener->on_io_done(dev.reads[i].tag);
  const std::size_t reads_before = dev.reads.size();
  const bool unit1 = cache.cached(file, 1);
  double queued = 0;
  models::SendfileCall call{file, 0, 0, 256 * 1024, 0, &ra, false, 0};
  call.nodiskio = true;
  const bool done = models::sendfile_pieces(
      cache, kernel, call, &w, 0, [&](std::uint32_t) { return queued; },
      [&](std::uint32_t, double bytes) { queued += bytes; });
  CHECK(done);               // never waits: the call returns
  CHECK(call.busy);          // EBUSY at the first unit not resident
  CHECK_FALSE(call.waiting);
  const std::uint64_t resident = unit1 ? 2 : 1;
  CHECK(call.sent == resident * 64 * 1024);
  // Without it the same call waits for the page (Linux, or FreeBSD without aio before 1.21.5).
  CountingWaiter w2;
  models::SendfileCall plain{file, 0, call.position, 256 * 1024, 0, &ra, false, 0};
  CHECK_FALSE(models::sendfile_pieces(
      cache, kernel, plain, &w2, 0, [&](std::uint32_t) { return 0.0; }, [&](std::uint32_t, double) {}));
  // SF_NODISKIO waited for no read: when every read is done only the plain
  // call's waiter is woken. (A hit may start an asynchronous readahead, as
  // any read of a cached page does; nobody waits for it.)
  const int woken = w.woken;
  for (std::size_t i = reads_before; i < dev.reads.size(); ++i) dev.reads[i].listener->on_io_done(dev.reads[i].tag);
  CHECK(w.woken == woken);
  CHECK(w2.woken == 1);
}

TEST_CASE("os = freebsd: with aio on (1.9.0) or from 1.21.5 the loop never waits for file data, 1.9.0 without aio does") {
  const std::vector<std::string> bsd = {"nginx.os=\"freebsd\"", "dataset.file_size=\"1m\"", "memory.page_cache=\"8m\"",
                                        "clients.hot.connections=4", "clients.hot.path=\"random\""};
  auto preload = bsd;
  preload.push_back("nginx.aio=\"on\"");
  const models::RunResult pre = tests::run_file(kData + "/stages-one-hot.toml", preload, 5);
  REQUIRE(pre.server_responses > 2);
  CHECK(pre.disk_reads > 0);      // the files do not fit: misses all along
  CHECK(data_wait(pre) == 0);     // each a preload the loop does not wait for
  auto newer = bsd;
  newer.push_back("nginx.version=\"1.22.1\"");
  const models::RunResult async = tests::run_file(kData + "/stages-one-hot.toml", newer, 5);
  REQUIRE(async.server_responses > 2);
  CHECK(data_wait(async) == 0);   // 1.21.5+: SF_NODISKIO without aio
  const models::RunResult blocking = tests::run_file(kData + "/stages-one-hot.toml", bsd, 5);
  REQUIRE(blocking.server_responses > 2);
  CHECK(data_wait(blocking) > 0); // before 1.21.5 SF_NODISKIO needs aio on
  // What FreeBSD's path does not model is refused by name.
  auto key_of = [](const std::vector<std::string>& o) {
    return tests::load_error(kData + "/stages-one-hot.toml", o).key();
  };
  CHECK(key_of({"nginx.os=\"freebsd\"", "nginx.directio=\"4m\""}) == "nginx.directio");
  CHECK(key_of({"nginx.os=\"freebsd\"", "nginx.aio=\"threads\""}) == "nginx.aio");
  CHECK(key_of({"nginx.os=\"solaris\""}) == "nginx.os");
}
