#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "content.h"
#include "mount_tuning.h"

using namespace testbed::disk;

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
