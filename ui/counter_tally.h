// Who stands at each counter: every customer (connection) of a clerk
// (worker) with a request in progress, by where it is, and how long the
// longest-waiting one has waited. The store draws the counter's count and
// colour from this, so that "12 here" means the 12 dots around that clerk.
//
// Where a connection is follows its server phase (http_connection.h):
//   ready      kQueued: an event in the worker's epoll list (request or writable socket)
//   bench      kDelayed: the 1 ms timer after a full sendfile_max_chunk
//   desk       kSending with the worker running or asleep on the CPU queue
//   warehouse  kSending while the worker is in D (its own page-cache miss or open())
//   team       kWaitPool: a pool thread sends its chunk (aio threads)
//   dock       kWaitWritable: waiting for EPOLLOUT; counted apart, the NIC holds it
// The wait is wrk's: from when the request was written (or, open loop, was
// due) to now, the latency that request will have if it finished now.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/world.h"

namespace ui {

struct CounterTally {
  std::uint32_t ready = 0, bench = 0, desk = 0, warehouse = 0, team = 0, dock = 0;
  double oldest_s = 0;  // longest wait among the counted customers, seconds
  // The customers at the counter: everything but the dock.
  std::uint32_t here() const { return ready + bench + desk + warehouse + team; }
};

std::vector<CounterTally> tally_counters(models::World& world);

// How warm a counter looks for a wait of `oldest_s`: 0 up to 10 ms (a
// cached response on an idle server takes a few ms), 1 at 1 s and above,
// logarithmic between (latency spans decades).
float wait_warmth(double oldest_s);

// A wait as a person reads it: "0 ms", "850 ms", "1.2 s", "14 s".
std::string seconds_text(double s);

}  // namespace ui
