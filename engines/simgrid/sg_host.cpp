#include "engines/simgrid/sg_host.h"

#include <algorithm>
#include <simgrid/s4u/Actor.hpp>

namespace sgengine {

void use_cpu(double seconds) {
  if (seconds <= 0) return;
  simgrid::s4u::this_actor::execute(seconds * kFlopsPerSecond);
  ++resumptions();
}

void DiskWaiter::wait_for_disk() {
  set_state(models::TaskState::kDiskWait);
  wake_.wait();
  set_state(models::TaskState::kRunning);
}

// The same steps as models::sendfile_run, which returns at each page that
// must be read and is called again when it is ready; here the call simply
// waits there.
void sendfile(SgHost& host, models::SendfileCall& call, DiskWaiter& task) {
  models::PageCache& cache = host.cache;
  const std::uint64_t size = cache.file_size(call.file);
  const std::uint64_t unit_bytes = cache.unit_bytes();
  for (;;) {
    bool must_wait = false;
    while (call.sent < call.limit && call.position < size) {
      const double space = host.kernel.tcp_wmem_max - host.nic.backlog(call.flow);
      if (space < 1.0) break;  // the send buffer is full: return what was sent
      const std::uint64_t unit = call.position / unit_bytes;
      if (call.waiting) {
        call.waiting = false;
        cache.access_after_wait(call.file, unit);
      } else {
        const std::uint64_t want = std::min(call.limit - call.sent, host.kernel.pipe_bytes);
        const std::uint64_t request_units = std::max<std::uint64_t>(1, (want + unit_bytes - 1) / unit_bytes);
        if (cache.read(call.file, unit, request_units, *call.ra, &task, 0) == models::PageCache::Result::kWait) {
          call.waiting = true;
          must_wait = true;
          break;
        }
      }
      const std::uint64_t unit_end = std::min(size, (unit + 1) * unit_bytes);
      const std::uint64_t bytes = std::min({unit_end - call.position, call.limit - call.sent,
                                            static_cast<std::uint64_t>(space)});
      host.nic.send(call.flow, static_cast<double>(bytes));
      call.position += bytes;
      call.sent += bytes;
    }
    if (!must_wait) return;
    task.wait_for_disk();
  }
}

}  // namespace sgengine
