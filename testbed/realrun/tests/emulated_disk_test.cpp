// --disk emulated's pieces without a mount: finding clerk-disk mounts in
// mountinfo, telling a dead run's from a live one's, and the summary lines
// the daemon prints at unmount.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

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

namespace {
std::vector<std::string> summary_of(const std::string& log) {
  std::istringstream in(log);
  return summary_lines(in, "LOG");
}

// daemon.cpp's lines at unmount, as report() and report_metadata() print them.
const std::string kOwnLatency =
    "clerk-disk: emulated: 20 reads, 81920 bytes; own latency (reply begun after the model's completion): mean 2.0 "
    "us, p50 1.5 us, p99 9.0 us, max 12.0 us; the reply itself: mean 3.0 us; most reads outstanding in the model: 4";
const std::string kReadSizes = "clerk-disk: read sizes (bytes x count): 4096x4 131072x16";
const std::string kLookups =
    "clerk-disk: lookups: 30 answered; 7 waited for metadata block reads (5 directory, 2 inode-table); buffer cache: "
    "35 lookups, 28 hits, 40 blocks read (inode readahead included)";
const std::string kPageCache =
    "clerk-disk: page cache (clerk-disk's view, cache_pressure.h): 90 reads and 12 opens entered; 800 data units "
    "inserted, 300 evicted, 500 resident; 40 entries on the active list (blocks included); 6 metadata blocks evicted";
const std::string kExt4 =
    "clerk-disk: ext4's inode cache (the model's, behind the kernel's): 3 lookups found the inode there only; 25 "
    "dentries and 25 inodes now, 5 inodes freed by the shrinker";
const std::string kBeforeRun =
    "clerk-disk: scheduling: SCHED_FIFO priority 1\n"
    "clerk-disk: mounted 1024 files at /tmp/x/data\n"
    "clerk-disk: max_pages = 256 (conn->max_write = 1048576)\n";
}  // namespace

TEST_CASE("summary_lines carries every line clerk-disk prints at unmount, in order, and no other") {
  const std::string log = kBeforeRun + kOwnLatency + "\n" + kReadSizes + "\n" + kLookups + "\n" +
                          "fuse: a libfuse line between them\n" + kPageCache + "\n" + kExt4 + "\n" +
                          "clerk-disk: unmounted /tmp/x/data\n" + "clerk-disk: a line after the unmount\n";
  CHECK(summary_of(log) == std::vector<std::string>{kOwnLatency, kReadSizes, kLookups, kPageCache, kExt4});
}

TEST_CASE("summary_lines with null delay: the reads, their sizes and the lookups answered at once") {
  const std::string null_delay =
      "clerk-disk: null-delay: 5 reads, 20480 bytes; own latency (reply begun after the model's completion): mean 1 us";
  const std::string lookups = "clerk-disk: lookups: 9, answered at once (null delay: no metadata reads)";
  const std::string log =
      kBeforeRun + null_delay + "\n" + kReadSizes + "\n" + lookups + "\nclerk-disk: unmounted /tmp/x/data\n";
  CHECK(summary_of(log) == std::vector<std::string>{null_delay, kReadSizes, lookups});
}

TEST_CASE("summary_lines keeps the last report, and none without an own-latency line") {
  const std::string earlier =
      "clerk-disk: emulated: 10 reads, 40960 bytes; own latency (reply begun after the model's completion): mean 1 us";
  const std::string log = earlier + "\nclerk-disk: read sizes (bytes x count): 4096x10\n" +
                          "clerk-disk: unmounted /m\n" + kBeforeRun + kOwnLatency + "\n" + kReadSizes + "\n";
  // The second report has no unmounted line (the daemon was killed): up to the log's end.
  CHECK(summary_of(log) == std::vector<std::string>{kOwnLatency, kReadSizes});
  CHECK(summary_of(kBeforeRun + kLookups + "\nclerk-disk: unmounted /m\n").empty());
  CHECK(summary_of("").empty());
  // An older daemon's log: its one summary line, without a final newline.
  CHECK(summary_of(kBeforeRun + kOwnLatency) == std::vector<std::string>{kOwnLatency});
}

TEST_CASE("summary_lines caps a hostile log: lines, their length, control characters") {
  std::string log = kOwnLatency + "\n";
  const std::string long_line =
      "clerk-disk: read sizes (bytes x count):" + std::string(kSummaryMaxLineChars + 100, '7');
  log += long_line + "\n";
  log += "clerk-disk: \x1b[2Jcleared\r\n";
  const std::size_t extra = kSummaryMaxLines + 5;  // lines beyond those three
  for (std::size_t i = 0; i < extra; ++i) log += "clerk-disk: line " + std::to_string(i) + "\n";
  const std::vector<std::string> got = summary_of(log);
  REQUIRE(got.size() == kSummaryMaxLines + 1);
  CHECK(got[0] == kOwnLatency);
  // Cut at the cap, saying how many characters the log has beyond it.
  const std::size_t beyond = long_line.size() - kSummaryMaxLineChars;
  CHECK(got[1] == long_line.substr(0, kSummaryMaxLineChars) + " [... " + std::to_string(beyond) +
                      " more characters in LOG]");
  CHECK(got[2] == "clerk-disk: ?[2Jcleared?");
  CHECK(got[3] == "clerk-disk: line 0");
  CHECK(got[kSummaryMaxLines - 1] == "clerk-disk: line " + std::to_string(kSummaryMaxLines - 4));
  // The lines past the cap: all but the first kSummaryMaxLines - 3 of the extra ones.
  CHECK(got.back() ==
        "clerk-disk: " + std::to_string(extra - (kSummaryMaxLines - 3)) + " more summary lines in LOG");
}
