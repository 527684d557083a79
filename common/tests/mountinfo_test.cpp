// /proc/self/mountinfo lines (common/mountinfo.h): the fields, the octal
// escapes, and hostile lines (truncated, bad escapes, no separator).
#include <catch2/catch.hpp>

#include "common/mountinfo.h"

using common::parse_mountinfo;
using common::parse_mountinfo_line;
using common::unescape_mountinfo;

TEST_CASE("mountinfo: the fields of proc(5)'s example line, optional fields and all") {
  const auto m = parse_mountinfo_line("36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue");
  REQUIRE(m);
  CHECK(m->mount_id == "36");
  CHECK(m->parent_id == "35");
  CHECK(m->device == "98:0");
  CHECK(m->root == "/mnt1");
  CHECK(m->mount_point == "/mnt/parent");
  CHECK(m->options == "rw,noatime");
  CHECK(m->optional_fields == std::vector<std::string>{"master:1"});
  CHECK(m->fstype == "ext3");
  CHECK(m->source == "/dev/root");
  CHECK(m->super_options == "rw,errors=continue");
  // No optional field, two.
  CHECK(parse_mountinfo_line("22 1 0:21 / /proc rw,nosuid - proc proc rw")->optional_fields.empty());
  CHECK(parse_mountinfo_line("22 1 0:21 / /p rw shared:5 master:2 - proc proc rw")->optional_fields.size() == 2);
}

TEST_CASE("mountinfo: octal escapes become their byte in paths, type and source") {
  CHECK(unescape_mountinfo("/tmp/with\\040space") == "/tmp/with space");
  CHECK(unescape_mountinfo("a\\011b\\012c\\134d") == "a\tb\nc\\d");
  CHECK(unescape_mountinfo("\\040") == " ");       // the whole field
  CHECK(unescape_mountinfo("end\\040") == "end ");  // at the end
  const auto m = parse_mountinfo_line("40 35 0:52 /r\\040t /tmp/with\\040space rw - fuse.a\\040b src\\134x ro");
  REQUIRE(m);
  CHECK(m->root == "/r t");
  CHECK(m->mount_point == "/tmp/with space");
  CHECK(m->fstype == "fuse.a b");
  CHECK(m->source == "src\\x");
}

TEST_CASE("mountinfo: a bad escape is kept as written") {
  CHECK(unescape_mountinfo("a\\04") == "a\\04");     // truncated: two digits
  CHECK(unescape_mountinfo("a\\") == "a\\");         // a backslash at the end
  CHECK(unescape_mountinfo("a\\089") == "a\\089");   // not octal
  CHECK(unescape_mountinfo("a\\400") == "a\\400");   // above 0377: no byte
  CHECK(unescape_mountinfo("a\\x41") == "a\\x41");   // not the kernel's form
  CHECK(unescape_mountinfo("\\\\040") == "\\ ");     // a backslash, then an escape
  CHECK(unescape_mountinfo("a\\377") == "a\xff");    // the largest byte
}

TEST_CASE("mountinfo: hostile lines are not mounts") {
  CHECK_FALSE(parse_mountinfo_line(""));
  CHECK_FALSE(parse_mountinfo_line("garbage line"));
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / /mnt rw ext4 /dev/sda1 rw"));  // no separator
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / /mnt rw -ext4 /dev/sda1 rw"));  // "-" not a field
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / /mnt rw -"));                   // nothing after it
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / /mnt rw - ext4"));              // no source
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / - ext4 /dev/sda1 rw"));         // truncated before it
  CHECK_FALSE(parse_mountinfo_line("36 35 98:0 / /mnt - ext4 /dev/sda1 rw"));    // no options
  // The separator is looked for after the options only.
  const auto m = parse_mountinfo_line("36 35 98:0 / /mnt - - ext4 /dev/sda1 rw");
  REQUIRE(m);
  CHECK(m->options == "-");
  CHECK(m->fstype == "ext4");
  // The super options may be missing (the kernel always writes them).
  CHECK(parse_mountinfo_line("36 35 98:0 / /mnt rw - ext4 /dev/sda1")->super_options.empty());
}

TEST_CASE("mountinfo: a text's good lines in order, the rest skipped") {
  const std::string text =
      "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
      "truncated 1 0:2\n"
      "\n"
      "90 26 0:52 / /a ro - fuse.clerk-disk clerk-disk ro\n"
      "91 26 0:53 / /a ro - fuse.clerk-disk clerk-disk ro";  // stacked on /a; no final newline
  const auto all = parse_mountinfo(text);
  REQUIRE(all.size() == 3);
  CHECK(all[0].mount_point == "/proc");
  CHECK(all[1].device == "0:52");
  CHECK(all[2].device == "0:53");
  CHECK(parse_mountinfo("").empty());
}
