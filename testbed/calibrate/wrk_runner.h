// One wrk run against a server on loopback: requests completed, wrk's own CPU
// time (wait4's rusage) and the server worker's CPU time over the same run.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "testbed/calibrate/proc_stat.h"

namespace testbed::calibrate {

struct WrkRun {
  std::uint64_t requests = 0;
  double seconds = 0;     // wrk's own report of the run's length
  double wrk_cpu_s = 0;   // user + system of wrk (all its threads)
  double server_cpu_s = 0;  // the server workers' threads' run time over the run (schedstat)
  ThreadSample server;      // the same by thread, with their read-type system calls (all workers summed)
};

struct WrkSummary {
  std::uint64_t requests = 0;
  double seconds = 0;
  std::uint64_t socket_errors = 0;  // connect/read/write/timeout errors
  std::uint64_t non_2xx = 0;
};

// Parses wrk's text output ("123 requests in 5.00s, ...").
WrkSummary parse_wrk_output(const std::string& text);

// wrk -t<threads> -c<connections> -d<seconds>s [extra args] url, with the
// server workers' CPU read before and after.
WrkRun run_wrk(const std::string& url, int connections, double seconds, const std::vector<pid_t>& server_workers,
               const std::vector<std::string>& extra = {}, int threads = 1);

}  // namespace testbed::calibrate
