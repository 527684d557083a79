// --disk emulated's pieces without a mount: finding clerk-disk mounts in
// mountinfo, telling a dead run's from a live one's, and the daemon's
// own-latency line.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "testbed/realrun/emulated_disk.h"

using namespace testbed::realrun;
namespace fs = std::filesystem;

namespace {
const std::string kMountinfo =
    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
    "90 26 0:52 / /tmp/clerk-realrun-999999-Ab12Cd/data ro,nosuid,nodev - fuse.clerk-disk clerk-disk ro\n"
    "91 26 0:53 / /tmp/clerk-realrun-1-Xy/data ro - fuse.clerk-disk clerk-disk ro\n"
    "92 26 0:54 / /tmp/clerk-disk-test.abc/mnt ro - fuse.clerk-disk clerk-disk ro\n"
    "93 26 0:55 / /tmp/clerk-realrun-999998-Q/data ro - fuse.sshfs host: ro\n"
    "94 26 0:56 / /tmp/with\\040space ro - fuse.clerk-disk clerk-disk ro\n";
}  // namespace

TEST_CASE("clerk_disk_mounted finds only clerk-disk mounts, with mountinfo's escapes undone") {
  CHECK(clerk_disk_mounted(kMountinfo, "/tmp/clerk-realrun-999999-Ab12Cd/data"));
  CHECK(clerk_disk_mounted(kMountinfo, "/tmp/with space"));
  CHECK_FALSE(clerk_disk_mounted(kMountinfo, "/tmp/clerk-realrun-999998-Q/data"));  // another FUSE file system
  CHECK_FALSE(clerk_disk_mounted(kMountinfo, "/proc"));
  CHECK_FALSE(clerk_disk_mounted(kMountinfo, "/tmp/clerk-realrun-999999-Ab12Cd"));
}

TEST_CASE("stale_emulated_mounts names the clerk-disk mounts of dead runs only") {
  // A fake /proc where pid 1 lives and 999999 does not.
  const fs::path proc = fs::temp_directory_path() / ("clerk-emulated-proc-" + std::to_string(::getpid()));
  fs::create_directories(proc / "1");
  const auto stale = stale_emulated_mounts(kMountinfo, "/tmp", "clerk-realrun-", proc.string());
  fs::remove_all(proc);
  // Not pid 1's (alive), not the mount test's (no pid in its name), not sshfs.
  REQUIRE(stale == std::vector<std::string>{"/tmp/clerk-realrun-999999-Ab12Cd/data"});
}

TEST_CASE("own_latency_line is the daemon's report, the last one when there are several") {
  const std::string log =
      "clerk-disk: scheduling: SCHED_FIFO priority 1\n"
      "clerk-disk: mounted 1024 files at /tmp/x/data\n"
      "clerk-disk: emulated: 10 reads, 40960 bytes; own latency (reply begun after the model's completion): mean 1 us\n"
      "clerk-disk: emulated: 20 reads, 81920 bytes; own latency (reply begun after the model's completion): mean 2 us\n"
      "clerk-disk: unmounted /tmp/x/data\n";
  CHECK(own_latency_line(log).find("20 reads") != std::string::npos);
  CHECK(own_latency_line("clerk-disk: mounted 1 files at /m\n").empty());
}

TEST_CASE("metadata_line is the daemon's lookups line, absent from an older daemon's log") {
  const std::string log =
      "clerk-disk: mounted 1024 files at /tmp/x/data\n"
      "clerk-disk: emulated: 20 reads, 81920 bytes; own latency (reply begun after the model's completion): mean 2 us\n"
      "clerk-disk: lookups: 30 answered; 7 waited for metadata block reads (5 directory, 2 inode-table); buffer "
      "cache: 35 lookups, 28 hits, 40 blocks read (inode readahead included)\n"
      "clerk-disk: unmounted /tmp/x/data\n";
  CHECK(metadata_line(log).find("30 answered") != std::string::npos);
  CHECK(metadata_line("clerk-disk: emulated: 20 reads; own latency: mean 2 us\n").empty());
}

TEST_CASE("page_cache_line is the daemon's line on its view of the page cache, absent from an older daemon's log") {
  const std::string log =
      "clerk-disk: lookups: 30 answered; 7 waited for metadata block reads (5 directory, 2 inode-table); buffer "
      "cache: 35 lookups, 28 hits, 40 blocks read (inode readahead included)\n"
      "clerk-disk: page cache (clerk-disk's view, cache_pressure.h): 90 reads and 12 opens entered; 800 data units "
      "inserted, 300 evicted, 500 resident; 40 entries on the active list (blocks included); 6 metadata blocks "
      "evicted\n"
      "clerk-disk: unmounted /tmp/x/data\n";
  CHECK(page_cache_line(log).find("6 metadata blocks evicted") != std::string::npos);
  CHECK(page_cache_line(log).find("lookups") == std::string::npos);
  CHECK(page_cache_line("clerk-disk: lookups: 30 answered\n").empty());
}
