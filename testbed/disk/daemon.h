// clerk-disk's mount mode: clean a stale mount, mount the scenario's data
// set read-only at the mount point, tune the mount (mount_tuning.h), serve
// until SIGINT, SIGTERM or SIGHUP (libfuse's handlers end the loop) or an
// external unmount, then fail what is still outstanding with EIO, unmount
// and report the daemon's own lateness (realtime_disk.h). It runs
// SCHED_FIFO (lowest priority) where allowed: its replies are timed.
#pragma once
#include <string>

#include "models/scenario/scenario.h"

namespace testbed::disk {

struct DaemonOptions {
  std::string mountpoint;
  bool null_delay = false;
  unsigned threads = 16;  // libfuse's idle worker threads (max_idle_threads)
};

// `options.mountpoint` is resolved (resolved_mount_point, mount_tuning.h).
// Exit status: 0 after a clean stop, 1 when it could not mount or serve, 3
// when its own mount is not found to tune (unmounted again). Throws
// common::BadInput (exit 2) when a live mount is at the mount point.
int run_daemon(const models::Scenario& sc, const DaemonOptions& options);

// Reads the first `files` files of the data set through `mountpoint` with
// buffered reads and checks every byte (content.h); one line per mismatch
// or error on stderr. Exit status: 0 all match, 1 otherwise.
int verify_mount(const models::Scenario& sc, const std::string& mountpoint, std::uint32_t files);

}  // namespace testbed::disk
