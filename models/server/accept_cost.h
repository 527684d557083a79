// How a worker's CPU for one accept event splits around accept() itself
// (ngx_event_accept): the connection is taken off the listen queue only once
// the worker has run that far, so between woken workers the first to get a
// CPU wins (wake_order.h).
#pragma once
#include <algorithm>

#include "models/os/host.h"

namespace models {

// The part of `accept` spent before accept() takes a connection: the epoll
// event handled up to that call, the same work as a turn that then finds the
// queue empty (`event`). The rest, registering the connection
// (ngx_http_init_connection), follows only when it got one.
inline double accept_claim_cpu(const CpuCosts& costs) { return std::min(costs.event, costs.accept); }

}  // namespace models
