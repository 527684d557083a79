// The registry of accept policies (accept_policies.h): one row each.
#include "models/server/accept_policies.h"

#include <algorithm>

namespace models {

namespace {

const AcceptPolicy kMutexOff{.name = "accept_mutex off", .label = "accept_mutex off", .brief = "accept_mutex off"};
const AcceptPolicy kMutexOn{
    .name = "accept_mutex on", .label = "accept_mutex on", .brief = "accept_mutex on", .accept_mutex = true};
const AcceptPolicy kReuseport{.name = "reuseport", .label = "reuseport", .brief = "reuseport", .reuseport = true};

}  // namespace

const std::vector<const AcceptPolicy*>& accept_policies() {
  static const std::vector<const AcceptPolicy*> rows{&kMutexOff, &kMutexOn, &kReuseport};
  return rows;
}

const AcceptPolicy& accept_policy(bool accept_mutex, bool reuseport) {
  for (const AcceptPolicy* p : accept_policies())
    if (p->reuseport == reuseport && (reuseport || p->accept_mutex == accept_mutex)) return *p;
  return *accept_policies().front();
}

std::size_t accept_policy_index(const AcceptPolicy* policy) {
  const auto& rows = accept_policies();
  return static_cast<std::size_t>(std::find(rows.begin(), rows.end(), policy) - rows.begin());
}

}  // namespace models
