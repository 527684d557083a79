#include "engines/simgrid/sg_host.h"

#include <simgrid/s4u/Actor.hpp>

namespace sgengine {

void use_cpu(double seconds) {
  if (seconds <= 0) return;
  simgrid::s4u::this_actor::execute(seconds * kFlopsPerSecond);
  ++resumptions();
}

void DiskWaiter::wait_for_disk(models::WaitCause cause) {
  set_state(models::TaskState::kDiskWait, cause);
  wake_.wait();
  set_state(models::TaskState::kRunning);
}

// The steps of models::sendfile_pieces, which returns at each page that
// must be read; here the call simply waits there and goes on.
void sendfile(SgHost& host, models::SendfileCall& call, DiskWaiter& task) {
  while (!models::sendfile_pieces(
      host.cache, host.kernel, call, &task, 0, [&host](std::uint32_t flow) { return host.nic.backlog(flow); },
      [&host](std::uint32_t flow, double bytes) { host.nic.send(flow, bytes); }))
    task.wait_for_disk(models::WaitCause::kDiskData);
}

}  // namespace sgengine
