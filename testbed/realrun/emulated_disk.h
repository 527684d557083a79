// `clerk realrun --disk emulated`: the scenario's own disk under the real
// server. clerk-disk (testbed/disk/) mounts the scenario's data set as a FUSE
// file system whose reads are answered when the scenario's disk model says
// the disk would; the server's root points at that mount instead of a data
// set written to this machine's disk.
//
// The daemon runs in clerk's own cgroup, not in the server's memory cgroup.
// It stores nothing, and the mount's page cache is charged to whoever reads
// it (the kernel charges a page to the memory cgroup of the task that
// allocates it: the nginx worker or pool thread whose sendfile() misses,
// page_cache_ra_unbounded -> filemap_add_folio -> mem_cgroup_charge), so
// the daemon's cgroup does not change what is cached. The server's cgroup
// runs at its limit for the whole run (that is how the cache is confined):
// the daemon's own allocations (reply buffers, thread stacks, the model's
// queues) there would be reclaimed against the cache, taking from the
// scenario's page cache, and would put the daemon into direct reclaim while
// readers wait on its replies, adding to the very latency it times.
//
// Clean-up, on every path: a normal end sends SIGTERM (libfuse's handler
// fails what is outstanding and unmounts; the daemon prints its summary
// lines, kept in the run's notes and printed under realrun's table); a failure or Ctrl-C kills its process
// group (stop_all_real_runs) and the destructor detaches the mount
// (umount2 MNT_DETACH) before the run folder is removed; a clerk killed by
// SIGKILL sends the daemon SIGTERM through PR_SET_PDEATHSIG, and the next
// run detaches any clerk-disk mount left in a dead run's folder
// (detach_stale_emulated_mounts) before removing that folder.
#pragma once
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "common/child_process.h"

namespace testbed::realrun {

struct EmulatedDiskLaunch {
  std::string binary;                // clerk-disk
  std::string scenario_file;         // the scenario, as the simulated side loads it
  std::vector<std::string> overrides;  // the same --set list
  std::string mountpoint;            // created here, under the run folder
  std::string log;                   // the daemon's stderr
};

class EmulatedDisk {
 public:
  // Starts the daemon and waits (up to 20 s) for its own "mounted" line.
  // Throws RealRunError with the daemon's log when it exits or does not
  // mount (after stopping it and detaching whatever it mounted).
  explicit EmulatedDisk(const EmulatedDiskLaunch& launch);
  EmulatedDisk(const EmulatedDisk&) = delete;
  EmulatedDisk& operator=(const EmulatedDisk&) = delete;
  ~EmulatedDisk();

  // Whether the daemon still runs; "" if so, else what happened and its log's end.
  std::string failure();

  // What stop() found: the daemon's summary lines (summary_lines; one line
  // saying so when it printed no own-latency line) and any problem.
  struct End {
    std::vector<std::string> summary;
    std::vector<std::string> problems;
  };
  // SIGTERM, wait for the unmount, read the daemon's log.
  End stop();

 private:
  void wait_for_mount();
  void detach() noexcept;
  EmulatedDiskLaunch launch_;
  common::ChildProcess daemon_;
};

// Whether a fuse.clerk-disk mount is at `mountpoint` (in a mountinfo text).
bool clerk_disk_mounted(const std::string& mountinfo, const std::string& mountpoint);

// The clerk-disk mount points in a mountinfo text that lie under a folder
// "<folder_root>/<prefix><pid>-..." of a process that no longer exists.
std::vector<std::string> stale_emulated_mounts(const std::string& mountinfo, const std::string& folder_root,
                                               const std::string& prefix, const std::string& proc_root = "/proc");

// Detaches (MNT_DETACH) every such mount of this machine; a line each.
std::vector<std::string> detach_stale_emulated_mounts(const std::string& folder_root, const std::string& prefix);

// The summary clerk-disk prints at unmount (testbed/disk/daemon.cpp's
// report and report_metadata), from its log: the last line beginning
// "clerk-disk: " that holds "own latency" (the emulated: or null-delay:
// reads), then every later "clerk-disk: " line up to "clerk-disk: unmounted"
// (read sizes, lookups, page cache, ext4's inode cache, and whatever the
// daemon adds there), in order. Other lines (libfuse's) are skipped. Empty
// when there is no own-latency line.
//
// The log is a file another process wrote, read as a stream: at most
// kSummaryMaxLines lines are kept (then one saying how many more there
// were), each cut at kSummaryMaxLineChars characters (saying how many more
// it had), control characters shown as '?', so a huge or hostile log can
// neither flood realrun's output nor fill its memory. `log_name` is named in
// those lines.
std::vector<std::string> summary_lines(std::istream& log, const std::string& log_name);
// The daemon prints 5 summary lines (own latency, read sizes, lookups, page
// cache, ext4's inode cache); 16 leaves room for more and fits a screen.
inline constexpr std::size_t kSummaryMaxLines = 16;
// Its fixed lines come from 320- and 512-byte buffers; the read-sizes line
// has a "BYTESxCOUNT" word per request length the kernel sent, at most 256
// page multiples (FUSE_MAX_MAX_PAGES) of up to 16 characters each: 4096.
inline constexpr std::size_t kSummaryMaxLineChars = 4096;

}  // namespace testbed::realrun
