#include "testbed/calibrate/unpaced_loopback.h"

#include <filesystem>
#include <fmt/format.h>
#include <sstream>
#include <stdexcept>

#include "common/control_file.h"
#include "common/kernel_name.h"
#include "common/output_file.h"
#include "common/stale_state.h"
#include "common/text_file.h"

namespace testbed::calibrate {

namespace {

std::string first_word(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  in >> word;
  return word;
}

void set_default(const std::string& value) {
  const std::string problem = common::write_control_file(kCongestionControlSysctl, value);
  if (!problem.empty()) throw std::runtime_error(problem);
}

}  // namespace

std::string unpaced_congestion_control(const std::string& available) {
  std::istringstream in(available);
  std::string name;
  while (in >> name)
    if (name == "cubic") return name;
  return "reno";
}

UnpacedLoopback::UnpacedLoopback(const std::string& run_folder) {
  previous_ = first_word(common::read_text(kCongestionControlSysctl));
  if (!common::is_kernel_name(previous_))
    throw std::runtime_error(fmt::format("cannot read the congestion control from {}", kCongestionControlSysctl));
  used_ = unpaced_congestion_control(common::read_text("/proc/sys/net/ipv4/tcp_available_congestion_control"));
  restore_path_ = run_folder + "/" + kCongestionControlRestoreFile;
  common::write_file_atomically(restore_path_, previous_ + "\n");
  set_default(used_);
}

UnpacedLoopback::~UnpacedLoopback() {
  if (common::write_control_file(kCongestionControlSysctl, previous_).empty()) std::remove(restore_path_.c_str());
}

std::vector<std::string> restore_stale_congestion_control(const std::string& tmp, const std::string& sysctl) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    const auto pid = common::owner_pid(name, "clerk-calibrate-");
    if (!pid || common::process_exists(*pid, "/proc")) continue;
    const std::string file = entry.path().string() + "/" + kCongestionControlRestoreFile;
    const std::string value = first_word(common::read_text(file));
    if (!common::is_kernel_name(value)) continue;
    const std::string problem = common::write_control_file(sysctl, value);
    out.push_back(problem.empty()
                      ? fmt::format("restored {} to {}, which a killed clerk calibrate ({}) had set for its CPU runs",
                                    sysctl, value, *pid)
                      : fmt::format("could not restore {} to {} after a killed clerk calibrate ({}): {}", sysctl, value,
                                    *pid, problem));
  }
  return out;
}

}  // namespace testbed::calibrate
