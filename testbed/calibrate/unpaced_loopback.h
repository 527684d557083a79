// Measuring loopback's CPU costs without TCP's pacing. Where bbr paces
// loopback itself (models/os/tcp_pacing.h: "internal"), who pays the pacing
// depends on who transmits (models/os/host.h, loopback_pacing_byte): the
// sender when the client keeps up, the client when it lags. calibrate's
// nginx and wrk runs lag, so measured under bbr their costs would hold
// pacing in wrk's client_byte and leave the sender of a caught-up client
// without it. So calibrate measures those runs unpaced and pacing apart.
//
// NGINX and wrk set no TCP_CONGESTION, so their sockets get the network
// namespace's default (net.ipv4.tcp_congestion_control; an accepted socket
// its listener's). While an UnpacedLoopback is alive that default is cubic
// (always built in: CONFIG_TCP_CONG_CUBIC is the kernel's default choice;
// else reno, which the kernel always has); the machine's own is written back
// when it goes, also when an exception unwinds (a failure to is said on
// stderr, with the command that puts it back). A SIGKILL runs no
// destructor: the scope leaves "<machine's> <used>" in calibrate's run
// folder (`restore_file`), and the next calibrate puts the machine's back
// (restore_stale_congestion_control) before removing that folder, if the
// default is still the one calibrate set and the folder is calibrate's own
// (root's, not writable by others: /tmp is everyone's).
#pragma once
#include <string>
#include <vector>

namespace testbed::calibrate {

inline constexpr const char* kCongestionControlSysctl = "/proc/sys/net/ipv4/tcp_congestion_control";
inline constexpr const char* kCongestionControlRestoreFile = "tcp_congestion_control.restore";

class UnpacedLoopback {
 public:
  // `run_folder`: calibrate's own folder (owner_pid() can tell it is ours),
  // where the value to restore is kept while the scope lives. Throws
  // std::runtime_error naming the file when the default cannot be set.
  explicit UnpacedLoopback(const std::string& run_folder);
  ~UnpacedLoopback();
  UnpacedLoopback(const UnpacedLoopback&) = delete;
  UnpacedLoopback& operator=(const UnpacedLoopback&) = delete;
  const std::string& machines() const { return previous_; }  // the machine's own, restored at the end
  const std::string& used() const { return used_; }          // "cubic" (or "reno")

 private:
  std::string previous_, used_, restore_path_;
};

// The unpaced congestion control to use, given the kernel's
// tcp_available_congestion_control line: "cubic" if listed, else "reno".
std::string unpaced_congestion_control(const std::string& available);

// For each folder under `tmp` named "clerk-calibrate-<pid>..." whose owner
// is gone, which is a directory (not a link) of this user that nobody else
// may write, and which holds a restore file (a regular file, read up to
// 64 bytes): writes the machine's value back to `sysctl` when that still
// holds the one calibrate set and the value is one of `available`'s
// (tcp_available_congestion_control's line), and says what it did or left,
// one line each.
std::vector<std::string> restore_stale_congestion_control(
    const std::string& tmp = "/tmp", const std::string& sysctl = kCongestionControlSysctl,
    const std::string& available = "/proc/sys/net/ipv4/tcp_available_congestion_control");

}  // namespace testbed::calibrate
