// What a killed earlier run of `clerk realrun` or `clerk calibrate` left
// behind (a SIGKILL runs no destructor): memory cgroups with its server still
// in them, its run folder, and processes started from that folder (NGINX,
// clerk-serve, wrk, still holding the port). Each command names its state
// after itself: "<prefix><pid>" or "<prefix><pid>-<more>" (e.g.
// /tmp/clerk-realrun-1234-Ab12Cd, /sys/fs/cgroup/clerk-realrun-1234), so the
// owner can be told. Only state whose owner is no longer a process is
// removed: a live concurrent run's is never touched, and a name without a
// pid (made by hand, or by a test) is left alone. A folder must have the
// exact name mkdtemp made, "<prefix><pid>-" and six letters or digits: a
// user's own clerk-plot-2024-11-28 is not a dead clerk 2024's.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace common {

struct StaleScan {
  std::string prefix;                     // "clerk-realrun-"
  std::vector<std::string> cgroup_roots;  // folders whose children may be our cgroups
  std::vector<std::string> folder_roots;  // folders whose children may be our run folders
  std::string proc_root = "/proc";        // where processes are listed
  double kill_wait_s = 5;                 // how long killed processes get to disappear
  // Only folders and cgroups this user owns: in a shared /tmp another user's
  // dead plot folder is theirs to remove (and ours to fail on, every time).
  bool only_ours = false;
  // Whether a process whose command line names a stale folder is killed,
  // with its process group. realrun's and calibrate's folders are named by
  // the servers and load generators they started (an orphaned NGINX still
  // holding the port); a plot's folder by nothing of clerk's that outlives
  // it (gnuplot dies with clerk), so a process naming one is the user's own
  // (a tail -f, an editor on the leftovers) and is left alone.
  bool kill_processes = true;
};

// The owner's pid in "<prefix><pid>" or "<prefix><pid>-<more>"; nullopt for
// any other name.
std::optional<pid_t> owner_pid(const std::string& name, const std::string& prefix);

// The owner's pid in a run folder's name, "<prefix><pid>-XXXXXX" as mkdtemp
// makes it (six of [A-Za-z0-9]), the pid in decimal without a leading zero;
// nullopt for any other name ("clerk-plot-2024-11-28", "...-Ab12Cd.old").
std::optional<pid_t> run_folder_owner(const std::string& name, const std::string& prefix);

// Whether `pid` is a process (under `proc_root`). A pid reused by another
// process counts as alive: leaving stale state is safe, removing a live
// run's is not.
bool process_exists(pid_t pid, const std::string& proc_root);

// Kills what runs in stale cgroups and (unless !kill_processes) every
// process whose command line names a stale folder (with its process group:
// NGINX's workers go with their master), then removes those cgroups and
// folders. A cgroup is named by owner_pid, a folder by run_folder_owner. Returns one line
// per thing found, for stderr ("removed stale cgroup ... of dead clerk 1234").
std::vector<std::string> remove_stale_state(const StaleScan& scan);

// The name prefix of this process's own state: "<base>-<getpid()>".
std::string own_state_name(const std::string& base);

}  // namespace common
