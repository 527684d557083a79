// The master process, as in nginx: opens the listening socket and the root,
// forks the workers, restarts a worker that dies, and on SIGTERM/SIGINT
// passes the signal on, waits for every worker and exits 0.
#pragma once

#include "options.h"

namespace clerk::serve {

int run_master(const ServeOptions& options);

}  // namespace clerk::serve
