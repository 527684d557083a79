// The server machine as its processes see it on SimGrid: the counterpart of
// models::Host, with the NIC, CPU and disks made of SimGrid resources and
// the page cache, path lookup and task states shared with the native models.
#pragma once
#include <cstdint>

#include "engines/simgrid/sg_clock.h"
#include "engines/simgrid/sg_nic.h"
#include "engines/simgrid/sg_platform.h"
#include "models/os/host.h"
#include "models/os/page_cache.h"
#include "models/os/path_walk.h"
#include "models/os/sendfile.h"
#include "models/os/task_states.h"

namespace sgengine {

struct SgHost {
  const Platform& platform;
  SgNic& nic;
  models::PageCache& cache;
  models::PathWalk& walk;
  models::TaskStates& tasks;
  models::CpuCosts costs;
  models::KernelSpec kernel;
};

// Spends `seconds` of CPU on one of the server's cores, shared with every
// other task running: the calling actor waits until it is done.
void use_cpu(double seconds);

// A task (a worker's thread or a pool thread) that can wait for the disk:
// in D state while it waits, running again when the data is there.
class DiskWaiter : public models::PageWaiter, public models::WalkWaiter {
 public:
  DiskWaiter(models::TaskStates& tasks, std::uint32_t task) : tasks_(tasks), task_(task) {}
  void on_page_ready(std::uint64_t) override { wake_.notify(); }
  void on_walk_done(std::uint64_t) override { wake_.notify(); }
  std::uint32_t submitter_task() const override { return task_; }
  void wait_for_disk(models::WaitCause cause);
  void set_state(models::TaskState s, models::WaitCause cause = models::WaitCause::kNone) {
    if (s == models::TaskState::kDiskWait) ++blocks;
    tasks_.set(now_ns(), task_, s, cause);
  }
  std::uint32_t task() const { return task_; }
  std::uint64_t blocks = 0;  // times this task went into D state

 private:
  models::TaskStates& tasks_;
  std::uint32_t task_;
  Wakeup wake_;
};

// sendfile() as models/os/sendfile.h describes it, run to its end: the
// caller waits (in D state) whenever a piece is not in the page cache.
void sendfile(SgHost& host, models::SendfileCall& call, DiskWaiter& task);

}  // namespace sgengine
