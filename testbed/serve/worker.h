// A worker process: one boost::asio::io_context run on the process's main
// thread (its event loop), accepting on its listening socket, plus with
// --aio threads its own thread pool. Returns the process's exit status.
#pragma once

#include <signal.h>

#include "options.h"

namespace clerk::serve {

// The exit status by which a worker says "restarting me will not help"
// (its reuseport socket could not be opened, or its thread pool's threads
// could not be started): the master then shuts the server down.
inline constexpr int kWorkerFatal = 2;

// listen_fd: the shared socket or this worker's own reuseport socket (owned
// from here on). root_fd: O_PATH fd of --root. signal_mask: the mask to
// restore once the worker's SIGTERM/SIGINT handling is in place (the master
// forks with them blocked).
int run_worker(const ServeOptions& options, int listen_fd, int root_fd, const sigset_t& signal_mask);

}  // namespace clerk::serve
