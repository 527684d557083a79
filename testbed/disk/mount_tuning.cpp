#include "mount_tuning.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "common/bad_input.h"
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

// What a FUSE mount whose daemon is gone answers (mount_tuning.h).
bool connection_gone(int error) { return error == ENOTCONN || error == ECONNABORTED; }

// realpath(3): "" and its errno in `error` when `path` cannot be resolved.
std::string real_path(const std::string& path, int& error) {
  const std::unique_ptr<char, decltype(&std::free)> resolved(realpath(path.c_str(), nullptr), &std::free);
  error = resolved ? 0 : errno;
  return resolved ? std::string(resolved.get()) : std::string();
}

// A dead mount's root, resolved through its folder: the folder resolved and
// the last name appended ("" when that cannot be: a name "." or "..", a
// symbolic link, a folder that does not resolve).
std::string resolved_through_folder(std::string given) {
  while (given.size() > 1 && given.back() == '/') given.pop_back();
  const std::size_t slash = given.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : given.substr(0, slash);
  const std::string name = slash == std::string::npos ? given : given.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") return "";
  int error = 0;
  const std::string base = real_path(folder, error);
  if (base.empty()) return "";
  const std::string at = (base == "/" ? "" : base) + "/" + name;
  struct stat st {};
  if (lstat(at.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) return "";
  return at;
}

// The topmost mount at `mountpoint` that `keep` takes (null when none): a
// mount stacked on another is listed after it.
template <typename Keep>
const common::MountInfo* topmost(const std::vector<common::MountInfo>& mounts, const std::string& mountpoint,
                                 Keep keep) {
  const common::MountInfo* top = nullptr;
  for (const common::MountInfo& m : mounts)
    if (m.mount_point == mountpoint && keep(m)) top = &m;
  return top;
}

bool is_fuse(const common::MountInfo& m) { return m.fstype == "fuse" || m.fstype.rfind("fuse.", 0) == 0; }

std::string set_knob(const std::string& path, const std::string& name, const std::string& value) {
  if (access(path.c_str(), F_OK) != 0) return name + ": not set (" + path + " does not exist)";
  if (trimmed(common::read_text(path)) != value) {
    const std::string err = common::write_control_file(path, value);
    if (!err.empty()) return name + ": " + err;
  }
  return name + " = " + trimmed(common::read_text(path)) + " (" + path + ")";
}
}  // namespace

std::string resolved_mount_point(const std::string& given) {
  int error = 0;
  std::string at = real_path(given, error);
  if (at.empty()) {
    if (connection_gone(error)) at = resolved_through_folder(given);
    if (at.empty())
      throw common::BadInput("the mount point '" + given + "': " + std::strerror(error) +
                             " (it must be an existing directory)");
  }
  struct stat st {};
  if (stat(at.c_str(), &st) != 0) {
    // A dead mount's root: clean_stale_mount detaches it, and run_daemon
    // checks the folder beneath.
    error = errno;
    if (!connection_gone(error))
      throw common::BadInput("the mount point '" + given + "': " + std::strerror(error) +
                             " (it must be an existing directory)");
  } else if (!S_ISDIR(st.st_mode)) {
    throw common::BadInput("the mount point '" + given + "' is not a directory");
  }
  return at;
}

std::string fuse_mount_device(const std::string& mountinfo, const std::string& mountpoint) {
  const std::vector<common::MountInfo> mounts = common::parse_mountinfo(mountinfo);
  const common::MountInfo* top = topmost(mounts, mountpoint, is_fuse);
  return top ? top->device : "";
}

std::string mount_type_at(const std::string& mountinfo, const std::string& mountpoint) {
  const std::vector<common::MountInfo> mounts = common::parse_mountinfo(mountinfo);
  const common::MountInfo* top = topmost(mounts, mountpoint, [](const common::MountInfo&) { return true; });
  return top ? top->fstype : "";
}

std::vector<std::string> clean_stale_mount(const std::string& mountpoint) {
  std::vector<std::string> said;
  // statfs, not stat: the kernel answers stat of the root from its cached
  // attributes (they never expire here) without asking the daemon.
  struct statfs sf {};
  const bool dead = statfs(mountpoint.c_str(), &sf) != 0 && connection_gone(errno);
  if (!dead) {
    // Live: not ours to remove (another clerk-disk still serving, sshfs...).
    const std::string type = mount_type_at(common::read_text("/proc/self/mountinfo"), mountpoint);
    if (!type.empty())
      throw common::BadInput(mountpoint + " is already a mount point (" + type + ", live): unmount it first");
    return said;
  }
  said.push_back("a stale FUSE mount (its daemon is gone: ENOTCONN or ECONNABORTED) at " + mountpoint +
                 ": detaching it (fusermount3 -u -z)");
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

std::vector<std::string> tune_mount(const std::string& dev, const TuningTargets& t) {
  std::vector<std::string> said;
  said.push_back(set_knob("/sys/class/bdi/" + dev + "/read_ahead_kb", "read_ahead_kb", std::to_string(t.read_ahead_kb)));
  const std::string conn = "/sys/fs/fuse/connections/" + connection_id(dev) + "/";
  said.push_back(set_knob(conn + "max_background", "max_background", std::to_string(t.max_background)));
  said.push_back(
      set_knob(conn + "congestion_threshold", "congestion_threshold", std::to_string(t.congestion_threshold)));
  return said;
}

}  // namespace testbed::disk
