#include "mount_tuning.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/child_process.h"
#include "common/control_file.h"
#include "common/mountinfo.h"
#include "common/text_file.h"

namespace testbed::disk {

namespace {
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The kernel's number for a connection (fc->dev as %u): MKDEV(major, minor).
std::string connection_id(const std::string& device) {
  const auto colon = device.find(':');
  const unsigned major = static_cast<unsigned>(std::stoul(device.substr(0, colon)));
  const unsigned minor = static_cast<unsigned>(std::stoul(device.substr(colon + 1)));
  return std::to_string((major << 20) | minor);
}

std::string set_knob(const std::string& path, const std::string& name, const std::string& value) {
  if (access(path.c_str(), F_OK) != 0) return name + ": not set (" + path + " does not exist)";
  if (trimmed(common::read_text(path)) != value) {
    const std::string err = common::write_control_file(path, value);
    if (!err.empty()) return name + ": " + err;
  }
  return name + " = " + trimmed(common::read_text(path)) + " (" + path + ")";
}
}  // namespace

std::string fuse_mount_device(const std::string& mountinfo, const std::string& mountpoint) {
  for (const common::MountInfo& m : common::parse_mountinfo(mountinfo))
    if (m.mount_point == mountpoint && (m.fstype == "fuse" || m.fstype.rfind("fuse.", 0) == 0)) return m.device;
  return "";
}

std::vector<std::string> clean_stale_mount(const std::string& mountpoint) {
  std::vector<std::string> said;
  // statfs, not stat: the kernel answers stat of the root from its cached
  // attributes (they never expire here) without asking the daemon.
  struct statfs sf {};
  const bool dead = statfs(mountpoint.c_str(), &sf) != 0 && (errno == ENOTCONN || errno == ECONNABORTED);
  const bool listed = !fuse_mount_device(common::read_text("/proc/self/mountinfo"), mountpoint).empty();
  if (!dead && !listed) return said;
  said.push_back(std::string(dead ? "a stale FUSE mount (its daemon is gone: ENOTCONN or ECONNABORTED)" : "a FUSE mount") + " at " +
                 mountpoint + ": detaching it (fusermount3 -u -z)");
  if (umount2(mountpoint.c_str(), MNT_DETACH) == 0) return said;
  const int umount_errno = errno;
  common::SpawnSpec spec;
  spec.argv = {"fusermount3", "-u", "-z", mountpoint};
  spec.who = "clerk-disk";
  common::ChildProcess c = common::ChildProcess::spawn(spec);
  const auto& exit = c.wait_for(10.0);
  if (!exit || !exit->ok())
    throw std::runtime_error("cannot detach the FUSE mount at " + mountpoint + ": umount2: " +
                             std::strerror(umount_errno) + ", and fusermount3 -u -z failed");
  return said;
}

std::vector<std::string> tune_mount(const std::string& mountpoint, const TuningTargets& t) {
  std::vector<std::string> said;
  const std::string dev = fuse_mount_device(common::read_text("/proc/self/mountinfo"), mountpoint);
  if (dev.empty()) return {"tuning: no FUSE mount at " + mountpoint + " in /proc/self/mountinfo"};
  said.push_back(set_knob("/sys/class/bdi/" + dev + "/read_ahead_kb", "read_ahead_kb", std::to_string(t.read_ahead_kb)));
  const std::string conn = "/sys/fs/fuse/connections/" + connection_id(dev) + "/";
  said.push_back(set_knob(conn + "max_background", "max_background", std::to_string(t.max_background)));
  said.push_back(
      set_knob(conn + "congestion_threshold", "congestion_threshold", std::to_string(t.congestion_threshold)));
  return said;
}

}  // namespace testbed::disk
