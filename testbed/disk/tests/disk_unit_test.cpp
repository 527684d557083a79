#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/bad_input.h"
#include "content.h"
#include "mount_tuning.h"

using namespace testbed::disk;
namespace fs = std::filesystem;

TEST_CASE("content: a read at any offset gives the bytes of the same file's words", "[disk]") {
  const std::uint64_t key = path_key("/1/2/3");
  std::vector<char> whole(100);
  fill_content(key, 0, whole.data(), whole.size());
  std::vector<char> part(37);
  fill_content(key, 13, part.data(), part.size());
  CHECK(std::string(part.begin(), part.end()) == std::string(whole.begin() + 13, whole.begin() + 50));
  CHECK(first_mismatch(key, 13, part.data(), part.size()) == -1);
  part[20] ^= 1;
  CHECK(first_mismatch(key, 13, part.data(), part.size()) == 33);
}

TEST_CASE("content: two paths differ", "[disk]") {
  std::vector<char> a(64), b(64);
  fill_content(path_key("/1/1/1"), 0, a.data(), a.size());
  fill_content(path_key("/1/1/2"), 0, b.data(), b.size());
  CHECK(a != b);
  CHECK(first_mismatch(path_key("/1/1/1"), 0, b.data(), b.size()) >= 0);
}

TEST_CASE("mountinfo: the fuse mount at a path, escapes undone, other types ignored", "[disk]") {
  const std::string info =
      "36 35 98:0 / /mnt/a rw,noatime - ext4 /dev/sda1 rw\n"
      "40 35 0:52 / /tmp/with\\040space rw,nosuid - fuse.clerk-disk clerk-disk ro\n"
      "41 35 0:53 / /tmp/plain rw - fuse clerk-disk ro\n";
  CHECK(fuse_mount_device(info, "/tmp/with space") == "0:52");
  CHECK(fuse_mount_device(info, "/tmp/plain") == "0:53");
  CHECK(fuse_mount_device(info, "/mnt/a").empty());
  CHECK(fuse_mount_device(info, "/nowhere").empty());
  CHECK(fuse_mount_device("garbage line\n\n", "/mnt/a").empty());
}

TEST_CASE("mountinfo: the topmost mount at a path is the last listed", "[disk]") {
  const std::string info =
      "40 35 0:52 / /m rw - fuse.clerk-disk clerk-disk ro\n"
      "41 40 0:60 / /m rw - tmpfs tmpfs rw\n"
      "42 41 0:61 / /m rw - fuse.sshfs host: rw\n"
      "43 35 0:62 / /other rw - tmpfs tmpfs rw\n";
  CHECK(fuse_mount_device(info, "/m") == "0:61");
  CHECK(mount_type_at(info, "/m") == "fuse.sshfs");
  CHECK(mount_type_at(info, "/other") == "tmpfs");
  CHECK(mount_type_at(info, "/m/") == "");  // resolved paths only (resolved_mount_point)
  CHECK(mount_type_at(info, "/nowhere") == "");
}

// Probe 6, finding 6: each spelling of one folder resolves to mountinfo's.
TEST_CASE("mount point: relative, trailing slash, . and .., and a link resolve to one absolute path", "[disk]") {
  const fs::path base = fs::temp_directory_path() / ("clerk-disk-mountpoint-" + std::to_string(::getpid()));
  fs::create_directories(base / "m");
  fs::create_directory_symlink("m", base / "link");
  std::ofstream(base / "file") << "x";
  const std::string want = fs::canonical(base / "m").string();
  const fs::path was = fs::current_path();
  fs::current_path(base);
  CHECK(resolved_mount_point("m") == want);
  CHECK(resolved_mount_point("./m/") == want);
  CHECK(resolved_mount_point("m/../m") == want);
  fs::current_path(was);
  CHECK(resolved_mount_point((base / "m").string() + "/") == want);
  CHECK(resolved_mount_point((base / "link").string()) == want);
  CHECK_THROWS_WITH(resolved_mount_point((base / "none").string()),
                    Catch::Contains("none'") && Catch::Contains("No such file"));
  CHECK_THROWS_WITH(resolved_mount_point((base / "file").string()), Catch::Contains("is not a directory"));
  CHECK_THROWS_AS(resolved_mount_point((base / "file").string()), common::BadInput);
  fs::remove_all(base);
}
