#include "testbed/realrun/emulated_disk.h"

#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string_view>
#include <thread>

#include "common/mountinfo.h"
#include "common/stale_state.h"
#include "common/text_file.h"
#include "testbed/realrun/child_registry.h"
#include "testbed/realrun/real_run.h"

namespace testbed::realrun {

namespace {
// Every clerk-disk mount point in a mountinfo text (fstype fuse.clerk-disk:
// the daemon mounts with subtype=clerk-disk).
std::vector<std::string> clerk_disk_mounts(const std::string& mountinfo) {
  std::vector<std::string> points;
  for (const common::MountInfo& m : common::parse_mountinfo(mountinfo))
    if (m.fstype == "fuse.clerk-disk") points.push_back(m.mount_point);
  return points;
}

std::string tail_of(const std::string& path) {
  const std::string text = common::read_text(path);
  return text.size() > 1500 ? text.substr(text.size() - 1500) : text;
}

std::vector<std::string> daemon_argv(const EmulatedDiskLaunch& l) {
  std::vector<std::string> argv = {l.binary, l.scenario_file, l.mountpoint};
  for (const std::string& s : l.overrides) {
    argv.push_back("--set");
    argv.push_back(s);
  }
  return argv;
}
}  // namespace

bool clerk_disk_mounted(const std::string& mountinfo, const std::string& mountpoint) {
  for (const std::string& p : clerk_disk_mounts(mountinfo))
    if (p == mountpoint) return true;
  return false;
}

std::vector<std::string> stale_emulated_mounts(const std::string& mountinfo, const std::string& folder_root,
                                               const std::string& prefix, const std::string& proc_root) {
  std::vector<std::string> stale;
  const std::string under = folder_root + "/";
  for (const std::string& p : clerk_disk_mounts(mountinfo)) {
    if (p.rfind(under, 0) != 0) continue;
    const std::string rest = p.substr(under.size());
    const std::string folder = rest.substr(0, rest.find('/'));
    const auto owner = common::owner_pid(folder, prefix);
    if (owner && !common::process_exists(*owner, proc_root)) stale.push_back(p);
  }
  return stale;
}

std::vector<std::string> detach_stale_emulated_mounts(const std::string& folder_root, const std::string& prefix) {
  std::vector<std::string> said;
  for (const std::string& p : stale_emulated_mounts(common::read_text("/proc/self/mountinfo"), folder_root, prefix)) {
    if (::umount2(p.c_str(), MNT_DETACH) == 0)
      said.push_back("detached the clerk-disk mount " + p + " of a dead clerk");
    else
      said.push_back(fmt::format("could not detach the clerk-disk mount {} of a dead clerk: {}", p, std::strerror(errno)));
  }
  return said;
}

namespace {
constexpr std::string_view kDaemonPrefix = "clerk-disk: ";

// One line of `in` without its '\n': its first `max` characters (control
// characters as '?'), and in `dropped` how many more it had. False at the end.
bool read_bounded_line(std::istream& in, std::string& line, std::size_t max, std::size_t& dropped) {
  line.clear();
  dropped = 0;
  std::streambuf* buf = in.rdbuf();
  if (buf == nullptr) return false;
  bool any = false;
  for (int c = buf->sbumpc(); c != std::char_traits<char>::eof(); c = buf->sbumpc()) {
    any = true;
    if (c == '\n') return true;
    if (line.size() == max)
      ++dropped;
    else
      line.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  }
  return any;
}
}  // namespace

std::vector<std::string> summary_lines(std::istream& log, const std::string& log_name) {
  std::vector<std::string> block;
  std::size_t more_lines = 0;
  bool in_block = false;
  std::string line;
  std::size_t dropped = 0;
  while (read_bounded_line(log, line, kSummaryMaxLineChars, dropped)) {
    if (!line.starts_with(kDaemonPrefix)) continue;
    if (line.find("own latency") != std::string::npos) {  // a (later) report begins
      block.clear();
      more_lines = 0;
      in_block = true;
    } else if (!in_block) {
      continue;
    } else if (line.starts_with("clerk-disk: unmounted")) {
      in_block = false;
      continue;
    }
    if (block.size() == kSummaryMaxLines) {
      ++more_lines;
      continue;
    }
    if (dropped > 0) line += fmt::format(" [... {} more characters in {}]", dropped, log_name);
    block.push_back(line);
  }
  if (more_lines > 0) block.push_back(fmt::format("clerk-disk: {} more summary lines in {}", more_lines, log_name));
  return block;
}

EmulatedDisk::EmulatedDisk(const EmulatedDiskLaunch& launch) : launch_(launch) {
  std::error_code ec;
  std::filesystem::create_directories(launch_.mountpoint, ec);
  if (ec) throw RealRunError(fmt::format("cannot create the mount point {}: {}", launch_.mountpoint, ec.message()));
  common::SpawnSpec spec;
  spec.argv = daemon_argv(launch_);
  spec.output = launch_.log;
  spec.who = kChildName;
  // A clerk killed by SIGKILL: SIGTERM lets the daemon unmount by itself.
  spec.parent_death_signal = SIGTERM;
  daemon_ = common::ChildProcess::spawn(spec);
  try {
    wait_for_mount();
  } catch (...) {
    daemon_.stop(SIGTERM, 5);
    detach();
    throw;
  }
}

void EmulatedDisk::wait_for_mount() {
  for (int i = 0; i < 2000; ++i) {
    if (stop_requested()) throw RealRunError("stopped");
    if (daemon_.poll())
      throw RealRunError(fmt::format("clerk-disk {} before mounting {}:\n{}", common::describe_status(daemon_.exit()->status),
                                     launch_.mountpoint, tail_of(launch_.log)));
    // Its own line: a stale mount would be listed in mountinfo before it.
    if (common::read_text(launch_.log).find("clerk-disk: mounted") != std::string::npos &&
        clerk_disk_mounted(common::read_text("/proc/self/mountinfo"), launch_.mountpoint))
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw RealRunError(fmt::format("clerk-disk did not mount {} within 20 s:\n{}", launch_.mountpoint, tail_of(launch_.log)));
}

std::string EmulatedDisk::failure() {
  if (!daemon_.poll()) return "";
  return fmt::format("clerk-disk {} during the run:\n{}", common::describe_status(daemon_.exit()->status),
                     tail_of(launch_.log));
}

EmulatedDisk::End EmulatedDisk::stop() {
  End end;
  if (daemon_.running()) daemon_.stop(SIGTERM, 10);
  std::ifstream log(launch_.log);
  end.summary = summary_lines(log, launch_.log);
  if (end.summary.empty()) end.summary.push_back("clerk-disk printed no own-latency line (see " + launch_.log + ")");
  if (daemon_.exit() && !daemon_.exit()->ok())
    end.problems.push_back("clerk-disk " + common::describe_status(daemon_.exit()->status) + "; see " + launch_.log);
  if (clerk_disk_mounted(common::read_text("/proc/self/mountinfo"), launch_.mountpoint)) {
    end.problems.push_back("clerk-disk left its mount at " + launch_.mountpoint + ": detached");
    detach();
  }
  return end;
}

void EmulatedDisk::detach() noexcept {
  try {
    if (clerk_disk_mounted(common::read_text("/proc/self/mountinfo"), launch_.mountpoint))
      ::umount2(launch_.mountpoint.c_str(), MNT_DETACH);
  } catch (...) {
  }
}

EmulatedDisk::~EmulatedDisk() {
  // A failure or Ctrl-C: the group was SIGKILLed (or is now), which leaves
  // the mount in place; detach it so that the run folder can go.
  if (daemon_.running()) daemon_.stop(SIGTERM, 5);
  detach();
}

}  // namespace testbed::realrun
