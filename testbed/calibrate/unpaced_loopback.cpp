#include "testbed/calibrate/unpaced_loopback.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "common/control_file.h"
#include "common/kernel_name.h"
#include "common/loopback_tcp.h"
#include "common/output_file.h"
#include "common/stale_state.h"
#include "common/text_file.h"
#include "common/unique_fd.h"

namespace testbed::calibrate {

namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string first_word(const std::string& text) {
  const auto w = words(text);
  return w.empty() ? "" : w.front();
}

bool listed(const std::string& name, const std::string& line) {
  for (const std::string& w : words(line))
    if (w == name) return true;
  return false;
}

// A folder of this user's that nobody else may write: not a link, and not
// made by another user in the shared /tmp.
bool own_private_folder(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

// Up to 64 bytes of a regular file of this user's, never through a link,
// never blocking on a FIFO; "" otherwise.
std::string read_own_small_file(const std::string& path) {
  const common::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) return "";
  char buf[64];
  const ssize_t n = ::read(fd.get(), buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

std::string restore_one(const std::string& file, pid_t owner, const std::string& sysctl, const std::string& available) {
  const auto w = words(read_own_small_file(file));
  if (w.size() != 2 || !common::is_kernel_name(w[0]) || !common::is_kernel_name(w[1])) return "";
  const std::string& machines = w[0];
  const std::string& used = w[1];
  const std::string now = first_word(common::read_text(sysctl));
  if (now != used)
    return fmt::format("left {} at {}: a killed clerk calibrate ({}) had set {} for its CPU runs, and it has changed since",
                       sysctl, now, owner, used);
  if (!listed(machines, common::read_text(available)))
    return fmt::format("left {} at {}: a killed clerk calibrate ({}) found {} there, which this kernel does not list now",
                       sysctl, now, owner, machines);
  const std::string problem = common::write_control_file(sysctl, machines);
  return problem.empty()
             ? fmt::format("restored {} to {}, which a killed clerk calibrate ({}) had set to {} for its CPU runs", sysctl,
                           machines, owner, used)
             : fmt::format("could not restore {} to {} after a killed clerk calibrate ({}): {}", sysctl, machines, owner,
                           problem);
}

}  // namespace

std::string unpaced_congestion_control(const std::string& available) {
  return listed("cubic", available) ? "cubic" : "reno";
}

UnpacedLoopback::UnpacedLoopback(const std::string& run_folder) {
  previous_ = common::read_congestion_control(*common::files_under(""));
  if (previous_.empty())
    throw std::runtime_error(fmt::format("cannot read the congestion control from {}", kCongestionControlSysctl));
  used_ = unpaced_congestion_control(common::read_text("/proc/sys/net/ipv4/tcp_available_congestion_control"));
  restore_path_ = run_folder + "/" + kCongestionControlRestoreFile;
  common::write_file_atomically(restore_path_, previous_ + " " + used_ + "\n");
  const std::string problem = common::write_control_file(kCongestionControlSysctl, used_);
  if (!problem.empty()) {
    std::error_code ec;
    std::filesystem::remove(restore_path_, ec);
    throw std::runtime_error(problem);
  }
}

UnpacedLoopback::~UnpacedLoopback() {
  try {
    const std::string problem = common::write_control_file(kCongestionControlSysctl, previous_);
    if (problem.empty()) {
      std::error_code ec;
      std::filesystem::remove(restore_path_, ec);
      return;
    }
    std::cerr << "clerk calibrate: " << problem << "; put it back by hand: sysctl -w net.ipv4.tcp_congestion_control="
              << previous_ << "\n";
  } catch (...) {
    // Nothing more can be said; the restore file stays for the next calibrate.
  }
}

std::vector<std::string> restore_stale_congestion_control(const std::string& tmp, const std::string& sysctl,
                                                          const std::string& available) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    const auto pid = common::owner_pid(name, "clerk-calibrate-");
    if (!pid || common::process_exists(*pid, "/proc") || !own_private_folder(entry.path().string())) continue;
    const std::string line =
        restore_one(entry.path().string() + "/" + kCongestionControlRestoreFile, *pid, sysctl, available);
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace testbed::calibrate
