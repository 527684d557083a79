// /proc/self/mountinfo, one line per mount (proc(5); the kernel's
// show_mountinfo() in fs/proc_namespace.c):
//   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//   (1)(2)(3)   (4)   (5)         (6)       (7)      (8) (9)  (10)      (11)
// mount id, parent id, major:minor, root, mount point, mount options, zero
// or more optional fields (shared:N, master:N, ...), the separator "-",
// file system type, source, super options. The kernel separates fields by
// one space and writes a space, tab, newline or backslash inside a path,
// type or source as a backslash and three octal digits (\040, \011, \012,
// \134: seq_escape() / mangle()), so splitting on spaces is exact.
// The readers of clerk-disk's mounts (testbed/disk/mount_tuning.cpp,
// testbed/realrun/emulated_disk.cpp) share this one.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace common {

struct MountInfo {
  std::string mount_id, parent_id;
  std::string device;       // "major:minor" as written
  std::string root;         // unescaped
  std::string mount_point;  // unescaped
  std::string options;
  std::vector<std::string> optional_fields;
  std::string fstype;  // unescaped
  std::string source;  // unescaped
  std::string super_options;
};

// mountinfo's octal escapes undone: a backslash and three octal digits of a
// value up to 0377 become that byte; any other backslash is kept as it is
// (the kernel writes no other).
std::string unescape_mountinfo(const std::string& field);

// One line (without its newline); nullopt when it is not one: fewer than six
// fields before the separator, no separator " - ", or fewer than two fields
// after it (type and source; the super options may be missing).
std::optional<MountInfo> parse_mountinfo_line(const std::string& line);

// Every line of a mountinfo text that parses, in order (a mount stacked on
// another comes after it); the others are skipped.
std::vector<MountInfo> parse_mountinfo(const std::string& text);

}  // namespace common
