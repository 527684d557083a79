// What clerk-disk does to a mount from outside libfuse: finding and
// cleaning a stale mount a killed daemon left, and the kernel's per-mount
// knobs that FUSE's init reply cannot set (disk_fs.h lists the pitfalls).
//  - A FUSE mount whose daemon died answers every request with ENOTCONN
//    ("Transport endpoint is not connected"), or ECONNABORTED once the
//    connection was aborted. At start, a mount point whose statfs() fails
//    so (not stat(): the kernel answers it from the root's cached
//    attributes without asking the daemon), or that /proc/self/mountinfo
//    lists as a fuse mount, is detached lazily (fusermount3 -u -z;
//    umount2(MNT_DETACH) as root does the same) before mounting again.
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

// The fuse mount at `mountpoint` in a mountinfo text ("" when none): its
// "major:minor".
std::string fuse_mount_device(const std::string& mountinfo, const std::string& mountpoint);

// Detaches a stale or leftover fuse mount at `mountpoint`; what it found and
// did, one line each (empty: nothing there). Throws std::runtime_error when
// it cannot.
std::vector<std::string> clean_stale_mount(const std::string& mountpoint);

struct TuningTargets {
  std::uint64_t read_ahead_kb;
  std::uint32_t max_background;
  std::uint32_t congestion_threshold;
};
// Applies the targets to the mount at `mountpoint`; a line per knob saying
// what it is now, or why it could not be set.
std::vector<std::string> tune_mount(const std::string& mountpoint, const TuningTargets& t);

}  // namespace testbed::disk
