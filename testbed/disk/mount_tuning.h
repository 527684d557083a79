// What clerk-disk does to a mount from outside libfuse: finding and
// cleaning a stale mount a killed daemon left, and the kernel's per-mount
// knobs that FUSE's init reply cannot set (disk_fs.h lists the pitfalls).
//  - The mount point as /proc/self/mountinfo spells it: absolute, every
//    symbolic link, "." and ".." resolved and no trailing slash. Every
//    lookup below compares with that spelling, so the path is resolved
//    once, first (probe 6, finding 6: "mnt", "./mnt", "mnt/" or a link
//    matched no line, and the tuning was skipped with a note).
//  - A FUSE mount whose daemon died answers every request with ENOTCONN
//    ("Transport endpoint is not connected"), or ECONNABORTED once the
//    connection was aborted. At start, a mount point whose statfs() fails
//    so (not stat(): the kernel answers it from the root's cached
//    attributes without asking the daemon) is detached lazily (fusermount3
//    -u -z; umount2(MNT_DETACH) as root does the same) before mounting
//    again. A live mount there (another clerk-disk's, sshfs, a tmpfs) is
//    refused and left alone: only a dead one is ours to clear (probe 6,
//    finding 5: any FUSE mount listed there was detached, a running
//    clerk-disk's included).
//  - The bdi's readahead: libfuse's max_readahead can only lower it
//    (fuse_bdi_init starts it at VM_READAHEAD_PAGES, 128 KiB), so the
//    profile's value is written to /sys/class/bdi/<major:minor>/read_ahead_kb.
//  - max_background and congestion_threshold: set by the init reply, read
//    back (and written, if they differ) at /sys/fs/fuse/connections/<dev>/
//    when fusectl is mounted there.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace testbed::disk {

// `given` resolved as above (realpath). Throws common::BadInput (exit 2)
// naming `given` when it does not exist or is not a directory. A dead FUSE
// mount's root cannot be resolved through: its folder is resolved and its
// name appended (a link to a dead mount is refused, naming the error).
std::string resolved_mount_point(const std::string& given);

// The topmost fuse mount at `mountpoint` (resolved) in a mountinfo text (""
// when none): its "major:minor". A mount stacked on another is listed after
// it, so the last match is the one a path lookup reaches.
std::string fuse_mount_device(const std::string& mountinfo, const std::string& mountpoint);

// The topmost mount of any type at `mountpoint` (resolved) in a mountinfo
// text: its file system type ("fuse.clerk-disk", "tmpfs"); "" when none.
std::string mount_type_at(const std::string& mountinfo, const std::string& mountpoint);

// Detaches a stale fuse mount (its daemon gone) at `mountpoint` (resolved);
// what it found and did, one line each (empty: nothing there). Throws
// common::BadInput (exit 2) when a live mount is there, touching nothing,
// and std::runtime_error when a dead one cannot be detached.
std::vector<std::string> clean_stale_mount(const std::string& mountpoint);

struct TuningTargets {
  std::uint64_t read_ahead_kb;
  std::uint32_t max_background;
  std::uint32_t congestion_threshold;
};
// Applies the targets to the fuse mount whose device is `device`
// ("major:minor", fuse_mount_device's answer once mounted); a line per knob
// saying what it is now, or why it could not be set.
std::vector<std::string> tune_mount(const std::string& device, const TuningTargets& t);

}  // namespace testbed::disk
