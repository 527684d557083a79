// A worker process: one boost::asio::io_context run on the process's main
// thread (its event loop), accepting on its listening socket, plus with
// --aio threads its own thread pool. Returns the process's exit status.
#pragma once

#include <signal.h>

#include "options.h"

namespace clerk::serve {

// listen_fd: the shared socket or this worker's own reuseport socket (owned
// from here on). root_fd: O_PATH fd of --root. signal_mask: the mask to
// restore once the worker's SIGTERM/SIGINT handling is in place (the master
// forks with them blocked).
int run_worker(const ServeOptions& options, int listen_fd, int root_fd, const sigset_t& signal_mask);

}  // namespace clerk::serve
